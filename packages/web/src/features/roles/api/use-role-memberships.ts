import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList, type HalCollection } from '../../../lib/hal.ts';
import { fromMembershipHal, type MembershipHal } from './membership.hal.ts';
import { roleKeys } from './role-keys.ts';

/** contract §5.3 GET /roles/:id/memberships: who holds the role, and who administers it. */
export function useRoleMemberships(roleId: string) {
  return useQuery({
    queryKey: roleKeys.memberships(roleId),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<HalCollection<MembershipHal>>(
        'auth',
        `/roles/${encodeURIComponent(roleId)}/memberships`,
        { signal },
      );
      return embeddedList(list, 'memberships')
        .map(fromMembershipHal)
        .filter((membership) => membership !== null);
    },
    enabled: roleId !== '',
  });
}
