import type { InvitationCollection } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromInvitationResource } from '../../../resources/invitations/invitation.hal.ts';
import { invitationKeys } from './invitation-keys.ts';

/**
 * contract §5.3 GET /organizations/:id/invitations (`_embedded.invitations`): the pending invitations.
 * The server answers them to owners and role admins only (403 otherwise): `enabled` lets a page that
 * already knows the caller is neither skip the call.
 */
export function useOrganizationInvitations(organizationId: string | null, { enabled = true } = {}) {
  const { phase } = useSession();
  const id = organizationId ?? '';
  return useQuery({
    queryKey: invitationKeys.organization(id),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<InvitationCollection>(
        'auth',
        `/organizations/${encodeURIComponent(id)}/invitations`,
        { signal },
      );
      return embeddedList(list, 'invitations').map(fromInvitationResource);
    },
    enabled: enabled && phase === 'authenticated' && id !== '',
    // Issue 20: an invitation accepted elsewhere leaves the list within a quarter minute, and coming back
    // to the tab reads it again at once.
    staleTime: 0,
    refetchInterval: 15_000,
    refetchIntervalInBackground: false,
  });
}
