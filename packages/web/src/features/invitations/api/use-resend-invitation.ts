import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { invitationKeys } from './invitation-keys.ts';

/** spec 1 §7 POST /resets {type: invitation}: a new code and a new mail (the expiry moves on). */
export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) =>
      apiRequest<EmptyResponse>('auth', '/resets', {
        method: 'POST',
        body: { type: 'invitation', origin: 'app', invitation_id: invitationId },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationKeys.all }),
  });
}
