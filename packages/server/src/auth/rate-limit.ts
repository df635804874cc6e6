import { and, count, desc, eq, gt, inArray, lt, ne, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { loginAttempts, rateLimitHits } from '../db/schema.ts';
import { RateLimitedError } from '../http/errors.ts';

/** "a minute", "15 minutes": how long to wait, rounded up to whole minutes. */
export function waitMinutes(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? 'a minute' : `${minutes} minutes`;
}

/** Seconds from now until `time`, at least 1 (a Retry-After of 0 would invite an immediate retry). */
const secondsUntil = (time: Date | undefined, fallback: number) =>
  time ? Math.max(1, Math.ceil((time.getTime() - Date.now()) / 1000)) : fallback;

/**
 * Unsuccessful logins are counted per account and per address in the database, so the limit holds
 * across every server process. A successful login resets the account's count (its earlier failures are
 * forgotten) and takes back its own attempt from the address's count; otherwise the window slides.
 *
 * An attempt is recorded *before* the password is checked and counted together with every attempt
 * recorded so far, so parallel requests cannot all pass a check made before any of them failed: of N
 * concurrent wrong attempts at most the limit get to verify a password. A refused (429) attempt stays
 * counted too: taking it back would let a burst of parallel attempts, all refused, leave nothing
 * behind, so the next one would be let through. The 429 says in Retry-After when the lock ends.
 */
export function createLoginLimiter(deps: {
  db: Db;
  limits: { perAccount: number; perAddress: number; windowSeconds: number };
}) {
  const { db, limits } = deps;
  const windowMs = limits.windowSeconds * 1000;
  const since = () => new Date(Date.now() - windowMs);

  async function attempts(key: string): Promise<number> {
    const [row] = await db
      .select({ count: count() })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.key, key), gt(loginAttempts.attemptedAt, since())));
    return row?.count ?? 0;
  }

  /**
   * When a key over its limit lets an attempt through again: once all but `limit - 1` of its attempts
   * have left the window, that is when its `limit`-th newest attempt does.
   */
  async function unlockedAt(key: string, limit: number): Promise<number> {
    const [row] = await db
      .select({ at: loginAttempts.attemptedAt })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.key, key), gt(loginAttempts.attemptedAt, since())))
      .orderBy(desc(loginAttempts.attemptedAt))
      .offset(Math.max(0, limit - 1))
      .limit(1);
    return secondsUntil(row ? new Date(row.at.getTime() + windowMs) : undefined, limits.windowSeconds);
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
      const now = new Date();
      const recorded = await db
        .insert(loginAttempts)
        .values([
          { key: accountKey, attemptedAt: now },
          { key: addressKey, attemptedAt: now },
        ])
        .returning({ id: loginAttempts.id });
      const ids = recorded.map((row) => row.id);
      // Counted after the insert, including this attempt: whichever of two racing attempts counts
      // last sees both, so the attempts let through can never outnumber the limit.
      const [byAccount, byAddress] = await Promise.all([attempts(accountKey), attempts(addressKey)]);
      if (byAccount > limits.perAccount || byAddress > limits.perAddress) {
        const waits = await Promise.all([
          byAccount > limits.perAccount ? unlockedAt(accountKey, limits.perAccount) : 0,
          byAddress > limits.perAddress ? unlockedAt(addressKey, limits.perAddress) : 0,
        ]);
        const retryAfter = Math.max(...waits);
        throw new RateLimitedError(
          `Too many failed login attempts. Please wait ${waitMinutes(retryAfter)} and try again.`,
          retryAfter,
        );
      }
      return {
        // The account starts afresh; the address only gets this attempt back.
        succeeded: async () => {
          await db
            .delete(loginAttempts)
            .where(or(eq(loginAttempts.key, accountKey), inArray(loginAttempts.id, ids)));
        },
      };
    },
  };
}
export type LoginLimiter = ReturnType<typeof createLoginLimiter>;

/**
 * A sliding-window limit on requests per subject (a client address, say), counted in the database so it
 * holds across every server process. A request is recorded *before* it is served and counted together
 * with every one recorded so far: of N concurrent requests, whichever counts last sees all the others,
 * so the requests let through can never outnumber the limit. A refused request takes its record back
 * (it did nothing), so Retry-After is exact for a client that waits it out; a served one may be taken
 * back too, when only failures count (`forgive()`).
 */
export function createRateLimiter(deps: {
  db: Db;
  /** Names the limit in the keys of its rows, so limits sharing the table count apart. */
  name: string;
  limit: number;
  windowSeconds: number;
  /** The 429's message, given the wait in seconds. */
  message: (retryAfterSeconds: number) => string;
}) {
  const { db, limit, windowSeconds } = deps;
  return {
    /** Counts a request of `subject`, or throws 429 (with Retry-After) when it is over the limit. */
    async hit(subject: string): Promise<{ forgive(): Promise<void> }> {
      const key = `${deps.name}:${subject}`;
      const now = new Date();
      // Expired rows of every limit go as we pass; live ones are the windows.
      await db.delete(rateLimitHits).where(lt(rateLimitHits.expiresAt, now));
      const [recorded] = await db
        .insert(rateLimitHits)
        .values({ key, expiresAt: new Date(now.getTime() + windowSeconds * 1000) })
        .returning({ id: rateLimitHits.id });
      if (!recorded) throw new Error('Rate limit insert returned nothing');
      const forgive = async () => {
        await db.delete(rateLimitHits).where(eq(rateLimitHits.id, recorded.id));
      };
      const live = and(eq(rateLimitHits.key, key), gt(rateLimitHits.expiresAt, now));
      const [counted] = await db.select({ count: count() }).from(rateLimitHits).where(live);
      if ((counted?.count ?? 0) <= limit) return { forgive };
      // Another request may pass once at most `limit - 1` others are live: when the `limit`-th newest
      // of the others expires.
      const [unlock] = await db
        .select({ at: rateLimitHits.expiresAt })
        .from(rateLimitHits)
        .where(and(live, ne(rateLimitHits.id, recorded.id)))
        .orderBy(desc(rateLimitHits.expiresAt))
        .offset(Math.max(0, limit - 1))
        .limit(1);
      await forgive();
      const retryAfter = secondsUntil(unlock?.at, 1);
      throw new RateLimitedError(deps.message(retryAfter), retryAfter);
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
