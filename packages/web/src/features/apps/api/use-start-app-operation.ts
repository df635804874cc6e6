import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { type AppOperationHal, fromAppOperationHal } from './app.hal.ts';
import { appKeys } from './app-keys.ts';

/** contract §6: the app operation bodies the console sends. */
export type AppOperationRequest =
  | { type: 'deploy'; git_ref: string }
  | { type: 'configure'; env: Record<string, string> }
  | { type: 'restart' }
  | { type: 'deprovision' };

/** POST /apps/:id/operations; the answer is the queued operation. */
export function useStartAppOperation(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: AppOperationRequest) =>
      fromAppOperationHal(
        await apiRequest<AppOperationHal>('api', `/apps/${encodeURIComponent(appId)}/operations`, {
          method: 'POST',
          body: request.type === 'restart' ? { ...request, id: appId } : request,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appKeys.all }),
  });
}
