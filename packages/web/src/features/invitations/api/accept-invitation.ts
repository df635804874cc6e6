import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';

/**
 * spec 1 §7 POST /verifications {type: invitation}: the code of the mailed link proves the address and
 * the caller joins the invitation's role (204). The route then refreshes the token (contract §3.2).
 */
export function acceptInvitation(invitationId: string, verificationCode: string) {
  return apiRequest<EmptyResponse>('auth', '/verifications', {
    method: 'POST',
    body: { type: 'invitation', invitation_id: invitationId, verification_code: verificationCode },
  });
}
