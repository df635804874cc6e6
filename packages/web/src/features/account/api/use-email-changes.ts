import type { EmailVerificationChallengeCollection } from '@berth/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { embeddedList, idOf } from '../../../lib/hal.ts';
import { accountKeys } from './account-keys.ts';

/** A pending change of address (contract §4.1 email_verification_challenge). */
export interface PendingEmailChange {
  id: string;
  email: string;
  expiresAt: string;
}

/** contract §5.2 GET /users/:id/email_verification_challenges (elevated, §3.6). */
export function useEmailChanges(userId: string, enabled = true) {
  return useQuery({
    queryKey: accountKeys.emailChanges(userId),
    enabled: enabled && userId !== '',
    queryFn: async ({ signal }) => {
      const list = await apiRequest<EmailVerificationChallengeCollection>(
        'auth',
        `/users/${encodeURIComponent(userId)}/email_verification_challenges`,
        { auth: 'elevated', signal },
      );
      return embeddedList(list, 'email_verification_challenges').map(
        (challenge): PendingEmailChange => ({
          id: idOf(challenge),
          email: challenge.email,
          expiresAt: challenge.expires_at,
        }),
      );
    },
  });
}

/** contract §5.2 POST /users/:id/email_verification_challenges `{email}` (elevated): mails the new address. */
export function useRequestEmailChange(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest<EmptyResponse>(
        'auth',
        `/users/${encodeURIComponent(userId)}/email_verification_challenges`,
        {
          method: 'POST',
          body: { email, origin: 'app' },
          auth: 'elevated',
        },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.emailChanges(userId) }),
  });
}

/** contract §5.2 DELETE /email_verification_challenges/:id (elevated): cancels a pending change. */
export function useCancelEmailChange(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (challengeId: string) =>
      apiRequest<EmptyResponse>('auth', `/email_verification_challenges/${encodeURIComponent(challengeId)}`, {
        method: 'DELETE',
        auth: 'elevated',
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.emailChanges(userId) }),
  });
}
