import { isOperationFinished, type OperationResource, POLL_INTERVAL_MS } from '@berth/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../lib/api-client.ts';
import { useSession } from '../../lib/session-store.ts';
import { deprovisionSucceeded, fromOperationResource, type Operation } from './operation.hal.ts';
import { operationKeys } from './operation-keys.ts';

export interface UseOperationOptions {
  /** The caller started a deprovision: a 404 means the resource and its operation are gone. */
  deprovision?: boolean;
}

/**
 * contract §5.11 GET /operations/:id, polled every 3 s until it is succeeded or failed (spec 2 §4, spec 3
 * §4). The one way to follow an operation: the operation page, the progress banners and the deployment
 * page share its cache entry. A null or empty id follows nothing.
 */
export function useOperation(id: string | null, { deprovision = false }: UseOperationOptions = {}) {
  const { phase } = useSession();
  const queryClient = useQueryClient();
  const operationId = id ?? '';
  return useQuery({
    queryKey: operationKeys.detail(operationId),
    queryFn: async ({ signal }): Promise<Operation> => {
      try {
        return fromOperationResource(
          await apiRequest<OperationResource>('api', `/operations/${encodeURIComponent(operationId)}`, {
            signal,
          }),
        );
      } catch (error) {
        // spec 2 §4, contract §1.2: a 404 while waiting on a deprovision counts as succeeded.
        const known = queryClient.getQueryData<Operation>(operationKeys.detail(operationId));
        if (
          error instanceof ApiError &&
          error.status === 404 &&
          (deprovision || known?.type === 'deprovision')
        ) {
          return deprovisionSucceeded(operationId, known);
        }
        throw error;
      }
    },
    enabled: phase === 'authenticated' && operationId !== '',
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data && isOperationFinished(query.state.data.status) ? false : POLL_INTERVAL_MS.operation,
  });
}
