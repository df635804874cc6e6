import type { InvitationResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest, isApiError } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromInvitationResource } from '../../../resources/invitations/invitation.hal.ts';
import { invitationKeys } from './invitation-keys.ts';

/**
 * contract §5.3 GET /invitations/:id. It answers without a token too (contract §3.9), so a signed-out
 * visitor of the mailed link sees whom the invitation is from before logging in.
 */
export function useInvitation(invitationId: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: [...invitationKeys.detail(invitationId), phase] as const,
    queryFn: async ({ signal }) =>
      fromInvitationResource(
        await apiRequest<InvitationResource>('auth', `/invitations/${encodeURIComponent(invitationId)}`, {
          auth: phase === 'authenticated' ? 'session' : 'none',
          signal,
        }),
      ),
    enabled: phase !== 'booting' && invitationId !== '',
    // A revoked invitation stays revoked; only network failures are worth another try.
    retry: (count, error) => !isApiError(error) && count < 1,
  });
}
