import { randomBytes } from 'node:crypto';
import {
  ELEVATION_WINDOW_SECONDS,
  idFromHref,
  impersonationMessages,
  MAX_LENGTH,
  noContent,
  personalAccessTokenMessages,
  SESSION_ELEVATION_GRANT,
  TOKEN_LIFETIME_SECONDS,
  tokenResource,
  tooLongMessage,
  WRITE_SCOPES,
  webAuthnAssertionJson,
} from '@berth/core';
import { hash as hashPassword, verify as verifyPassword } from '@node-rs/argon2';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAuditEventForEveryOrganizationOf } from '../../api/audit-events/audit-events.repo.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { tokens as tokensTable, users } from '../../db/schema.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { ApiError, forbidden, notFound, parseBody, unauthorized } from '../../http/errors.ts';
import { isUuid } from '../../http/ids.ts';
import { idRoute, route } from '../../http/route-schemas.ts';
import { recordForEveryOrganizationOf } from '../privileged-activity.ts';
import type { LoginLimiter } from '../rate-limit.ts';
import type { SecurityKeysService } from '../security-keys/security-keys.service.ts';
import type { SecurityNotices } from '../security-notices.ts';
import type { TwoFactorService } from '../two-factor/two-factor.service.ts';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_SECONDS, type DeviceCookies } from './device-cookies.ts';
import {
  type Caller,
  type ClientInfo,
  type IssuedToken,
  invalidCredentials,
  revokeOtherTokens,
  revokeTokenChains,
  type TokenService,
  type UserRow,
} from './token.service.ts';
import { toTokenHal } from './tokens.hal.ts';

export const SESSION_COOKIE = 'berth_session';
/**
 * Set and cleared with the session cookie, on every path: the session cookie is sent only to /auth, so
 * this is how the console page a signed-in browser asks for knows to name the signed-in pages' code
 * for preloading (console-navigation.ts). A hint, never a credential: it carries no token.
 */
export const SIGNED_IN_COOKIE = 'berth_signed_in';

// The grant type decides which fields the rest of the body has. The route checks only `grant_type`: an
// unsupported grant is the contract's 400 `unsupported_grant_type` (not a 422), so the handler picks and
// checks the grant's own schema below. The variants are listed in the route's documented body.
const grantBody = z.looseObject({
  grant_type: z
    .string()
    .max(MAX_LENGTH.keyword, { error: tooLongMessage('grant_type', MAX_LENGTH.keyword), abort: true })
    .optional(),
});

const passwordGrant = z.looseObject({
  username: z
    .string()
    .max(MAX_LENGTH.email, { error: tooLongMessage('Email', MAX_LENGTH.email), abort: true })
    .trim()
    .min(1, 'Email must not be empty'),
  password: z
    .string()
    .max(MAX_LENGTH.password, { error: tooLongMessage('Password', MAX_LENGTH.password), abort: true })
    .min(1, 'Password must not be empty'),
  otp_token: z
    .string()
    .max(MAX_LENGTH.code, { error: tooLongMessage('otp_token', MAX_LENGTH.code), abort: true })
    .optional(),
  /** A security key's WebAuthn assertion, in place of `otp_token` (contract §3.2). */
  u2f: webAuthnAssertionJson.nullish(),
  scope: z
    .string()
    .max(MAX_LENGTH.keyword, { error: tooLongMessage('scope', MAX_LENGTH.keyword), abort: true })
    .default('manage'),
  expires_in: z.coerce.number().int().positive().optional(),
});

const exchangeGrant = z.looseObject({
  actor_token: z
    .string()
    .max(MAX_LENGTH.token, { error: tooLongMessage('actor_token', MAX_LENGTH.token), abort: true })
    .min(1, 'actor_token must not be empty'),
  subject_token_type: z.string().max(MAX_LENGTH.keyword, {
    error: tooLongMessage('subject_token_type', MAX_LENGTH.keyword),
    abort: true,
  }),
  subject_token: z
    .string()
    .max(MAX_LENGTH.token, { error: tooLongMessage('subject_token', MAX_LENGTH.token), abort: true })
    .min(1, 'subject_token must not be empty'),
  scope: z
    .string()
    .max(MAX_LENGTH.keyword, { error: tooLongMessage('scope', MAX_LENGTH.keyword), abort: true })
    .default('manage'),
  expires_in: z.coerce.number().int().positive().optional(),
  sso_organization: z
    .string()
    .max(MAX_LENGTH.reference, {
      error: tooLongMessage('sso_organization', MAX_LENGTH.reference),
      abort: true,
    })
    .optional(),
});

/** Issue 41's sudo window: no credentials, the session cookie and its bearer instead. */
const sessionElevationGrant = z.looseObject({
  scope: z
    .string()
    .max(MAX_LENGTH.keyword, { error: tooLongMessage('scope', MAX_LENGTH.keyword), abort: true })
    .default('elevated'),
  expires_in: z.coerce.number().int().positive().optional(),
});

const revokeBody = z.looseObject({
  except_tokens: z
    .array(
      z
        .string()
        .max(MAX_LENGTH.reference, {
          error: tooLongMessage('except_tokens', MAX_LENGTH.reference),
          abort: true,
        })
        // Each entry is a token's URL; one that is no URL at all is malformed. A URL that names no
        // token of the caller's (another user's, or no token) is ignored: it keeps nothing.
        .refine((href) => URL.canParse(href), 'except_tokens must list token URLs'),
    )
    .default([]),
});

export interface TokensDeps {
  db: Db;
  urls: FamilyUrls;
  tokens: TokenService;
  guard: AuthGuard;
  limiter: LoginLimiter;
  /** Signs and checks the cookies of devices that logged in before (the limiter counts them apart). */
  deviceCookies: DeviceCookies;
  secureCookies: boolean;
  /** The second factor of password logins and elevations, when the user turned 2FA on. */
  twoFactor: TwoFactorService;
  /** Security keys, the other second factor: an assertion in `u2f` instead of a code. */
  securityKeys: SecurityKeysService;
  /** The user hears of each personal access token revoked. */
  notices: SecurityNotices;
}

const GRANT_TYPES = {
  password: 'password',
  exchange: 'urn:ietf:params:oauth:grant-type:token-exchange',
  sessionElevation: SESSION_ELEVATION_GRANT,
} as const;

/** `POST /tokens`: validated as `grantBody`, documented with each grant's fields (contract §3.2). */
const tokenRequestBody = grantBody.describe(
  `\`grant_type\` is \`${GRANT_TYPES.password}\` (\`username\`, \`password\`, optional \`otp_token\` or \`u2f\`, ` +
    `\`scope\` manage or elevated, \`expires_in\`) or \`${GRANT_TYPES.exchange}\` (\`actor_token\`, ` +
    "`subject_token_type`, `subject_token` (the user's URL), `scope` manage or read, `expires_in`) or " +
    `\`${GRANT_TYPES.sessionElevation}\` (Berth's: \`scope\` elevated, optional \`expires_in\`, no credentials; ` +
    'sent with the session cookie and that session’s bearer within 15 minutes of an elevation with ' +
    'credentials by the same session, else 403 `access_denied`). ' +
    'Any other grant type is 400 `unsupported_grant_type`.',
);

const writeScopes = new Set<string>(WRITE_SCOPES);

/** Answers to a request refused for its body (its form, size or media type) before any password check. */
const INPUT_REFUSED = new Set([400, 413, 415, 422]);

/** The client a token is issued to, for the sessions list. */
function clientOf(request: FastifyRequest): ClientInfo {
  return { userAgent: request.headers['user-agent'], ip: request.ip };
}

export async function tokensRoutes(fastify: FastifyInstance, deps: TokensDeps) {
  const { db, urls, tokens, guard, limiter, deviceCookies } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const dummyHash = hashPassword(randomBytes(16).toString('hex'));

  const cookieOptions = (path: string, maxAge: number) =>
    ({ path, httpOnly: true, secure: deps.secureCookies, sameSite: 'lax', maxAge }) as const;

  function setSignedInCookie(reply: FastifyReply, token: { expiresAt: Date }) {
    const maxAge = Math.floor((token.expiresAt.getTime() - Date.now()) / 1000);
    reply.setCookie(SIGNED_IN_COOKIE, '1', cookieOptions('/', maxAge));
  }

  function setSessionCookie(reply: FastifyReply, issued: IssuedToken) {
    if (!issued.sessionCookie) return;
    const maxAge = Math.floor((issued.token.expiresAt.getTime() - Date.now()) / 1000);
    reply.setCookie(SESSION_COOKIE, issued.sessionCookie, cookieOptions('/auth', maxAge));
    setSignedInCookie(reply, issued.token);
  }

  /**
   * A fresh device cookie after each successful password login, sent back only with logins: strict,
   * since a login never starts on another site.
   */
  function setDeviceCookie(reply: FastifyReply, user: UserRow) {
    reply.setCookie(DEVICE_COOKIE, deviceCookies.issue(user.email, user.passwordHash), {
      ...cookieOptions('/auth/tokens', DEVICE_COOKIE_MAX_AGE_SECONDS),
      sameSite: 'strict',
    });
  }

  function clearSessionCookie(reply: FastifyReply) {
    reply.setCookie(SESSION_COOKIE, '', cookieOptions('/auth', 0));
    reply.setCookie(SIGNED_IN_COOKIE, '', cookieOptions('/', 0));
  }

  /** Clears the request's session cookie when its token is among those just revoked. */
  function clearCookieIfRevoked(request: FastifyRequest, reply: FastifyReply, revoked: readonly string[]) {
    const cookieTokenId = request.cookies[SESSION_COOKIE]?.split('.')[0];
    if (cookieTokenId && revoked.includes(cookieTokenId)) clearSessionCookie(reply);
  }

  const tags = ['Tokens'];

  /**
   * The second factor of a password login or elevation (contract §3.7): a key assertion in `u2f`, or a
   * code. Without either, `otp_token_required` carries request options for the user's keys, if any.
   */
  async function secondFactor(user: UserRow, body: z.infer<typeof passwordGrant>): Promise<void> {
    if (!user.otpEnabled) return;
    if (body.u2f) return deps.securityKeys.verifyAssertion(user, body.u2f);
    try {
      await deps.twoFactor.requireSecondFactor(user, body.otp_token);
    } catch (error) {
      if (error instanceof ApiError && error.error === 'otp_token_required') {
        const payload = await deps.securityKeys.authenticationOptions(user);
        if (payload) throw new ApiError(401, error.error, error.message, undefined, { u2f: { payload } });
      }
      throw error;
    }
  }

  /**
   * An elevation asked for by a signed-in session of the same account: the console sends it with the
   * session's bearer and no cookies (contract §3.2), so the device cookie never comes with it. That
   * session is a device its owner signed in on, counted on its own like one, so an attacker guessing
   * from elsewhere cannot keep the owner from re-entering their password (to change it, say). Not for
   * impersonation or read-only sessions, which the owner did not sign in to.
   */
  async function sessionDevice(request: FastifyRequest, email: string): Promise<string | undefined> {
    const caller = await guard.optionalCaller(request).catch(() => null);
    // A personal access token is no device its owner signed in on: one leaked must not buy guesses.
    if (
      !caller ||
      caller.token.actorId ||
      caller.token.name !== null ||
      !writeScopes.has(caller.token.scope)
    ) {
      return undefined;
    }
    return caller.user.email.toLowerCase() === email ? `session-${caller.token.id}` : undefined;
  }

  /**
   * Which second factor the request brings when it would pass `secondFactor` (a TOTP step, a security key
   * assertion, a recovery code), without spending or counting it; null when none would.
   */
  async function secondFactorHolds(
    user: UserRow,
    body: z.infer<typeof passwordGrant>,
  ): Promise<'step' | 'key' | 'recovery' | null> {
    if (!user.otpEnabled) return null;
    if (body.u2f) return (await deps.securityKeys.assertionHolds(user, body.u2f)) ? 'key' : null;
    return deps.twoFactor.codeHolds(user, body.otp_token);
  }

  /**
   * A login refused for its body never reached the limiter (a 100 KB username is refused before the
   * handler runs): it is charged to the client's address here, as a failed login. Token exchanges and
   * session elevations carry no password: they are no logins and are left alone.
   */
  async function chargeRefusedInput(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const grantType = (request.body as { grant_type?: unknown } | null | undefined)?.grant_type;
    const login = grantType !== GRANT_TYPES.exchange && grantType !== GRANT_TYPES.sessionElevation;
    if (INPUT_REFUSED.has(reply.statusCode) && login) {
      await limiter.refusedInput(request.ip);
    }
    return payload;
  }

  /**
   * After an elevation with credentials, the sudo window (issue 41) opens on the browser session whose
   * bearer came with it (the console sends the elevation with that bearer and no cookies, contract §3.2),
   * when that session is the same user's own sign-in: not an impersonation, a personal access token or a
   * read-only session.
   */
  async function openElevationWindow(request: FastifyRequest, user: UserRow): Promise<void> {
    const caller = await guard.optionalCaller(request).catch(() => null);
    if (
      !caller ||
      caller.user.id !== user.id ||
      caller.token.actorId !== null ||
      caller.token.name !== null ||
      caller.token.sessionSecretHash === null ||
      !writeScopes.has(caller.token.scope)
    ) {
      return;
    }
    await tokens.openElevationWindow(caller.token.id, ELEVATION_WINDOW_SECONDS);
  }

  async function userById(id: string): Promise<UserRow | undefined> {
    const [user] = await db.select().from(users).where(eq(users.id, id));
    return user;
  }

  /**
   * Staff impersonation (spec 1 §6, contract §3.2 b): the user the exchange asks for, once the actor may
   * act as them with the scope asked. A superuser may ask for `manage`; a read-only impersonator only
   * for `read`; SSO simulation is always read-only; an impersonation token never impersonates further.
   */
  async function impersonationSubject(actor: Caller, body: z.infer<typeof exchangeGrant>): Promise<UserRow> {
    if (actor.token.actorId) throw forbidden(impersonationMessages.noChaining, 'access_denied');
    // An organization's IdP vouched for this person there alone (its owner runs that IdP): staff powers,
    // which reach every account, need the staff member's own sign-in.
    if (actor.token.ssoOrganizationId) throw forbidden(impersonationMessages.ssoSession, 'access_denied');
    if (!actor.user.superuser && !actor.user.readOnlyImpersonate) {
      throw forbidden(impersonationMessages.notStaff, 'access_denied');
    }
    if (body.scope === 'manage' && (!actor.user.superuser || body.sso_organization)) {
      throw forbidden(impersonationMessages.readOnlyOnly, 'access_denied');
    }
    const type = body.subject_token_type;
    let subject: UserRow | undefined;
    if (type.endsWith(':user:email')) {
      [subject] = await db
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, body.subject_token.trim().toLowerCase()));
    } else if (type.endsWith(':user:href')) {
      const id = idFromHref(body.subject_token);
      if (id && isUuid(id)) [subject] = await db.select().from(users).where(eq(users.id, id));
    } else {
      throw new ApiError(400, 'invalid_request', `Unsupported subject_token_type "${type}"`);
    }
    if (!subject) throw notFound('User');
    if (subject.id === actor.user.id) {
      throw forbidden('You may only exchange a token for your own user', 'access_denied');
    }
    return subject;
  }

  app.get(
    '/current_token',
    {
      config: { public: true },
      ...route(tags, 'The token of the browser session (from its cookie)', { 200: tokenResource }),
    },
    async (request, reply) => {
      const issued = await tokens.restoreSession(request.cookies[SESSION_COOKIE]);
      if (!issued) {
        if (request.cookies[SIGNED_IN_COOKIE]) reply.setCookie(SIGNED_IN_COOKIE, '', cookieOptions('/', 0));
        throw unauthorized('No active session');
      }
      // Sessions from before the hint existed get it here.
      if (!request.cookies[SIGNED_IN_COOKIE]) setSignedInCookie(reply, issued.token);
      return reply.send(toTokenHal(issued.token, issued.accessToken, urls));
    },
  );

  const signIn = {
    config: { public: true },
    onSend: chargeRefusedInput,
    ...route(
      tags,
      'Sign in with a password, or exchange a token for one of the same user',
      { 201: tokenResource },
      { body: tokenRequestBody },
    ),
  };
  app.post('/tokens', signIn, async (request, reply) => {
    const { grant_type: grantType } = request.body;
    if (grantType === GRANT_TYPES.password) {
      const body = parseBody(passwordGrant, request.body);
      if (body.scope !== 'manage' && body.scope !== 'elevated') {
        throw new ApiError(400, 'invalid_scope', `Scope "${body.scope}" cannot be requested with a password`);
      }
      const email = body.username.toLowerCase();
      const [user] = await db
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, email));
      // A device that logged in to this account since its password was set is counted on its own,
      // apart from the account.
      const device =
        deviceCookies.deviceOf(request.cookies[DEVICE_COOKIE], email, user?.passwordHash) ??
        (body.scope === 'elevated' ? await sessionDevice(request, email) : undefined);
      const withSecondFactor = !!body.u2f || (body.otp_token?.trim() ?? '') !== '';
      // Recorded before the password is checked, so parallel guesses cannot outrun the limit.
      const attempt = await limiter.attempt(email, request.ip, { device, secondFactor: withSecondFactor });
      // An unknown address costs the same hashing work, so timing does not tell which accounts exist;
      // past the lock as well, so its answers cost the same whatever was wrong.
      const passwordOk = await verifyPassword(user?.passwordHash ?? (await dummyHash), body.password).then(
        (ok) => ok && !!user,
      );
      const { lock } = attempt;
      if (lock) {
        // A locked account opens only to the right password with its second factor. A TOTP step or key
        // assertion that holds is spent whatever the password, so each one found buys one password check;
        // a recovery code (80 random bits: never found by guessing) is spent only with the right password,
        // so a typo does not cost its owner one. Every failure here is turned away alike (the same answer,
        // Retry-After and count), so the lock tells no one which of the two was wrong.
        const held = user ? await secondFactorHolds(user, body) : null;
        const spent =
          !!user &&
          held !== null &&
          (held !== 'recovery' || passwordOk) &&
          (await secondFactor(user, body).then(
            () => true,
            () => false,
          ));
        if (!user || !passwordOk || !spent) {
          await attempt.turnedAway();
          throw lock;
        }
        await attempt.succeeded();
      } else {
        // A failed attempt stays recorded; a successful one resets the account's count.
        if (!user || !passwordOk) throw invalidCredentials();
        await attempt.succeeded();
        // With 2FA on: 401 `otp_token_required` without a code (contract §3.7); its own limit for wrong ones.
        await secondFactor(user, body);
      }
      const elevated = body.scope === 'elevated';
      const lifetime = elevated ? TOKEN_LIFETIME_SECONDS.elevated : TOKEN_LIFETIME_SECONDS.session;
      const issued = await tokens.issue(
        user,
        elevated ? 'elevated' : 'manage',
        Math.min(body.expires_in ?? lifetime, lifetime),
        {
          // The elevated token never replaces the browser session (contract §3.2).
          session: !elevated,
          client: clientOf(request),
        },
      );
      if (elevated) await openElevationWindow(request, user);
      setSessionCookie(reply, issued);
      setDeviceCookie(reply, user);
      return reply.code(201).send(toTokenHal(issued.token, issued.accessToken, urls));
    }
    if (grantType === GRANT_TYPES.sessionElevation) {
      const body = parseBody(sessionElevationGrant, request.body);
      if (body.scope !== 'elevated') {
        throw new ApiError(400, 'invalid_scope', `Scope "${body.scope}" cannot be requested by this grant`);
      }
      // A read-only session is refused here; an unverified user may elevate, as with a password.
      const caller = await guard.requireCaller(request, { allowUnverified: true });
      const issued = await tokens.elevateFromSession(
        caller,
        request.cookies[SESSION_COOKIE],
        body.expires_in,
        clientOf(request),
      );
      return reply.code(201).send(toTokenHal(issued.token, issued.accessToken, urls));
    }
    if (grantType === GRANT_TYPES.exchange) {
      const body = parseBody(exchangeGrant, request.body);
      if (body.scope !== 'manage' && body.scope !== 'read') {
        throw new ApiError(400, 'invalid_scope', `Scope "${body.scope}" cannot be requested by exchange`);
      }
      const actor = await tokens.authenticate(body.actor_token);
      // A personal access token stays what it was made as: no session, no other token comes from it.
      if (actor.token.name !== null) {
        throw forbidden(personalAccessTokenMessages.notExchangeable, 'access_denied');
      }
      // Refreshing one's own token (after creating an organization or accepting an invitation).
      // Acting as another user is staff impersonation, which has its own rules.
      const subjectIsSelf =
        body.subject_token_type.endsWith(':user:href') && idFromHref(body.subject_token) === actor.user.id;
      if (!subjectIsSelf) {
        const subject = await impersonationSubject(actor, body);
        const lifetime = Math.min(TOKEN_LIFETIME_SECONDS.exchange, TOKEN_LIFETIME_SECONDS.session);
        // Ended with the impersonator's own token, and marked with them as its actor (contract §3.4).
        const issued = await tokens.issue(
          subject,
          body.scope,
          Math.min(body.expires_in ?? lifetime, lifetime),
          {
            session: true,
            actor: actor.user,
            parent: actor.token,
            client: clientOf(request),
          },
        );
        request.log.info(
          {
            impersonation: {
              actorId: actor.user.id,
              userId: subject.id,
              tokenId: issued.token.id,
              scope: body.scope,
            },
          },
          'impersonation started',
        );
        // Each organization of the impersonated user sees it on its Security & Compliance dashboard.
        await recordForEveryOrganizationOf(db, subject.id, {
          kind: 'impersonation_started',
          actor: actor.user,
          detail: body.scope === 'manage' ? 'with write access' : 'read-only',
        });
        setSessionCookie(reply, issued);
        return reply.code(201).send(toTokenHal(issued.token, issued.accessToken, urls));
      }
      if (body.scope === 'manage' && actor.token.scope === 'read') {
        throw new ApiError(400, 'invalid_scope', 'A read-only token cannot be exchanged for scope manage');
      }
      // Never longer than a password login; issue() also ends it with the token it comes from.
      const lifetime = Math.min(TOKEN_LIFETIME_SECONDS.exchange, TOKEN_LIFETIME_SECONDS.session);
      const session = await tokens.sessionToken(request.cookies[SESSION_COOKIE]);
      const sameSession = session?.id === actor.token.id;
      const issued = await tokens.issue(
        actor.user,
        body.scope,
        Math.min(body.expires_in ?? lifetime, lifetime),
        {
          session: true,
          parent: actor.token,
          client: clientOf(request),
          // A refreshed impersonation token stays marked with its impersonator.
          actor: actor.token.actorId ? await userById(actor.token.actorId) : undefined,
          // A refreshed organization (SSO) token stays one, of the same organization.
          ssoOrganizationId: actor.token.ssoOrganizationId,
          // The same browser session goes on in the new token, its sudo window as it was (issue 41);
          // a read-only token could not use one.
          elevatedUntil: sameSession && body.scope === 'manage' ? session.elevatedUntil : null,
        },
      );
      // The new token becomes the browser's session (contract §3.2). When the cookie was the exchanged
      // token's, that cookie is retired: one session, one cookie that restores it.
      if (sameSession) await tokens.endSessionCookie(actor.token.id);
      setSessionCookie(reply, issued);
      return reply.code(201).send(toTokenHal(issued.token, issued.accessToken, urls));
    }
    throw new ApiError(400, 'unsupported_grant_type', `Unsupported grant type "${grantType ?? ''}"`);
  });

  // Logging out works before verification too, and from read-only sessions.
  const logout = {
    config: { caller: { anyScope: true, allowUnverified: true } },
    ...idRoute(tags, 'Revoke one of the caller’s tokens (and the tokens exchanged from it)', {
      204: noContent,
    }),
  };
  app.delete('/tokens/:id', logout, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    if (!isUuid(request.params.id)) throw notFound('Token');
    const [target] = await db
      .select()
      .from(tokensTable)
      .where(and(eq(tokensTable.id, request.params.id), eq(tokensTable.userId, caller.user.id)));
    if (!target) throw notFound('Token');
    // A read-only session (an impersonator's, say) may end itself, but no other session of the user.
    if (!writeScopes.has(caller.token.scope) && target.id !== caller.token.id) {
      throw forbidden('This session is read-only: it can only log itself out', 'access_denied');
    }
    // A personal API token's revocation is an audit event of its owner's organizations, written with it.
    const revokedNow = await db.transaction(async (tx) => {
      const ids = await revokeTokenChains(tx, eq(tokensTable.id, target.id));
      if (target.name !== null && ids.includes(target.id)) {
        await recordAuditEventForEveryOrganizationOf(tx, caller.user.id, {
          action: 'api_token.revoke',
          actor: caller.user,
          target: { type: 'api_token', id: target.id, name: target.name },
          detail: target.scope,
        });
      }
      return ids;
    });
    const revoked = [target.id, ...revokedNow];
    if (target.name !== null && !target.revokedAt) {
      await deps.notices.tell(caller.user, { kind: 'access-token-revoked', name: target.name });
    }
    // Logging out (the request's own token) is no privileged change; ending another token is.
    if (target.id !== caller.token.id && !target.revokedAt) {
      await recordForEveryOrganizationOf(db, caller.user.id, {
        kind: 'token_revoked',
        actor: caller.user,
        detail: target.name !== null ? `the access token ${target.name}` : 'a session',
      });
    }
    // The cookie may be the session of a token exchanged from the target, which ended with it.
    clearCookieIfRevoked(request, reply, revoked);
    // Ending an impersonation in the browser that started it gives the impersonator their own session
    // back (its cookie had moved to the impersonation token).
    const cookieTokenId = request.cookies[SESSION_COOKIE]?.split('.')[0];
    if (target.actorId && target.parentId && cookieTokenId && revoked.includes(cookieTokenId)) {
      const restored = await tokens.reopenSession(target.parentId);
      if (restored) {
        request.log.info(
          { impersonation: { actorId: target.actorId, userId: target.userId, tokenId: target.id } },
          'impersonation ended',
        );
        setSessionCookie(reply, restored);
      }
    }
    return reply.code(204).send(null);
  });

  // Revoking one's own sessions only takes access away, so it needs no verified address.
  const revokeAll = {
    config: { caller: { elevated: true, allowUnverified: true } },
    ...route(
      tags,
      'Revoke every token and session of the caller but those listed, personal access tokens included',
      { 204: noContent },
      { body: revokeBody },
    ),
  };
  app.post('/tokens/revoke_all_accessible', revokeAll, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    const { body } = request;
    const keep = body.except_tokens.map((href) => idFromHref(href)).filter((id): id is string => !!id);
    // The revocation and its records are one transaction: what was ended is recorded exactly then.
    const revoked = await db.transaction(async (tx) => {
      const ended = await revokeOtherTokens(tx, caller.user.id, keep);
      if (ended.length > 0) {
        await recordForEveryOrganizationOf(tx, caller.user.id, {
          kind: 'sessions_revoked',
          actor: caller.user,
          detail: `their other sessions (${tokenCount(ended.length)})`,
        });
        await recordAuditEventForEveryOrganizationOf(tx, caller.user.id, {
          action: 'session.revoke_all',
          actor: caller.user,
          target: { type: 'user', id: caller.user.id, name: caller.user.email },
          detail: `log out other sessions (${tokenCount(ended.length)})`,
        });
      }
      return ended;
    });
    clearCookieIfRevoked(request, reply, revoked);
    return reply.code(204).send(null);
  });
}

const tokenCount = (n: number) => `${n} ${n === 1 ? 'token' : 'tokens'}`;
