import { type OperationRequest, type OperationResource, operationsPath } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { appKeys } from '../../../resources/apps/app-keys.ts';
import { deploymentKeys } from '../../../resources/deployments/deployment-keys.ts';
import { fromOperationResource } from '../../../resources/operations/operation.hal.ts';

/** contract §6: the app operation bodies the console sends, shaped by core's catalog. */
export type AppOperationRequest =
  | OperationRequest<'app', 'deploy'>
  | OperationRequest<'app', 'configure'>
  | OperationRequest<'app', 'restart'>
  | OperationRequest<'app', 'deprovision'>;

/** POST /apps/:id/operations; the answer is the queued operation. */
export function useStartAppOperation(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: AppOperationRequest) =>
      fromOperationResource(
        await apiRequest<OperationResource>('api', operationsPath('app', appId), {
          method: 'POST',
          body: request.type === 'restart' ? { ...request, id: appId } : request,
        }),
      ),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: appKeys.all }),
        queryClient.invalidateQueries({ queryKey: deploymentKeys.all }),
      ]);
    },
  });
}
