import {
  emailSchema,
  emailVerificationChallengeCollection,
  idFromHref,
  isRoleVisible,
  MAX_LENGTH,
  noContent,
  otpTokenSchema,
  passwordSchema,
  permissionMessages,
  personNameSchema,
  roleCollection,
  scimMessages,
  tooLongMessage,
  twoFactorMessages,
  userClaim,
  userResource,
} from '@berth/core';
import { hash as hashPassword } from '@node-rs/argon2';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { roles, users } from '../../db/schema.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { ApiError, forbidden, notFound, parseBody, unprocessable } from '../../http/errors.ts';
import { collection } from '../../http/hal.ts';
import { isUuid } from '../../http/ids.ts';
import { loggableError } from '../../http/loggable-error.ts';
import { idRoute, route } from '../../http/route-schemas.ts';
import { isMemberOf, membershipsOf, organizationIdsOf } from '../access.ts';
import { loadCallerAccess, organizationsManagingMembers } from '../caller-access.ts';
import type { InvitationsService } from '../invitations/invitations.service.ts';
import { toRoleHal } from '../organizations/organizations.hal.ts';
import type { RateLimiter } from '../rate-limit.ts';
import type { SecurityNotices } from '../security-notices.ts';
import { type Caller, revokeOtherTokens, type TokenService } from '../tokens/token.service.ts';
import { SESSION_COOKIE } from '../tokens/tokens.routes.ts';
import type { TwoFactorService } from '../two-factor/two-factor.service.ts';
import {
  type EmailVerificationService,
  toEmailVerificationChallengeHal,
} from './email-verification.service.ts';
import { toUserHal } from './users.hal.ts';

// The console also sends `company` (the organization it creates next) and `origin`; both are ignored here.
const signupBody = z.looseObject({
  name: personNameSchema('Name'),
  email: emailSchema,
  password: passwordSchema,
  challengeToken: z
    .string()
    .max(MAX_LENGTH.code, { error: tooLongMessage('challengeToken', MAX_LENGTH.code), abort: true })
    .optional(),
  challenge_token: z
    .string()
    .max(MAX_LENGTH.code, { error: tooLongMessage('challenge_token', MAX_LENGTH.code), abort: true })
    .optional(),
});

// PATCH /users/:id: the `type` chooses the change, and the handler checks that change's fields (a new
// password asks for elevation first, and an unsupported type has its own 422). The route checks the type
// and documents both variants.
const updateKind = z
  .looseObject({
    type: z
      .string()
      .max(MAX_LENGTH.keyword, { error: tooLongMessage('type', MAX_LENGTH.keyword), abort: true })
      .optional(),
  })
  .describe(
    '`type` `update-password` with `password` (needs an elevated token), `otp` with `otp_enabled` ' +
      '(and, to turn it on, `current_otp_configuration` and `otp_token`; elevated), or `name` (or no type) with `name`.',
  );
const updatePasswordBody = z.looseObject({ password: passwordSchema });
const updateNameBody = z.looseObject({ name: personNameSchema('Name') });
// Contract §5.2: OTP on sends the pending configuration's URL (and id) and a code of it; OTP off, false.
const updateOtpBody = z.looseObject({
  otp_enabled: z.boolean({ error: 'otp_enabled must be true or false' }),
  current_otp_configuration: z
    .string()
    .max(MAX_LENGTH.reference, {
      error: tooLongMessage('current_otp_configuration', MAX_LENGTH.reference),
      abort: true,
    })
    .optional(),
  current_otp_configuration_id: z
    .string()
    .max(MAX_LENGTH.id, { error: tooLongMessage('current_otp_configuration_id', MAX_LENGTH.id), abort: true })
    .optional(),
  otp_token: otpTokenSchema.optional(),
});

const selectOrganizationBody = z.looseObject({
  selected_organization_id: z
    .string({ error: 'selected_organization_id must not be empty' })
    .max(MAX_LENGTH.reference, {
      error: tooLongMessage('selected_organization_id', MAX_LENGTH.reference),
      abort: true,
    })
    .min(1),
});

const emailChallengeBody = z.looseObject({
  email: emailSchema.optional(),
  origin: z
    .string()
    .max(MAX_LENGTH.reference, { error: tooLongMessage('origin', MAX_LENGTH.reference), abort: true })
    .optional(),
});

const useInvitation = () =>
  new ApiError(
    422,
    'use_invitation',
    'This email address has a pending invitation. Sign up through the link in the invitation email.',
  );

export const emailTaken = () =>
  unprocessable('An account with this email already exists', { email: ['taken'] });

export async function usersRoutes(
  fastify: FastifyInstance,
  deps: {
    db: Db;
    urls: FamilyUrls;
    guard: AuthGuard;
    verification: EmailVerificationService;
    invitations: InvitationsService;
    tokens: TokenService;
    /** Sign-ups, and sign-up checks, per client address. */
    signupLimiter: RateLimiter;
    /** `type: "otp"` turns 2FA on (with a valid code of a pending configuration) or off. */
    twoFactor: TwoFactorService;
    /** A password change is told to the user by mail. */
    notices: SecurityNotices;
  },
) {
  const { db, urls, guard, verification, invitations, tokens, signupLimiter } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Users'];

  async function emailInUse(email: string): Promise<boolean> {
    const rows = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
      .limit(1);
    return rows.length > 0;
  }

  /** The sign-up body; a challenge token is an invitation code, which must prove the address signed up. */
  async function checkSignup(input: z.output<typeof signupBody>) {
    const challengeToken = input.challengeToken ?? input.challenge_token ?? '';
    const proven = challengeToken !== '' && (await invitations.provesAddress(input.email, challengeToken));
    if (challengeToken !== '' && !proven)
      throw unprocessable('This invitation code is invalid or has expired');
    // Contract §3.7: an address with a pending invitation signs up through the invitation's link.
    if (challengeToken === '' && (await invitations.pendingFor(input.email))) throw useInvitation();
    return { ...input, proven };
  }

  /** Users may read and change only themselves (others' ids answer 404, never the user). */
  async function self(request: { params: { id: string } }, caller: Caller) {
    if (!isUuid(request.params.id) || request.params.id !== caller.user.id) throw notFound('User');
    return caller.user;
  }

  const claim = {
    config: { public: true },
    ...route(
      tags,
      'Check a sign-up before sending it (is the address free?)',
      { 200: userClaim },
      { body: signupBody },
    ),
  };
  app.post('/claims/user', claim, async (request) => {
    // Counted apart from sign-ups: the console checks each sign-up before sending it.
    await signupLimiter.hit(`claims:ip:${request.ip}`);
    const input = await checkSignup(request.body);
    if (await emailInUse(input.email)) throw emailTaken();
    return {};
  });

  const signUp = {
    config: { public: true },
    ...route(tags, 'Sign up', { 201: userResource }, { body: signupBody }),
  };
  app.post('/users', signUp, async (request, reply) => {
    await signupLimiter.hit(`users:ip:${request.ip}`);
    const input = await checkSignup(request.body);
    if (await emailInUse(input.email)) throw emailTaken();
    const passwordHash = await hashPassword(input.password);
    const [user] = await db
      .insert(users)
      .values({ name: input.name, email: input.email, passwordHash, verified: input.proven })
      .onConflictDoNothing()
      .returning();
    if (!user) throw emailTaken(); // a concurrent sign-up won the race for this address
    // An invitation code already proved the address; otherwise mail a verification link. The account
    // exists now: a failed delivery is logged and kept in the outbox, and Resend retries it.
    if (!input.proven)
      await verification.start(user).catch((error: unknown) => request.log.error(loggableError(error)));
    return reply.code(201).send(toUserHal(user, urls));
  });

  const show = idRoute(tags, 'The caller (any other id is 404)', { 200: userResource });
  app.get('/users/:id', show, async (request) => {
    const caller = await guard.requireCaller(request);
    return toUserHal(await self(request, caller), urls);
  });

  const update = idRoute(
    tags,
    'Change the caller’s name or password',
    { 200: userResource },
    { body: updateKind },
  );
  app.patch('/users/:id', update, async (request) => {
    const caller = await guard.requireCaller(request);
    const user = await self(request, caller);
    const { type } = request.body;
    if (type === 'otp') {
      // Turning 2FA on or off needs the password again (contract §3.6).
      await guard.requireCaller(request, { elevated: true });
      const body = parseBody(updateOtpBody, request.body);
      // As with a password change, every other token and session ends; this request's stay.
      const keep = await tokens.requestSession(user.id, caller, request.cookies[SESSION_COOKIE]);
      if (!body.otp_enabled) return toUserHal(await deps.twoFactor.disable(user, keep), urls);
      const configurationId =
        body.current_otp_configuration_id ??
        (body.current_otp_configuration ? idFromHref(body.current_otp_configuration) : undefined);
      if (!configurationId) throw unprocessable('current_otp_configuration must not be empty');
      if (!body.otp_token) throw unprocessable(twoFactorMessages.tokenRequired);
      return toUserHal(await deps.twoFactor.enable(user, configurationId, body.otp_token, keep), urls);
    }
    if (type === 'update-password') {
      // Changing the password needs the password again (contract §3.6).
      await guard.requireCaller(request, { elevated: true });
      const { password } = parseBody(updatePasswordBody, request.body);
      const passwordHash = await hashPassword(password);
      // Every other token and session of the user ends with the old password; this request's stay.
      const keep = await tokens.requestSession(user.id, caller, request.cookies[SESSION_COOKIE]);
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(users)
          .set({ passwordHash, updatedAt: new Date() })
          .where(eq(users.id, user.id))
          .returning();
        await revokeOtherTokens(tx, user.id, keep);
        return row;
      });
      await deps.notices.tell(updated ?? user, { kind: 'password-changed' });
      return toUserHal(updated ?? user, urls);
    }
    if (type !== undefined && type !== 'name') throw unprocessable(`Update type "${type}" is not supported`);
    const { name } = parseBody(updateNameBody, request.body);
    // A provisioned user's name is the identity provider's (it would set it back at its next sync).
    if (user.externalId) throw unprocessable(scimMessages.nameManaged);
    const [updated] = await db
      .update(users)
      .set({ name, updatedAt: new Date() })
      .where(eq(users.id, user.id))
      .returning();
    return toUserHal(updated ?? user, urls);
  });

  const selectOrganization = idRoute(
    tags,
    'Select the caller’s current organization',
    { 200: userResource },
    { body: selectOrganizationBody },
  );
  app.put('/users/:id', selectOrganization, async (request) => {
    const caller = await guard.requireCaller(request);
    const user = await self(request, caller);
    const { selected_organization_id: organizationId } = request.body;
    if (!isUuid(organizationId) || !(await isMemberOf(db, user.id, organizationId))) {
      throw unprocessable('You are not a member of that organization');
    }
    const [updated] = await db
      .update(users)
      .set({ selectedOrganizationId: organizationId, updatedAt: new Date() })
      .where(eq(users.id, user.id))
      .returning();
    return toUserHal(updated ?? user, urls);
  });

  const rolesOfUser = idRoute(
    tags,
    'The caller’s roles in every organization; another member’s, in the organizations where the caller manages members',
    { 200: roleCollection },
  );
  /**
   * The user's roles: all of them for the caller; for another member (issue 15), those in the
   * organizations the two share where the caller may manage members (owners and role admins), and none
   * elsewhere, leaving out the roles spec 1 §6 hides from the caller (a Deploy Owner and the owner and
   * billing roles). Sharing no organization, or only by roles hidden from the caller, is 404 as for any
   * stranger; sharing some but managing none, 403.
   */
  async function visibleRoleIds(request: { params: { id: string } }, caller: Caller): Promise<string[]> {
    const { id } = request.params;
    if (!isUuid(id)) throw notFound('User');
    const theirs = await membershipsOf(db, id);
    if (id === caller.user.id) return theirs.map((m) => m.roleId);
    const access = await loadCallerAccess(db, caller.user, caller.token);
    const seen = theirs.filter((m) => {
      const actor = access.actors.get(m.organizationId);
      return actor !== undefined && isRoleVisible(actor, m.roleType);
    });
    const shared = organizationIdsOf(seen);
    if (shared.length === 0) throw notFound('User');
    const managed = new Set(organizationsManagingMembers(access, shared));
    if (managed.size === 0) throw forbidden(permissionMessages.roleManagement);
    return seen.filter((m) => managed.has(m.organizationId)).map((m) => m.roleId);
  }

  app.get('/users/:id/roles', rolesOfUser, async (request) => {
    const caller = await guard.requireCaller(request);
    const roleIds = await visibleRoleIds(request, caller);
    const rows =
      roleIds.length === 0
        ? []
        : await db.select().from(roles).where(inArray(roles.id, roleIds)).orderBy(roles.createdAt);
    return collection(
      'roles',
      `${urls.auth}/users/${request.params.id}/roles`,
      rows.map((role) => toRoleHal(role, urls)),
    );
  });

  const challenges = idRoute(tags, 'The caller’s pending changes of address', {
    200: emailVerificationChallengeCollection,
  });
  app.get('/users/:id/email_verification_challenges', challenges, async (request) => {
    const caller = await guard.requireCaller(request);
    const user = await self(request, caller);
    const pending = await verification.pendingChanges(user);
    return collection(
      'email_verification_challenges',
      `${urls.auth}/users/${user.id}/email_verification_challenges`,
      pending.map((challenge) => toEmailVerificationChallengeHal(challenge, urls)),
    );
  });

  // Resending the verification mail is how an unverified account gets verified; moving to another
  // address (below) asks for elevation without this allowance, so it still needs a verified one.
  const resendOptions = {
    config: { caller: { allowUnverified: true } },
    ...idRoute(
      tags,
      'Mail a verification link: again for the current address, or for a new one',
      { 204: noContent },
      { body: emailChallengeBody },
    ),
  };
  app.post('/users/:id/email_verification_challenges', resendOptions, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    const user = await self(request, caller);
    const { body } = request;
    if (body.email && body.email !== user.email.toLowerCase()) {
      // Moving the account to another address needs the password again.
      await guard.requireCaller(request, { elevated: true });
      // A provisioned user's address is their userName at the identity provider.
      if (user.externalId) throw unprocessable(scimMessages.emailManaged);
      if (await emailInUse(body.email)) throw emailTaken();
      await verification.start(user, body.email);
    } else {
      await verification.start(user);
    }
    return reply.code(204).send(null);
  });

  const cancelChallenge = {
    config: { caller: { elevated: true } },
    ...idRoute(tags, 'Cancel a pending change of address', { 204: noContent }),
  };
  app.delete('/email_verification_challenges/:id', cancelChallenge, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    if (!(await verification.cancel(caller.user, request.params.id)))
      throw notFound('Email verification challenge');
    return reply.code(204).send(null);
  });
}
