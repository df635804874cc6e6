import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { roleKeys } from '../../../resources/roles/role-keys.ts';

/** contract §5.3 DELETE /roles/:id. */
export function useDeleteRole(roleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<EmptyResponse>('auth', `/roles/${encodeURIComponent(roleId)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  });
}
