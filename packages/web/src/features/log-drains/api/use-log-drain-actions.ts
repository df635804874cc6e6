import type { CreateLogDrainBody, LogDrainResource, OperationResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromLogDrainResource } from '../../../resources/log-drains/log-drain.hal.ts';
import { logDrainKeys } from './log-drain-keys.ts';

/** contract §5.10 POST /accounts/:id/log_drains, then `provision` (the console creates and provisions). */
export function useCreateLogDrain(environmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // The body may carry a URL with a key and a token: not kept in the cache after it is sent.
    gcTime: 0,
    mutationFn: async (body: CreateLogDrainBody) => {
      const drain = fromLogDrainResource(
        await apiRequest<LogDrainResource>(
          'api',
          `/accounts/${encodeURIComponent(environmentId)}/log_drains`,
          {
            method: 'POST',
            body,
          },
        ),
      );
      await startLogDrainOperation(drain.id, 'provision');
      return drain;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: logDrainKeys.all }),
  });
}

export type LogDrainOperationType = 'provision' | 'configure' | 'deprovision';

function startLogDrainOperation(drainId: string, type: LogDrainOperationType) {
  return apiRequest<OperationResource>('api', `/log_drains/${encodeURIComponent(drainId)}/operations`, {
    method: 'POST',
    body: { type },
  });
}

/** POST /log_drains/:id/operations: provision again, restart (configure) or deprovision. */
export function useLogDrainOperation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ drainId, type }: { drainId: string; type: LogDrainOperationType }) =>
      startLogDrainOperation(drainId, type),
    onSettled: () => queryClient.invalidateQueries({ queryKey: logDrainKeys.all }),
  });
}

/** DELETE /log_drains/:id: a drain that is not shipping. */
export function useDeleteLogDrain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (drainId: string) =>
      apiRequest<void>('api', `/log_drains/${encodeURIComponent(drainId)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: logDrainKeys.all }),
  });
}
