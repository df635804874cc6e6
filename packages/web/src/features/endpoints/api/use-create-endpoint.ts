import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromVhostHal, type VhostHal } from './endpoint.hal.ts';
import { endpointKeys } from './endpoint-keys.ts';
import { type CreateEndpointBody, startEndpointOperation } from './endpoint-requests.ts';

/**
 * spec 2 §4 endpoint provisioning: create the endpoint on its service, then run a provision operation
 * (a certificate to upload first is the caller's step). Answers the endpoint and the operation.
 */
export function useCreateEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ serviceId, body }: { serviceId: string; body: CreateEndpointBody }) => {
      const endpoint = fromVhostHal(
        await apiRequest<VhostHal>('api', `/services/${encodeURIComponent(serviceId)}/vhosts`, {
          method: 'POST',
          body,
        }),
      );
      const operation = await startEndpointOperation(endpoint.id, 'provision');
      return { endpoint, operation };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: endpointKeys.all }),
  });
}
