import { and, count, desc, eq, gt, inArray, lt, ne, notInArray, or } from 'drizzle-orm';
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

/** What a login attempt the limiter let through must be told of its outcome. */
export interface LoginAttempt {
  /**
   * The account's lock, when the attempt came with a second factor and only that lock stood in its way:
   * the caller checks the second factor first and lets the attempt on only when it holds, calling
   * `turnedAway()` and throwing this error otherwise. Null when no lock stands in the way.
   */
  lock: RateLimitedError | null;
  /** The login succeeded: takes this attempt back and resets what it was counted toward. */
  succeeded(): Promise<void>;
  /** Stopped at the lock before any password was checked: the account's count takes it back. */
  turnedAway(): Promise<void>;
}

/**
 * Unsuccessful logins are counted per account and per address in the database, so the limit holds
 * across every server process. Past the account's limit its lock refuses unknown devices, but not:
 * - a device that logged in to the account before (a valid device cookie, device-cookies.ts): it is
 *   counted on its own instead of the account, so an attacker guessing from elsewhere cannot lock the
 *   user's own devices out, and a stolen cookie gets no more guesses than the account would;
 * - a login with a second factor that holds (checked before the password, `lock` below).
 * A successful login resets what it was counted toward (the account, or the known device) and takes
 * back its own attempt from the address's count; otherwise the window slides. A success through the
 * lock's second factor or from a known device does not forgive the account's failures: they may well
 * be an attacker's, and the lock stays on for unknown devices.
 *
 * An attempt is recorded *before* the password is checked and counted together with every attempt
 * recorded so far, so parallel requests cannot all pass a check made before any of them failed: of N
 * concurrent wrong attempts at most the limit get to verify a password. (Of those let through, whichever
 * counted last saw all the others, and none of them is taken back before its password was checked.)
 * Only attempts that checked something stay counted: a refused (429) one is taken back, so an attacker
 * who keeps trying cannot keep the lock on past the window of the last password actually checked. The
 * 429 says in Retry-After when the lock ends.
 */
export function createLoginLimiter(deps: {
  db: Db;
  /** `perAccount` also bounds the failures of each known device. */
  limits: { perAccount: number; perAddress: number; windowSeconds: number };
}) {
  const { db, limits } = deps;
  const windowMs = limits.windowSeconds * 1000;
  const since = () => new Date(Date.now() - windowMs);
  const addressKey = (address: string) => `ip:${address}`;

  async function attempts(key: string): Promise<number> {
    const [row] = await db
      .select({ count: count() })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.key, key), gt(loginAttempts.attemptedAt, since())));
    return row?.count ?? 0;
  }

  /**
   * When a key over its limit lets an attempt through again: once at most `limit - 1` attempts other than
   * this one's are in the window, that is when the `limit`-th newest of them leaves it.
   */
  async function unlockedAt(key: string, limit: number, own: number[]): Promise<number> {
    const [row] = await db
      .select({ at: loginAttempts.attemptedAt })
      .from(loginAttempts)
      .where(
        and(
          eq(loginAttempts.key, key),
          gt(loginAttempts.attemptedAt, since()),
          notInArray(loginAttempts.id, own),
        ),
      )
      .orderBy(desc(loginAttempts.attemptedAt))
      .offset(Math.max(0, limit - 1))
      .limit(1);
    return secondsUntil(row ? new Date(row.at.getTime() + windowMs) : undefined, limits.windowSeconds);
  }

  const lockedOut = (retryAfter: number) =>
    new RateLimitedError(
      `Too many failed login attempts. Please wait ${waitMinutes(retryAfter)} and try again.`,
      retryAfter,
    );

  return {
    /**
     * Records a login attempt and throws 429 when it is over the limit. The caller verifies the
     * password only after this returns, and calls `succeeded()` when it was right; a failed attempt
     * simply stays recorded. `device` is the nonce of a valid device cookie for this account: then the
     * device is counted instead of the account. With `secondFactor` (the request carries a 2FA code or
     * key assertion) the account's lock does not throw but comes back as `lock`, for the caller to open
     * with the second factor.
     */
    async attempt(
      email: string,
      address: string,
      options: { device?: string; secondFactor?: boolean } = {},
    ): Promise<LoginAttempt> {
      const accountKey = `email:${email.toLowerCase()}`;
      const deviceKey = options.device ? `device:${options.device}` : undefined;
      // The account or the known device: whose failures this attempt counts toward besides the address.
      const subjectKey = deviceKey ?? accountKey;
      // Old rows only matter inside the window; prune them as we go.
      await db.delete(loginAttempts).where(lt(loginAttempts.attemptedAt, since()));
      const now = new Date();
      const recorded = await db
        .insert(loginAttempts)
        .values([
          { key: subjectKey, attemptedAt: now },
          { key: addressKey(address), attemptedAt: now },
        ])
        .returning({ id: loginAttempts.id, key: loginAttempts.key });
      const ids = recorded.map((row) => row.id);
      const subject = recorded.find((row) => row.key === subjectKey);
      if (!subject || ids.length !== 2) throw new Error('Login attempt insert returned nothing');
      // Counted after the insert, including this attempt: whichever of two racing attempts counts
      // last sees both, so the attempts let through can never outnumber the limit.
      const [bySubjectCount, byAddressCount] = await Promise.all([
        attempts(subjectKey),
        attempts(addressKey(address)),
      ]);
      const subjectOver = bySubjectCount > limits.perAccount;
      const addressOver = byAddressCount > limits.perAddress;
      const lockOnly = subjectOver && !addressOver && !deviceKey && options.secondFactor === true;
      if ((subjectOver || addressOver) && !lockOnly) {
        const waits = await Promise.all([
          subjectOver ? unlockedAt(subjectKey, limits.perAccount, ids) : 0,
          addressOver ? unlockedAt(addressKey(address), limits.perAddress, ids) : 0,
        ]);
        // Refused before any password was checked: it leaves nothing counted.
        await db.delete(loginAttempts).where(inArray(loginAttempts.id, ids));
        throw lockedOut(Math.max(...waits));
      }
      return {
        lock: lockOnly ? lockedOut(await unlockedAt(accountKey, limits.perAccount, ids)) : null,
        succeeded: async () => {
          // The known device, or the account unless its lock let this in (see above), starts afresh;
          // the address only gets this attempt back.
          const forgiven = deviceKey ?? (lockOnly ? undefined : accountKey);
          await db
            .delete(loginAttempts)
            .where(
              or(forgiven ? eq(loginAttempts.key, forgiven) : undefined, inArray(loginAttempts.id, ids)),
            );
        },
        // The address keeps it: a guessed second factor costs the guesser's address as a password does.
        turnedAway: async () => {
          await db.delete(loginAttempts).where(eq(loginAttempts.id, subject.id));
        },
      };
    },

    /**
     * A login refused for its input (an oversized or malformed body) before the limiter saw it: it
     * checked no password, but counts against the address as a failed one, so such requests cannot be
     * sent without end. No account is charged: the input names none that can be trusted.
     */
    async refusedInput(address: string): Promise<void> {
      await db.insert(loginAttempts).values({ key: addressKey(address), attemptedAt: new Date() });
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
