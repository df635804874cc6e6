import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { operationKeys } from '../../../resources/operations/operation-keys.ts';
import { fetchOperationLogs } from './fetch-operation-logs.ts';

/** How often a running operation's log is read again (issue 20: lines appear while it runs). */
export const LIVE_LOGS_MS = 2000;

/**
 * contract §5.11: an operation's log. Issue 20: while it runs the log is read again every 2 s, so build
 * output shows as it happens; once it has finished it is read a last time and kept.
 */
export function useOperationLogs(operationId: string, status: string) {
  const finished = status === 'succeeded' || status === 'failed';
  const running = status === 'running';
  const query = useQuery({
    queryKey: operationKeys.logs(operationId),
    queryFn: ({ signal }) => fetchOperationLogs(operationId, { signal }),
    enabled: operationId !== '' && (finished || running),
    // fetchOperationLogs already retries the capability URL (contract §1.10).
    retry: false,
    staleTime: finished ? Number.POSITIVE_INFINITY : 0,
    refetchInterval: running ? LIVE_LOGS_MS : false,
    refetchIntervalInBackground: false,
  });
  const { refetch } = query;
  // Seen running, then finished: the lines written between the last read and the end.
  const wasRunning = useRef(false);
  useEffect(() => {
    if (running) wasRunning.current = true;
    else if (finished && wasRunning.current) {
      wasRunning.current = false;
      void refetch();
    }
  }, [running, finished, refetch]);
  return query;
}
