import type { VhostResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { messageOf } from '../../../lib/error-message.ts';
import { type Endpoint, fromVhostResource } from '../../../resources/endpoints/endpoint.hal.ts';
import { endpointKeys } from './endpoint-keys.ts';
import {
  type CreateEndpointBody,
  type StartedOperation,
  startEndpointOperation,
} from './endpoint-requests.ts';

/** The endpoint record always; the provision operation, or why it could not be started. */
export type CreatedEndpoint =
  | { endpoint: Endpoint; operation: StartedOperation; provisionError: null }
  | { endpoint: Endpoint; operation: null; provisionError: string };

/**
 * spec 2 §4 endpoint provisioning: create the endpoint on its service, then run a provision operation
 * (a certificate to upload first is the caller's step).
 *
 * Once the record exists the mutation succeeds even if the provision call fails: asking again would
 * create a second endpoint, so the caller opens the endpoint and offers the provision there.
 */
export function useCreateEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      serviceId,
      body,
    }: {
      serviceId: string;
      body: CreateEndpointBody;
    }): Promise<CreatedEndpoint> => {
      const endpoint = fromVhostResource(
        await apiRequest<VhostResource>('api', `/services/${encodeURIComponent(serviceId)}/vhosts`, {
          method: 'POST',
          body,
        }),
      );
      try {
        const operation = await startEndpointOperation(endpoint.id, 'provision');
        return { endpoint, operation, provisionError: null };
      } catch (error) {
        return { endpoint, operation: null, provisionError: messageOf(error) };
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: endpointKeys.all }),
  });
}
