import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpointKeys } from './endpoint-keys.ts';
import { type EndpointOperationType, startEndpointOperation } from './endpoint-requests.ts';

/** POST /vhosts/:id/operations: deprovision, provision again, or renew an ACME certificate. */
export function useEndpointOperation(endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (type: EndpointOperationType) => startEndpointOperation(endpointId, type),
    onSettled: () => queryClient.invalidateQueries({ queryKey: endpointKeys.all }),
  });
}
