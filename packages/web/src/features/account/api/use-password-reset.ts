import { useMutation } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';

/** contract §5.2 POST /password/resets/new `{email, origin}`: no token, the same answer for every address. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest<EmptyResponse>('auth', '/password/resets/new', {
        method: 'POST',
        body: { email, origin: 'app' },
        auth: 'none',
      }),
  });
}

export interface PasswordResetInput {
  challengeId: string;
  verificationCode: string;
  password: string;
}

/** contract §5.2 POST /verifications type `password_reset_challenge`: sets the new password from the mailed link. */
export function useResetPassword() {
  return useMutation({
    mutationFn: ({ challengeId, verificationCode, password }: PasswordResetInput) =>
      apiRequest<EmptyResponse>('auth', '/verifications', {
        method: 'POST',
        body: {
          type: 'password_reset_challenge',
          challenge_id: challengeId,
          verification_code: verificationCode,
          password,
        },
        auth: 'none',
      }),
  });
}
