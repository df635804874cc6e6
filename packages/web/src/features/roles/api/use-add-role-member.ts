import type { MembershipResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, serviceUrl } from '../../../lib/api-client.ts';
import { fromMembershipResource } from '../../../resources/memberships/membership.hal.ts';
import { roleKeys } from '../../../resources/roles/role-keys.ts';

/** contract §5.3 POST /roles/:id/memberships {user_url}: the user's absolute auth URL (contract §1.9). */
export function useAddRoleMember(roleId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (userId: string) =>
      fromMembershipResource(
        await apiRequest<MembershipResource>('auth', `/roles/${encodeURIComponent(roleId)}/memberships`, {
          method: 'POST',
          body: { user_url: serviceUrl('auth', `/users/${encodeURIComponent(userId)}`) },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  });
}
