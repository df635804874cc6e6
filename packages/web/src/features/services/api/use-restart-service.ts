import { type OperationResource, operationRequest, operationsPath } from '@berth/core';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { idOf } from '../../../lib/hal.ts';

/** contract §6 POST /services/:id/operations {type: 'restart'}: answers the queued operation's id. */
export function useRestartService(serviceId: string) {
  return useMutation({
    mutationFn: async () => {
      const operation = await apiRequest<OperationResource>('api', operationsPath('service', serviceId), {
        method: 'POST',
        body: operationRequest('service', 'restart', { id: serviceId }),
      });
      return { id: idOf(operation) };
    },
  });
}
