import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { loginAttempts } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';

/**
 * Failed logins are counted per account and per address in the database, so the limit holds across
 * every server process. A success does not reset the count: the window simply slides.
 */
export function createLoginLimiter(deps: {
  db: Db;
  limits: { perAccount: number; perAddress: number; windowSeconds: number };
}) {
  const { db, limits } = deps;
  const since = () => new Date(Date.now() - limits.windowSeconds * 1000);

  async function failures(key: string): Promise<number> {
    const [row] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.key, key), gt(loginAttempts.attemptedAt, since())));
    return row?.count ?? 0;
  }

  return {
    async check(email: string, address: string): Promise<void> {
      const [byAccount, byAddress] = await Promise.all([
        failures(`email:${email.toLowerCase()}`),
        failures(`ip:${address}`),
      ]);
      if (byAccount >= limits.perAccount || byAddress >= limits.perAddress) {
        const minutes = Math.ceil(limits.windowSeconds / 60);
        throw new ApiError(
          429,
          'rate_limited',
          `Too many failed login attempts. Please wait ${minutes} minutes and try again.`,
        );
      }
    },
    async recordFailure(email: string, address: string): Promise<void> {
      await db
        .insert(loginAttempts)
        .values([{ key: `email:${email.toLowerCase()}` }, { key: `ip:${address}` }]);
      // Old rows only matter inside the window; prune them as we go.
      await db.delete(loginAttempts).where(lt(loginAttempts.attemptedAt, since()));
    },
  };
}
export type LoginLimiter = ReturnType<typeof createLoginLimiter>;
