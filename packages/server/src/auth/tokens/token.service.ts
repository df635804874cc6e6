import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, notInArray } from 'drizzle-orm';
import { jwtVerify, SignJWT } from 'jose';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
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

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
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
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(urls.auth)
      .setSubject(`${urls.auth}/users/${user.id}`)
      .setJti(token.id)
      .setIssuedAt(Math.floor(token.createdAt.getTime() / 1000))
      .setExpirationTime(Math.floor(token.expiresAt.getTime() / 1000));
    return jwt.sign(key);
  }

  async function loadUser(id: string): Promise<UserRow | undefined> {
    const [user] = await db.select().from(users).where(eq(users.id, id));
    return user;
  }

  return {
    sign,

    async issue(
      user: UserRow,
      scope: TokenScope,
      expiresInSeconds: number,
      options: { session?: boolean; actor?: UserRow } = {},
    ): Promise<IssuedToken> {
      const secret = options.session ? randomBytes(32).toString('base64url') : null;
      const [token] = await db
        .insert(tokens)
        .values({
          userId: user.id,
          actorId: options.actor?.id ?? null,
          scope,
          expiresAt: new Date(Date.now() + expiresInSeconds * 1000),
          sessionSecretHash: secret ? sha256(secret) : null,
        })
        .returning();
      if (!token) throw new Error('Token insert returned nothing');
      const accessToken = await sign(token, user, options.actor);
      return { token, user, accessToken, sessionCookie: secret ? `${token.id}.${secret}` : undefined };
    },

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
      const [token] = isUuid(tokenId) ? await db.select().from(tokens).where(eq(tokens.id, tokenId)) : [];
      if (!token || token.revokedAt) throw unauthorized('Access token has been revoked');
      if (token.expiresAt.getTime() <= Date.now()) {
        if (token.scope === 'elevated') throw forbidden('Elevated token has expired', 'access_denied');
        throw unauthorized('Access token has expired');
      }
      const user = await loadUser(token.userId);
      if (!user) throw unauthorized('Access token has been revoked');
      return { token, user, accessToken };
    },

    /** Restores a browser session from its cookie (contract §3.5); null when it is gone. */
    async restoreSession(cookie: string | undefined): Promise<IssuedToken | null> {
      const [tokenId, secret] = (cookie ?? '').split('.');
      if (!tokenId || !secret || !isUuid(tokenId)) return null;
      const [token] = await db
        .select()
        .from(tokens)
        .where(and(eq(tokens.id, tokenId), isNull(tokens.revokedAt), gt(tokens.expiresAt, new Date())));
      if (!token?.sessionSecretHash || !sameSecret(token.sessionSecretHash, sha256(secret))) return null;
      const user = await loadUser(token.userId);
      if (!user) return null;
      const actor = token.actorId ? await loadUser(token.actorId) : undefined;
      return { token, user, accessToken: await sign(token, user, actor) };
    },

    async revoke(tokenId: string): Promise<void> {
      await db.update(tokens).set({ revokedAt: new Date() }).where(eq(tokens.id, tokenId));
    },

    /** Revokes every live token of the user except the listed ones. */
    async revokeAllExcept(userId: string, keep: string[]): Promise<void> {
      const conditions = [eq(tokens.userId, userId), isNull(tokens.revokedAt)];
      if (keep.length > 0) conditions.push(notInArray(tokens.id, keep));
      await db
        .update(tokens)
        .set({ revokedAt: new Date() })
        .where(and(...conditions));
    },
  };
}
export type TokenService = ReturnType<typeof createTokenService>;

export function expiresInSeconds(token: TokenRow): number {
  return Math.max(Math.floor((token.expiresAt.getTime() - Date.now()) / 1000), 0);
}

export const invalidCredentials = () => new ApiError(401, 'invalid_credentials', 'Invalid email or password');
