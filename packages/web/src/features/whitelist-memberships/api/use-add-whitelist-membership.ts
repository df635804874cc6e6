import type { WhitelistMembershipResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromWhitelistMembershipResource } from '../../../resources/whitelist-memberships/whitelist-membership.hal.ts';
import { whitelistMembershipKeys } from './whitelist-membership-keys.ts';

/** contract §5.4 POST /organizations/:id/whitelist_memberships `{user_id}`. */
export function useAddWhitelistMembership(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (userId: string) =>
      fromWhitelistMembershipResource(
        await apiRequest<WhitelistMembershipResource>(
          'auth',
          `/organizations/${encodeURIComponent(organizationId)}/whitelist_memberships`,
          { method: 'POST', body: { user_id: userId } },
        ),
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: whitelistMembershipKeys.organization(organizationId) }),
  });
}
