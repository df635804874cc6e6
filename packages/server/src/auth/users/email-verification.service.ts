import { createHash, randomBytes } from 'node:crypto';
import type { EmailVerificationChallengeResource } from '@berth/core';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Config, FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { emailVerificationChallenges, users } from '../../db/schema.ts';
import { ApiError, unprocessable } from '../../http/errors.ts';
import { isUuid } from '../../http/ids.ts';
import { emailChangedMail, type Mailer, verificationMail } from '../../mail/mailer.ts';
import { revokeOtherTokens, sameSecret, type UserRow } from '../tokens/token.service.ts';

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

/** Verification mails one account may have sent in an hour: resending cannot flood an inbox. */
export const VERIFICATION_MAILS_PER_HOUR = 5;
export const tooManyVerificationMails = () =>
  new ApiError(
    429,
    'rate_limited',
    'Too many verification emails were sent. Please wait an hour and try again.',
  );

export const verificationFailed = () =>
  new ApiError(422, 'invalid_verification', 'This verification link is invalid or has expired');

/** Too many wrong codes were tried for the link: it is dead, whatever code comes next. */
export const verificationLocked = () =>
  new ApiError(
    422,
    'verification_locked',
    'This verification link was tried too many times with a wrong code. Ask for a new verification email.',
  );

/** Email verification: a single-use code, stored hashed, mailed as a console link (contract §3.9). */
export function createEmailVerificationService(deps: {
  db: Db;
  mailer: Mailer;
  urls: FamilyUrls;
  ttlSeconds: Config['emailVerificationTtlSeconds'];
  /** Wrong codes a challenge survives; the next attempt finds it dead. */
  maxFailures: Config['verificationRateLimit']['perCode'];
  /** A notice that could not be delivered (the request it follows has succeeded). */
  onMailError?: (error: unknown) => void;
}) {
  const { db, mailer, urls } = deps;
  return {
    /** Mails a link that verifies `email` for the user (their current address, or a new one to change to). */
    async start(user: UserRow, email = user.email) {
      const code = randomBytes(24).toString('base64url');
      const challenge = await db.transaction(async (tx) => {
        // The user's row is locked, so parallel requests are counted one after another. Cancelled
        // challenges stay as rows (expired), so cancelling does not give a mail back either.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
        const [recent] = await tx
          .select({ count: sql<number>`count(*)::int` })
          .from(emailVerificationChallenges)
          .where(
            and(
              eq(emailVerificationChallenges.userId, user.id),
              gt(emailVerificationChallenges.createdAt, new Date(Date.now() - 60 * 60 * 1000)),
            ),
          );
        if ((recent?.count ?? 0) >= VERIFICATION_MAILS_PER_HOUR) throw tooManyVerificationMails();
        const [inserted] = await tx
          .insert(emailVerificationChallenges)
          .values({
            userId: user.id,
            email,
            codeHash: hashCode(code),
            expiresAt: new Date(Date.now() + deps.ttlSeconds * 1000),
          })
          .returning();
        return inserted;
      });
      if (!challenge) throw new Error('Challenge insert returned nothing');
      await mailer.send(verificationMail(email, user.name, `${urls.app}/verify/${challenge.id}/${code}`));
      return challenge;
    },

    /** Pending changes of address (challenges for an email other than the current one). */
    pendingChanges(user: UserRow) {
      return db
        .select()
        .from(emailVerificationChallenges)
        .where(
          and(
            eq(emailVerificationChallenges.userId, user.id),
            ne(emailVerificationChallenges.email, user.email),
            isNull(emailVerificationChallenges.completedAt),
            gt(emailVerificationChallenges.expiresAt, new Date()),
          ),
        );
    },

    /** Ends a pending challenge; the row stays (expired) so it still counts against the mail limit. */
    async cancel(user: UserRow, challengeId: string): Promise<boolean> {
      if (!isUuid(challengeId)) return false;
      const now = new Date();
      const cancelled = await db
        .update(emailVerificationChallenges)
        .set({ expiresAt: now, updatedAt: now })
        .where(
          and(
            eq(emailVerificationChallenges.id, challengeId),
            eq(emailVerificationChallenges.userId, user.id),
            isNull(emailVerificationChallenges.completedAt),
            gt(emailVerificationChallenges.expiresAt, now),
          ),
        )
        .returning({ id: emailVerificationChallenges.id });
      return cancelled.length > 0;
    },

    /**
     * Completes a challenge: the user is verified, at the challenge's address. When that moves the account
     * to another address, every token of the user but `keep` (ids of other users' tokens are ignored) ends.
     */
    async complete(challengeId: string, code: string, keep: string[] = []): Promise<UserRow> {
      if (!isUuid(challengeId)) throw verificationFailed();
      let previousEmail: string | undefined;
      const outcome = await db
        .transaction(async (tx): Promise<UserRow | ApiError> => {
          // The row stays locked to the end, so parallel guesses are counted one after another.
          const [challenge] = await tx
            .select()
            .from(emailVerificationChallenges)
            .where(eq(emailVerificationChallenges.id, challengeId))
            .for('update');
          if (!challenge || challenge.completedAt || challenge.expiresAt.getTime() <= Date.now()) {
            return verificationFailed();
          }
          if (challenge.failedAttempts >= deps.maxFailures) return verificationLocked();
          if (!sameSecret(challenge.codeHash, hashCode(code))) {
            // Returned, not thrown: the count must be committed.
            await tx
              .update(emailVerificationChallenges)
              .set({ failedAttempts: sql`${emailVerificationChallenges.failedAttempts} + 1` })
              .where(eq(emailVerificationChallenges.id, challenge.id));
            return verificationFailed();
          }
          const [before] = await tx
            .select({ email: users.email })
            .from(users)
            .where(eq(users.id, challenge.userId))
            .for('update');
          const now = new Date();
          await tx
            .update(emailVerificationChallenges)
            .set({ completedAt: now, updatedAt: now })
            .where(eq(emailVerificationChallenges.id, challenge.id));
          const [user] = await tx
            .update(users)
            .set({ email: challenge.email, verified: true, updatedAt: now })
            .where(eq(users.id, challenge.userId))
            .returning();
          if (!user) throw verificationFailed();
          if (before && before.email.toLowerCase() !== user.email.toLowerCase()) {
            previousEmail = before.email;
            await revokeOtherTokens(tx, user.id, keep);
          }
          return user;
        })
        .catch((error: unknown) => {
          // Another account took the address after the change was asked for.
          if (isUniqueViolation(error)) throw unprocessable('An account with this email already exists');
          throw error;
        });
      if (outcome instanceof ApiError) throw outcome;
      // The old address hears of the move, so a change nobody asked for does not go unnoticed. The change
      // is made; a failed notice stays in the outbox with its reason.
      if (previousEmail) {
        await mailer
          .send(emailChangedMail(previousEmail, outcome.name, outcome.email))
          .catch((error: unknown) => deps.onMailError?.(error));
      }
      return outcome;
    },
  };
}
export type EmailVerificationService = ReturnType<typeof createEmailVerificationService>;

export function toEmailVerificationChallengeHal(
  challenge: typeof emailVerificationChallenges.$inferSelect,
  urls: FamilyUrls,
): EmailVerificationChallengeResource {
  return {
    id: challenge.id,
    _type: 'email_verification_challenge' as const,
    email: challenge.email,
    expires_at: challenge.expiresAt.toISOString(),
    created_at: challenge.createdAt.toISOString(),
    updated_at: challenge.updatedAt.toISOString(),
    _links: {
      self: { href: `${urls.auth}/email_verification_challenges/${challenge.id}` },
      user: { href: `${urls.auth}/users/${challenge.userId}` },
    },
  };
}
