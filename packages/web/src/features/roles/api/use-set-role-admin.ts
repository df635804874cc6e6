import type { MembershipResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromMembershipResource } from '../../../resources/memberships/membership.hal.ts';
import { roleKeys } from '../../../resources/roles/role-keys.ts';

/** contract §5.3 PATCH /memberships/:id {privileged}: makes or unmakes a role admin (spec 1 §6). */
export function useSetRoleAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ membershipId, privileged }: { membershipId: string; privileged: boolean }) =>
      fromMembershipResource(
        await apiRequest<MembershipResource>('auth', `/memberships/${encodeURIComponent(membershipId)}`, {
          method: 'PATCH',
          body: { privileged },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: roleKeys.all }),
  });
}
