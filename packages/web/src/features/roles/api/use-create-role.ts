import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromRoleHal, type RoleHal } from './role.hal.ts';
import { roleKeys } from './role-keys.ts';

/** contract §5.3 POST /organizations/:id/roles {name, type: "platform_user"} (spec 1 §9 default type). */
export function useCreateRole(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) =>
      fromRoleHal(
        await apiRequest<RoleHal>('auth', `/organizations/${encodeURIComponent(organizationId)}/roles`, {
          method: 'POST',
          body: { name, type: 'platform_user' },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  });
}
