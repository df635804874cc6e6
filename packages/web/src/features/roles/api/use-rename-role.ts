import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromRoleHal, type RoleHal } from './role.hal.ts';
import { roleKeys } from './role-keys.ts';

/** contract §5.3 PUT /roles/:id {name}. */
export function useRenameRole(roleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) =>
      fromRoleHal(
        await apiRequest<RoleHal>('auth', `/roles/${encodeURIComponent(roleId)}`, {
          method: 'PUT',
          body: { name },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  });
}
