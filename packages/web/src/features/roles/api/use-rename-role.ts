import type { RoleResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromRoleResource } from '../../../resources/roles/role.hal.ts';
import { roleKeys } from '../../../resources/roles/role-keys.ts';

/** contract §5.3 PUT /roles/:id {name}. */
export function useRenameRole(roleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) =>
      fromRoleResource(
        await apiRequest<RoleResource>('auth', `/roles/${encodeURIComponent(roleId)}`, {
          method: 'PUT',
          body: { name },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  });
}
