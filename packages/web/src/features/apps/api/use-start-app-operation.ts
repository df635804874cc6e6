import { type OperationRequest, operationsPath } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { type AppOperationHal, fromAppOperationHal } from './app.hal.ts';
import { appKeys } from './app-keys.ts';

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
      fromAppOperationHal(
        await apiRequest<AppOperationHal>('api', operationsPath('app', appId), {
          method: 'POST',
          body: request.type === 'restart' ? { ...request, id: appId } : request,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appKeys.all }),
  });
}
