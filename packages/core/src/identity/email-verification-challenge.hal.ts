import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** A pending change of address (contract §3.9): the mail to `email` completes it until `expires_at`. */
export const emailVerificationChallengeResource = z
  .strictObject({
    id: halId,
    _type: z.literal('email_verification_challenge'),
    email: z.string(),
    expires_at: isoTimestamp,
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'user']),
  })
  .meta({ id: 'EmailVerificationChallenge' });
export type EmailVerificationChallengeResource = z.infer<typeof emailVerificationChallengeResource>;

export const emailVerificationChallengeCollection = halCollection(
  'email_verification_challenges',
  emailVerificationChallengeResource,
).meta({ id: 'EmailVerificationChallengeCollection' });
export type EmailVerificationChallengeCollection = z.infer<typeof emailVerificationChallengeCollection>;
