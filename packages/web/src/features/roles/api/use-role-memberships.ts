import type { MembershipCollection } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { fromMembershipResource } from '../../../resources/memberships/membership.hal.ts';
import { roleKeys } from '../../../resources/roles/role-keys.ts';

/** contract §5.3 GET /roles/:id/memberships: who holds the role, and who administers it. */
export function useRoleMemberships(roleId: string) {
  return useQuery({
    queryKey: roleKeys.memberships(roleId),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<MembershipCollection>(
        'auth',
        `/roles/${encodeURIComponent(roleId)}/memberships`,
        { signal },
      );
      return embeddedList(list, 'memberships').map(fromMembershipResource);
    },
    enabled: roleId !== '',
  });
}
