import type { VhostResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromVhostResource } from '../../../resources/endpoints/endpoint.hal.ts';
import { endpointKeys } from './endpoint-keys.ts';
import { startEndpointOperation, type UpdateEndpointBody } from './endpoint-requests.ts';

/** spec 2 §4 endpoint update: patch the endpoint, then run a provision operation to apply it. */
export function useUpdateEndpoint(endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateEndpointBody) => {
      const endpoint = fromVhostResource(
        await apiRequest<VhostResource>('api', `/vhosts/${encodeURIComponent(endpointId)}`, {
          method: 'PATCH',
          body,
        }),
      );
      const operation = await startEndpointOperation(endpoint.id, 'provision');
      return { endpoint, operation };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: endpointKeys.all }),
  });
}
