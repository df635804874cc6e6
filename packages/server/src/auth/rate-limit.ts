import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { loginAttempts } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';

/**
 * Unsuccessful logins are counted per account and per address in the database, so the limit holds
 * across every server process. A success does not reset the count: the window simply slides.
 *
 * An attempt is recorded *before* the password is checked and counted together with every attempt
 * recorded so far, so parallel requests cannot all pass a check made before any of them failed: of N
 * concurrent wrong attempts at most the limit get to verify a password. Only a successful login takes
 * its record back. A refused (429) attempt stays counted too: taking it back would let a burst of
 * parallel attempts, all refused, leave nothing behind, so the next one would be let through.
 */
export function createLoginLimiter(deps: {
  db: Db;
  limits: { perAccount: number; perAddress: number; windowSeconds: number };
}) {
  const { db, limits } = deps;
  const since = () => new Date(Date.now() - limits.windowSeconds * 1000);

  async function attempts(key: string): Promise<number> {
    const [row] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.key, key), gt(loginAttempts.attemptedAt, since())));
    return row?.count ?? 0;
  }

  async function forget(ids: number[]): Promise<void> {
    if (ids.length) await db.delete(loginAttempts).where(inArray(loginAttempts.id, ids));
  }

  return {
    /**
     * Records a login attempt and throws 429 when it is over the limit. The caller verifies the
     * password only after this returns, and calls `succeeded()` when it was right; a failed attempt
     * simply stays recorded.
     */
    async attempt(email: string, address: string): Promise<{ succeeded(): Promise<void> }> {
      const accountKey = `email:${email.toLowerCase()}`;
      const addressKey = `ip:${address}`;
      // Old rows only matter inside the window; prune them as we go.
      await db.delete(loginAttempts).where(lt(loginAttempts.attemptedAt, since()));
      const recorded = await db
        .insert(loginAttempts)
        .values([{ key: accountKey }, { key: addressKey }])
        .returning({ id: loginAttempts.id });
      const ids = recorded.map((row) => row.id);
      // Counted after the insert, including this attempt: whichever of two racing attempts counts
      // last sees both, so the attempts let through can never outnumber the limit.
      const [byAccount, byAddress] = await Promise.all([attempts(accountKey), attempts(addressKey)]);
      if (byAccount > limits.perAccount || byAddress > limits.perAddress) {
        const minutes = Math.ceil(limits.windowSeconds / 60);
        throw new ApiError(
          429,
          'rate_limited',
          `Too many failed login attempts. Please wait ${minutes} minutes and try again.`,
        );
      }
      return { succeeded: () => forget(ids) };
    },
  };
}
export type LoginLimiter = ReturnType<typeof createLoginLimiter>;
