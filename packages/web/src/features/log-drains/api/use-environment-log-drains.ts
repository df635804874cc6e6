import { type LogDrainCollection, MAX_PAGES, POLL_INTERVAL_MS } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromLogDrainResource } from '../../../resources/log-drains/log-drain.hal.ts';
import { logDrainKeys } from './log-drain-keys.ts';

/**
 * contract §5.10 GET /accounts/:id/log_drains?page=N, auto-paged (contract §1.4): page 1, then the rest
 * in parallel. Polled while the page is open: statuses settle and the shipped counts move.
 */
export function useEnvironmentLogDrains(environmentId: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: logDrainKeys.ofEnvironment(environmentId),
    queryFn: async ({ signal }) => {
      const path = (page: number) => `/accounts/${encodeURIComponent(environmentId)}/log_drains?page=${page}`;
      const first = await apiRequest<LogDrainCollection>('api', path(1), { signal });
      const perPage = first.per_page || 0;
      const pages = perPage > 0 ? Math.min(MAX_PAGES, Math.ceil((first.total_count ?? 0) / perPage)) : 1;
      const rest = await Promise.all(
        Array.from({ length: Math.max(0, pages - 1) }, (_, index) =>
          apiRequest<LogDrainCollection>('api', path(index + 2), { signal }),
        ),
      );
      return [first, ...rest].flatMap((list) => embeddedList(list, 'log_drains')).map(fromLogDrainResource);
    },
    enabled: phase === 'authenticated' && environmentId !== '',
    refetchInterval: POLL_INTERVAL_MS.endpoint,
    refetchIntervalInBackground: false,
  });
}
