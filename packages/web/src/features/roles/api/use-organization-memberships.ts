import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import type { HalLinks } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromMembershipHal, type Membership, type MembershipHal } from './membership.hal.ts';
import { roleKeys } from './role-keys.ts';

/** contract §5.3: `_embedded` is a map (role id → { memberships }), never an array. */
interface MembershipsByRoleHal {
  _embedded?: Record<string, { memberships?: MembershipHal[] | null } | null> | null;
  _links?: HalLinks;
}

/** Every membership of the organization's roles (contract §7 step 7). */
export function useOrganizationMemberships(organizationId: string | null) {
  const { phase } = useSession();
  const id = organizationId ?? '';
  return useQuery({
    queryKey: roleKeys.organizationMemberships(id),
    queryFn: async ({ signal }): Promise<Membership[]> => {
      const body = await apiRequest<MembershipsByRoleHal>(
        'auth',
        `/organizations/${encodeURIComponent(id)}/roles/memberships`,
        { signal },
      );
      return Object.values(body._embedded ?? {})
        .flatMap((entry) => entry?.memberships ?? [])
        .map(fromMembershipHal)
        .filter((membership) => membership !== null);
    },
    enabled: phase === 'authenticated' && id !== '',
  });
}
