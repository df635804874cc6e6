import { POLL_INTERVAL_MS } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import { type AppOperationHal, fromAppOperationHal, isOperationFinished } from './app.hal.ts';
import { appKeys } from './app-keys.ts';

/**
 * contract §5.11 GET /operations/:id, polled every 3 s until it succeeds or fails (spec 2 §4).
 * A 404 on a deprovision counts as succeeded.
 */
export function useAppOperation(id: string | null, type?: string) {
  return useQuery({
    queryKey: appKeys.operation(id ?? ''),
    queryFn: async ({ signal }) => {
      try {
        return fromAppOperationHal(
          await apiRequest<AppOperationHal>('api', `/operations/${encodeURIComponent(id ?? '')}`, { signal }),
        );
      } catch (error) {
        if (type === 'deprovision' && error instanceof ApiError && error.status === 404) {
          return fromAppOperationHal({
            id: id ?? '',
            _type: 'operation',
            _links: {},
            type,
            status: 'succeeded',
          });
        }
        throw error;
      }
    },
    enabled: id !== null,
    refetchInterval: (query) =>
      query.state.data && isOperationFinished(query.state.data.status) ? false : POLL_INTERVAL_MS.operation,
  });
}
