import type { RoleResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromRoleResource } from '../../../resources/roles/role.hal.ts';
import { roleKeys } from '../../../resources/roles/role-keys.ts';

/** contract §5.3 POST /organizations/:id/roles {name, type: "platform_user"} (spec 1 §9 default type). */
export function useCreateRole(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) =>
      fromRoleResource(
        await apiRequest<RoleResource>('auth', `/organizations/${encodeURIComponent(organizationId)}/roles`, {
          method: 'POST',
          body: { name, type: 'platform_user' },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  });
}
