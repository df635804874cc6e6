import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromOperationHal, type Operation, type OperationHal } from './operation.hal.ts';
import { operationKeys } from './operation-keys.ts';

/** The request that posts an operation again with the same inputs (contract §6), or null if none. */
export function rerunRequest(operation: Operation): { path: string; body: Record<string, unknown> } | null {
  const { type, resourceId } = operation;
  if (operation.resourceType === 'app') {
    const body: Record<string, unknown> = { type };
    if (type === 'deploy') {
      if (operation.dockerRef) body.docker_image = operation.dockerRef;
      else if (operation.gitRef) body.git_ref = operation.gitRef;
    }
    if (type === 'scan_code' && operation.gitRef) body.git_ref = operation.gitRef;
    if (type === 'configure') body.env = operation.env ?? {};
    if (type === 'restart') body.id = resourceId;
    return { path: `/apps/${resourceId}/operations`, body };
  }
  if (operation.resourceType === 'service') {
    const body: Record<string, unknown> = { type, id: resourceId };
    if (type === 'scale') {
      if (operation.containerCount !== null) body.container_count = operation.containerCount;
      if (operation.containerSize !== null) body.container_size = operation.containerSize;
      if (operation.instanceProfile) body.instance_profile = operation.instanceProfile;
    }
    return { path: `/services/${resourceId}/operations`, body };
  }
  if (operation.resourceType === 'vhost') {
    // contract §6: provision or renew, with no other keys.
    return { path: `/vhosts/${resourceId}/operations`, body: { type } };
  }
  return null;
}

/** spec 3 §2 Re-run: posts the same operation again; the lists refresh. */
export function useRerunOperation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (operation: Operation): Promise<Operation> => {
      const request = rerunRequest(operation);
      if (!request) throw new Error(`A ${operation.resourceType} operation cannot be run again here`);
      return fromOperationHal(
        await apiRequest<OperationHal>('api', request.path, { method: 'POST', body: request.body }),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operationKeys.lists() }),
  });
}
