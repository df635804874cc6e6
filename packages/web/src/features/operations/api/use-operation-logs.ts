import { useQuery } from '@tanstack/react-query';
import { operationKeys } from '../../../resources/operations/operation-keys.ts';
import { fetchOperationLogs } from './fetch-operation-logs.ts';

/** contract §5.11: logs are asked for only once the operation is succeeded or failed. */
export function useOperationLogs(operationId: string, finished: boolean) {
  return useQuery({
    queryKey: operationKeys.logs(operationId),
    queryFn: ({ signal }) => fetchOperationLogs(operationId, { signal }),
    enabled: finished && operationId !== '',
    // fetchOperationLogs already retries the capability URL (contract §1.10).
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
