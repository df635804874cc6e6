import type { RoleMembershipsMap } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromMembershipResource, type Membership } from '../../../resources/memberships/membership.hal.ts';
import { roleKeys } from '../../../resources/roles/role-keys.ts';

/** Every membership of the organization's roles (contract §7 step 7). */
export function useOrganizationMemberships(organizationId: string | null) {
  const { phase } = useSession();
  const id = organizationId ?? '';
  return useQuery({
    queryKey: roleKeys.organizationMemberships(id),
    queryFn: async ({ signal }): Promise<Membership[]> => {
      // contract §5.3: `_embedded` is a map (role id → { memberships }), never an array.
      const body = await apiRequest<RoleMembershipsMap>(
        'auth',
        `/organizations/${encodeURIComponent(id)}/roles/memberships`,
        { signal },
      );
      return Object.values(body._embedded)
        .flatMap((entry) => entry.memberships)
        .map(fromMembershipResource);
    },
    enabled: phase === 'authenticated' && id !== '',
  });
}
