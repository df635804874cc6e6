import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { environmentKeys } from './environment-keys.ts';

/**
 * contract §5.6 DELETE /accounts/:id (destroy scope). The server refuses while apps or databases remain,
 * naming them; the caller shows that message.
 */
export function useDeprovisionEnvironment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<EmptyResponse>('api', `/accounts/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: environmentKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: environmentKeys.list() });
    },
  });
}
