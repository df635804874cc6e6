import { isOperationFinished, POLL_INTERVAL_MS } from '@berth/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromOperationHal, type Operation, type OperationHal } from './operation.hal.ts';
import { operationKeys } from './operation-keys.ts';

/** GET /operations/{id}, polled every 3 s until it is succeeded or failed (spec 3 §4). */
export function useOperation(id: string) {
  const { phase } = useSession();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: operationKeys.detail(id),
    queryFn: async ({ signal }): Promise<Operation> => {
      try {
        return fromOperationHal(await apiRequest<OperationHal>('api', `/operations/${id}`, { signal }));
      } catch (error) {
        // spec 2 §4, contract §1.2: a 404 while waiting on a deprovision counts as succeeded.
        const known = queryClient.getQueryData<Operation>(operationKeys.detail(id));
        if (error instanceof ApiError && error.status === 404 && known?.type === 'deprovision') {
          return { ...known, status: 'succeeded' };
        }
        throw error;
      }
    },
    enabled: phase === 'authenticated' && id !== '',
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data && isOperationFinished(query.state.data.status) ? false : POLL_INTERVAL_MS.operation,
  });
}
