import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { TOKEN_LIFETIME_SECONDS } from '@berth/core';
import { and, eq, gt, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { jwtVerify, SignJWT } from 'jose';
import type { FamilyUrls } from '../../config.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { tokens, users } from '../../db/schema.ts';
import { ApiError, forbidden, unauthorized } from '../../http/errors.ts';
import { isUuid } from '../../http/ids.ts';

export type TokenRow = typeof tokens.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type TokenScope = 'manage' | 'elevated' | 'read';

export interface Caller {
  token: TokenRow;
  user: UserRow;
  accessToken: string;
}

export interface IssuedToken {
  token: TokenRow;
  user: UserRow;
  accessToken: string;
  /** Cookie value when the token carries a browser session. */
  sessionCookie?: string;
}

/** Who a token was issued to, as the sessions list shows it. */
export interface ClientInfo {
  userAgent?: string;
  ip?: string;
}

const USER_AGENT_MAX = 300;
const LAST_USED_RESOLUTION_MS = 60_000;
/** A sudo window with less than this left gives no token (issue 41). */
const ELEVATION_WINDOW_LAST_SECONDS = 60;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * The one way tokens are revoked: the tokens `roots` selects (a condition on the `tokens` table) and
 * everything exchanged from them, at any depth, since a derived token never survives its parent.
 * Answers the ids it revoked now (tokens already revoked keep their first revocation time).
 */
export async function revokeTokenChains(db: DbOrTx, roots: SQL): Promise<string[]> {
  const result = await db.execute(sql`
    with recursive chain(id) as (
      select ${tokens.id} from ${tokens} where ${roots}
      union
      select child.id from ${tokens} child join chain on child.parent_id = chain.id
    )
    update ${tokens} set revoked_at = now()
    where ${tokens.id} in (select id from chain) and ${tokens.revokedAt} is null
    returning ${tokens.id} as id`);
  return rowsOf<{ id: string }>(result).map((row) => row.id);
}

/**
 * Ends every token and session cookie of the user except the `keep` tokens and what derives from them.
 * A kept token exchanged from another of the user's tokens is re-rooted first (its expiry was capped at
 * its parent's when it was made, so it still never outlives it): the earlier tokens it came from end
 * too, so a stolen older token does not survive the password change or "log out other sessions" that
 * was meant to end it. A parent of another user (an impersonator's token) is left as it is.
 * Personal access tokens end too: every caller is a change of how the account signs in (whoever held the
 * old password may have made one) or "log out other sessions", which the contract (§3.5) defines as
 * revoking every other token of the caller.
 */
export async function revokeOtherTokens(db: DbOrTx, userId: string, keep: string[]): Promise<string[]> {
  const ids = keep.filter(isUuid);
  if (ids.length === 0) return revokeTokenChains(db, sql`${tokens.userId} = ${userId}`);
  const listed = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  // Aliased tables: the outer `tokens` columns of the conditions must not resolve into this subquery.
  const offspring = sql`(
    with recursive down(id) as (
      select k.id from ${tokens} k where k.user_id = ${userId} and k.id in (${listed})
      union
      select k.id from ${tokens} k join down on k.parent_id = down.id
    )
    select id from down)`;
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      update ${tokens} set parent_id = null
      where ${tokens.userId} = ${userId} and ${tokens.id} in (${listed})
        and ${tokens.parentId} in (
          select p.id from ${tokens} p where p.user_id = ${userId} and p.id not in ${offspring})`);
    return revokeTokenChains(tx, sql`${tokens.userId} = ${userId} and ${tokens.id} not in ${offspring}`);
  });
}

export function createTokenService(deps: { db: Db; key: Uint8Array; urls: FamilyUrls }) {
  const { db, key, urls } = deps;

  async function sign(token: TokenRow, user: UserRow, actor?: UserRow): Promise<string> {
    const jwt = new SignJWT({
      id: token.id,
      scope: token.scope,
      email: user.email,
      name: user.name,
      email_verified: user.verified,
      session: token.sessionSecretHash ? token.id : null,
      ...(actor
        ? { act: { sub: `${urls.auth}/users/${actor.id}`, email: actor.email, name: actor.name } }
        : {}),
      // Contract §3.3: an organization (SSO) token's subject is the organization, its actor the user.
      ...(token.ssoOrganizationId
        ? { act: { sub: `${urls.auth}/users/${user.id}`, email: user.email, name: user.name } }
        : {}),
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(urls.auth)
      .setSubject(
        token.ssoOrganizationId
          ? `${urls.auth}/organizations/${token.ssoOrganizationId}`
          : `${urls.auth}/users/${user.id}`,
      )
      .setJti(token.id)
      .setIssuedAt(Math.floor(token.createdAt.getTime() / 1000))
      .setExpirationTime(Math.floor(token.expiresAt.getTime() / 1000));
    return jwt.sign(key);
  }

  async function loadUser(id: string): Promise<UserRow | undefined> {
    const [user] = await db.select().from(users).where(eq(users.id, id));
    return user;
  }

  /**
   * Whether a token exchanged from others is still live through all its ancestors. Revoking a chain
   * marks every descendant, but a token exchanged while its parent was being revoked could be missed
   * by that revocation; this read closes that gap.
   */
  async function lineageLive(token: TokenRow): Promise<boolean> {
    if (!token.parentId) return true;
    const result = await db.execute(sql`
      with recursive up(id, parent_id, revoked_at) as (
        select k.id, k.parent_id, k.revoked_at from ${tokens} k where k.id = ${token.parentId}
        union all
        select k.id, k.parent_id, k.revoked_at from ${tokens} k join up on k.id = up.parent_id
      )
      select count(*)::int as revoked from up where revoked_at is not null`);
    return rowsOf<{ revoked: number }>(result)[0]?.revoked === 0;
  }

  /** The live token a session cookie belongs to, when its secret matches; null otherwise. */
  async function sessionToken(cookie: string | undefined): Promise<TokenRow | null> {
    const [tokenId, secret] = (cookie ?? '').split('.');
    if (!tokenId || !secret || !isUuid(tokenId)) return null;
    const [token] = await db
      .select()
      .from(tokens)
      .where(and(eq(tokens.id, tokenId), isNull(tokens.revokedAt), gt(tokens.expiresAt, new Date())));
    if (!token?.sessionSecretHash || !sameSecret(token.sessionSecretHash, sha256(secret))) return null;
    return (await lineageLive(token)) ? token : null;
  }

  /** Records when the token was last used, at most once a minute (a write per request would be waste). */
  async function touch(token: TokenRow): Promise<void> {
    const now = Date.now();
    if (token.lastUsedAt && now - token.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    const lastUsedAt = new Date(now);
    await db.update(tokens).set({ lastUsedAt }).where(eq(tokens.id, token.id));
    token.lastUsedAt = lastUsedAt;
  }

  async function issue(
    user: UserRow,
    scope: TokenScope,
    expiresInSeconds: number,
    options: {
      session?: boolean;
      actor?: UserRow;
      parent?: TokenRow;
      client?: ClientInfo;
      /** An organization (SSO) token of this organization: made by a SAML login, or exchanged from one. */
      ssoOrganizationId?: string | null;
      /** The session's sudo window, carried over when a session moves to a token exchanged from it. */
      elevatedUntil?: Date | null;
    } = {},
  ): Promise<IssuedToken> {
    const secret = options.session ? randomBytes(32).toString('base64url') : null;
    const requested = Date.now() + expiresInSeconds * 1000;
    // A token exchanged from another never outlives it.
    const expiresAt = new Date(
      options.parent ? Math.min(requested, options.parent.expiresAt.getTime()) : requested,
    );
    const [token] = await db
      .insert(tokens)
      .values({
        userId: user.id,
        actorId: options.actor?.id ?? null,
        scope,
        expiresAt,
        sessionSecretHash: secret ? sha256(secret) : null,
        parentId: options.parent?.id ?? null,
        ssoOrganizationId: options.ssoOrganizationId ?? null,
        elevatedUntil: options.session ? (options.elevatedUntil ?? null) : null,
        userAgent: options.client?.userAgent?.slice(0, USER_AGENT_MAX) || null,
        ipAddress: options.client?.ip?.slice(0, 100) || null,
      })
      .returning();
    if (!token) throw new Error('Token insert returned nothing');
    const accessToken = await sign(token, user, options.actor);
    return { token, user, accessToken, sessionCookie: secret ? `${token.id}.${secret}` : undefined };
  }

  return {
    sign,

    issue,

    /**
     * Resolves a bearer token. Missing, forged, revoked or expired tokens are 401, except an expired
     * elevated token, which is 403 so the console keeps its session (contract §3.6).
     */
    async authenticate(accessToken: string): Promise<Caller> {
      let payload: Record<string, unknown>;
      try {
        // Expiry is checked below against our own row so elevated tokens can answer 403 instead.
        ({ payload } = await jwtVerify(accessToken, key, { issuer: urls.auth, currentDate: new Date(0) }));
      } catch {
        throw unauthorized('Invalid access token');
      }
      const tokenId = typeof payload.jti === 'string' ? payload.jti : '';
      // The token and its user in one round trip: every signed-in request asks it.
      const [found] = isUuid(tokenId)
        ? await db
            .select({ token: tokens, user: users })
            .from(tokens)
            .leftJoin(users, eq(users.id, tokens.userId))
            .where(eq(tokens.id, tokenId))
        : [];
      const token = found?.token;
      if (!token || token.revokedAt) throw unauthorized('Access token has been revoked');
      if (token.expiresAt.getTime() <= Date.now()) {
        if (token.scope === 'elevated') throw forbidden('Elevated token has expired', 'access_denied');
        throw unauthorized('Access token has expired');
      }
      if (!(await lineageLive(token))) throw unauthorized('Access token has been revoked');
      const user = found.user;
      if (!user) throw unauthorized('Access token has been revoked');
      await touch(token);
      return { token, user, accessToken };
    },

    /** Restores a browser session from its cookie (contract §3.5); null when it is gone. */
    async restoreSession(cookie: string | undefined): Promise<IssuedToken | null> {
      const token = await sessionToken(cookie);
      if (!token) return null;
      const user = await loadUser(token.userId);
      if (!user) return null;
      const actor = token.actorId ? await loadUser(token.actorId) : undefined;
      return { token, user, accessToken: await sign(token, user, actor) };
    },

    sessionToken,

    /**
     * Gives a live token a new browser session cookie: the way back from impersonation, whose token took
     * over the impersonator's cookie. Null when the token is gone (revoked or expired).
     */
    async reopenSession(tokenId: string): Promise<IssuedToken | null> {
      const secret = randomBytes(32).toString('base64url');
      const [token] = await db
        .update(tokens)
        .set({ sessionSecretHash: sha256(secret) })
        .where(and(eq(tokens.id, tokenId), isNull(tokens.revokedAt), gt(tokens.expiresAt, new Date())))
        .returning();
      if (!token || !(await lineageLive(token))) return null;
      const user = await loadUser(token.userId);
      if (!user) return null;
      return { token, user, accessToken: await sign(token, user), sessionCookie: `${token.id}.${secret}` };
    },

    /**
     * The tokens a security change by this request leaves alive: the bearer it came with and the
     * browser session of its cookie, when they are the user's (contract §3.5: the caller stays logged in).
     */
    async requestSession(
      userId: string,
      caller: Caller | null,
      cookie: string | undefined,
    ): Promise<string[]> {
      const session = await sessionToken(cookie);
      return [caller?.token, session].filter((t): t is TokenRow => t?.userId === userId).map((t) => t.id);
    },

    /**
     * Opens the sudo window (issue 41) on a browser session, after its user elevated with credentials:
     * from now for `seconds`, replacing any earlier window. Only a live token with a session gets one.
     */
    async openElevationWindow(tokenId: string, seconds: number): Promise<void> {
      await db
        .update(tokens)
        .set({ elevatedUntil: new Date(Date.now() + seconds * 1000) })
        .where(
          and(
            eq(tokens.id, tokenId),
            isNull(tokens.revokedAt),
            isNotNull(tokens.sessionSecretHash),
            gt(tokens.expiresAt, new Date()),
          ),
        );
    },

    /**
     * An elevated token from the session's sudo window (grant `session_elevation`, issue 41), without
     * credentials. The bearer and the session cookie must be the same live session: a stolen bearer
     * lacks the HttpOnly cookie, and a cross-site request cannot send the bearer. The token lasts at most
     * what is left of the window (and of the session, its parent, which takes it along when it ends);
     * issuing it leaves the window as it is, so use never extends it.
     */
    async elevateFromSession(
      caller: Caller,
      cookie: string | undefined,
      requestedSeconds: number | undefined,
      client: ClientInfo,
    ): Promise<IssuedToken> {
      const session = await sessionToken(cookie);
      const secondsLeft = Math.floor(((session?.elevatedUntil?.getTime() ?? 0) - Date.now()) / 1000);
      if (
        !session ||
        session.id !== caller.token.id ||
        caller.token.actorId !== null ||
        caller.token.name !== null ||
        // Its last minute gives nothing: a token lapsing at once (or already, on a browser clock a little
        // ahead) would send the console from the page to the elevate page and back.
        secondsLeft < ELEVATION_WINDOW_LAST_SECONDS
      ) {
        // One answer for every refusal: the console then asks for the password as before.
        throw forbidden('Re-enter your credentials to continue', 'access_denied');
      }
      const lifetime = Math.min(TOKEN_LIFETIME_SECONDS.elevated, secondsLeft, requestedSeconds ?? Infinity);
      return issue(caller.user, 'elevated', lifetime, { parent: session, client });
    },

    /** The session cookie moves to a token exchanged from this one: its own cookie stops restoring it. */
    async endSessionCookie(tokenId: string): Promise<void> {
      await db.update(tokens).set({ sessionSecretHash: null }).where(eq(tokens.id, tokenId));
    },

    /** Revokes the token and everything exchanged from it; answers the ids revoked now. */
    revoke(tokenId: string): Promise<string[]> {
      return revokeTokenChains(db, eq(tokens.id, tokenId));
    },
  };
}
export type TokenService = ReturnType<typeof createTokenService>;

export function expiresInSeconds(token: TokenRow): number {
  return Math.max(Math.floor((token.expiresAt.getTime() - Date.now()) / 1000), 0);
}

export const invalidCredentials = () => new ApiError(401, 'invalid_credentials', 'Invalid email or password');
