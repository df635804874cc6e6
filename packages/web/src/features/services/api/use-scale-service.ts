import { type OperationResource, operationRequest, operationsPath } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { idOf } from '../../../lib/hal.ts';
import { serviceKeys } from '../../../resources/services/service-keys.ts';

export interface ScaleRequest {
  containerCount: number;
  containerSizeMb: number;
  instanceProfile: string;
}

/** contract §6 POST /services/:id/operations {type: 'scale', ...}; answers the queued operation's id. */
export function useScaleService(serviceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: ScaleRequest) => {
      const operation = await apiRequest<OperationResource>('api', operationsPath('service', serviceId), {
        method: 'POST',
        body: operationRequest('service', 'scale', {
          id: serviceId,
          container_count: request.containerCount,
          container_size: request.containerSizeMb,
          instance_profile: request.instanceProfile,
        }),
      });
      return { id: idOf(operation), status: operation.status };
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: serviceKeys.all }),
  });
}
