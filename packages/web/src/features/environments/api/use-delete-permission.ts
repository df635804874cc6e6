import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { environmentKeys } from './environment-keys.ts';

/** contract §5.6 DELETE /permissions/:id. */
export function useDeletePermission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (permissionId: string) =>
      apiRequest<EmptyResponse>('api', `/permissions/${encodeURIComponent(permissionId)}`, {
        method: 'DELETE',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: environmentKeys.all }),
  });
}
