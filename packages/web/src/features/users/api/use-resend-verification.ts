import { useMutation } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';

/** contract §5.2: resend the verification of the current email. */
export function useResendVerification(userId: string) {
  return useMutation({
    mutationFn: () =>
      apiRequest<EmptyResponse>(
        'auth',
        `/users/${encodeURIComponent(userId)}/email_verification_challenges`,
        {
          method: 'POST',
          body: { origin: 'app' },
        },
      ),
  });
}
