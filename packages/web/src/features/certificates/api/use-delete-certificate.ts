import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { certificateKeys } from './certificate-keys.ts';

/** contract §5.9 DELETE /certificates/:id (the server refuses while an endpoint uses it). */
export function useDeleteCertificate(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<EmptyResponse>('api', `/certificates/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: certificateKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: certificateKeys.all });
    },
  });
}
