import type { WhitelistMembershipCollection } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromWhitelistMembershipResource } from '../../../resources/whitelist-memberships/whitelist-membership.hal.ts';
import { whitelistMembershipKeys } from './whitelist-membership-keys.ts';

/** contract §5.4: the organization's SSO exception list (Account Owners only; `enabled` says when to ask). */
export function useWhitelistMemberships(organizationId: string | null, enabled = true) {
  const { phase } = useSession();
  const id = organizationId ?? '';
  return useQuery({
    queryKey: whitelistMembershipKeys.organization(id),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<WhitelistMembershipCollection>(
        'auth',
        `/organizations/${encodeURIComponent(id)}/whitelist_memberships`,
        { signal },
      );
      return embeddedList(list, 'whitelist_memberships').map(fromWhitelistMembershipResource);
    },
    enabled: enabled && phase === 'authenticated' && id !== '',
  });
}
