import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import type { User } from '../../../resources/users/user.hal.ts';
import { userQuery } from './use-user.ts';

export interface EmailVerification {
  userId: string;
  challengeId: string;
  verificationCode: string;
}

/** spec 1 §7 POST /verifications (email_verification_challenge), then the refreshed user. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ userId, challengeId, verificationCode }: EmailVerification): Promise<User> => {
      await apiRequest<EmptyResponse>('auth', '/verifications', {
        method: 'POST',
        body: {
          type: 'email_verification_challenge',
          challenge_id: challengeId,
          verification_code: verificationCode,
        },
      });
      // The answer is 204, so read the user again to learn that it is now verified.
      return queryClient.fetchQuery({ ...userQuery(userId), staleTime: 0 });
    },
  });
}
