import { createHash, randomBytes } from 'node:crypto';
import { hash as hashPassword } from '@node-rs/argon2';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { recordAuditEventForEveryOrganizationOf } from '../../api/audit-events/audit-events.repo.ts';
import type { Config, FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { passwordResetChallenges, users } from '../../db/schema.ts';
import { ApiError } from '../../http/errors.ts';
import { isUuid } from '../../http/ids.ts';
import { type Mailer, passwordResetMail } from '../../mail/mailer.ts';
import type { SecurityNotices } from '../security-notices.ts';
import { revokeOtherTokens, sameSecret, type UserRow } from '../tokens/token.service.ts';

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

export const passwordResetMessages = {
  invalid:
    'This password reset link is invalid, has expired or was already used. Ask for a new one from the Forgot password page.',
  locked:
    'This password reset link was tried too many times with a wrong code. Ask for a new one from the Forgot password page.',
} as const;

export const passwordResetFailed = () =>
  new ApiError(422, 'invalid_verification', passwordResetMessages.invalid);
const passwordResetLocked = () => new ApiError(422, 'verification_locked', passwordResetMessages.locked);

/**
 * Forgotten passwords (contract §3.9): a single-use code, stored hashed, mailed to the account's address as
 * a console link. Using it sets a new password and ends every token and session of the user.
 */
export function createPasswordResetService(deps: {
  db: Db;
  mailer: Mailer;
  /** The account's owner hears that the password was reset. */
  notices: SecurityNotices;
  urls: FamilyUrls;
  ttlSeconds: Config['passwordResetTtlSeconds'];
  /** Wrong codes a link survives; the next attempt finds it dead. */
  maxFailures: Config['verificationRateLimit']['perCode'];
}) {
  const { db, mailer, urls } = deps;
  return {
    /**
     * Mails a reset link when `email` belongs to an account; does nothing otherwise. The caller answers
     * the same either way, so whether an address has an account is never told.
     */
    async request(email: string): Promise<void> {
      const [user] = await db
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
        .limit(1);
      if (!user) return;
      const code = randomBytes(24).toString('base64url');
      const [challenge] = await db
        .insert(passwordResetChallenges)
        .values({
          userId: user.id,
          email: user.email,
          codeHash: hashCode(code),
          expiresAt: new Date(Date.now() + deps.ttlSeconds * 1000),
        })
        .returning({ id: passwordResetChallenges.id });
      if (!challenge) throw new Error('Password reset insert returned nothing');
      const link = `${urls.app}/password/update/${challenge.id}/${code}`;
      await mailer.send(passwordResetMail(user.email, user.name, link, Math.round(deps.ttlSeconds / 60)));
    },

    /**
     * Sets the new password with a mailed code. The link dies with it, and so do the user's other
     * links; every token and session of the user ends.
     */
    async complete(challengeId: string, code: string, password: string): Promise<void> {
      if (!isUuid(challengeId)) throw passwordResetFailed();
      // Hashed before the transaction (it is slow); thrown away when the code is wrong.
      const passwordHash = await hashPassword(password);
      const outcome = await db.transaction(async (tx): Promise<ApiError | UserRow> => {
        // The row stays locked to the end, so parallel guesses are counted one after another.
        const [challenge] = await tx
          .select()
          .from(passwordResetChallenges)
          .where(eq(passwordResetChallenges.id, challengeId))
          .for('update');
        if (!challenge || challenge.completedAt || challenge.expiresAt.getTime() <= Date.now()) {
          return passwordResetFailed();
        }
        if (challenge.failedAttempts >= deps.maxFailures) return passwordResetLocked();
        if (!sameSecret(challenge.codeHash, hashCode(code))) {
          // Returned, not thrown: the count must be committed.
          await tx
            .update(passwordResetChallenges)
            .set({ failedAttempts: sql`${passwordResetChallenges.failedAttempts} + 1` })
            .where(eq(passwordResetChallenges.id, challenge.id));
          return passwordResetFailed();
        }
        const [user] = await tx.select().from(users).where(eq(users.id, challenge.userId)).for('update');
        // The account moved to another address since: the old one no longer speaks for it.
        if (!user || user.email.toLowerCase() !== challenge.email.toLowerCase()) return passwordResetFailed();
        const now = new Date();
        await tx
          .update(passwordResetChallenges)
          .set({ completedAt: now, updatedAt: now })
          .where(eq(passwordResetChallenges.id, challenge.id));
        // The user's other live links end too: one reset per request.
        await tx
          .update(passwordResetChallenges)
          .set({ expiresAt: now, updatedAt: now })
          .where(
            and(
              eq(passwordResetChallenges.userId, user.id),
              isNull(passwordResetChallenges.completedAt),
              gt(passwordResetChallenges.expiresAt, now),
            ),
          );
        // The mailed code proves the address, too.
        await tx
          .update(users)
          .set({ passwordHash, verified: true, updatedAt: now })
          .where(eq(users.id, user.id));
        const ended = await revokeOtherTokens(tx, user.id, []);
        // Every session ended by the reset is an event of each organization the user belongs to (issue 41).
        if (ended.length > 0) {
          await recordAuditEventForEveryOrganizationOf(tx, user.id, {
            action: 'session.revoke_all',
            actor: { id: user.id, email: user.email },
            target: { type: 'user', id: user.id, name: user.email },
            detail: `password reset (${ended.length} ${ended.length === 1 ? 'token' : 'tokens'})`,
          });
        }
        return user;
      });
      if (outcome instanceof ApiError) throw outcome;
      await deps.notices.tell(outcome, { kind: 'password-reset' });
    },
  };
}
export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
