import {
  canAct,
  createOrganizationSchema,
  emailMessages,
  isRoleVisible,
  isValidEmail,
  MAX_LENGTH,
  organizationCollection,
  organizationResource,
  type RoleMembershipsMap,
  type RoleType,
  reauthenticateOrganizationCollection,
  requiredText,
  roleCollection,
  roleMembershipsMap,
  ssoEnforcementMessages,
  userCollection,
  visibleRoleTypes,
} from '@berth/core';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAuditEvent } from '../../api/audit-events/audit-events.repo.ts';
import type { PlansService } from '../../billing/plans/plans.service.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { memberships, organizations, roles, users } from '../../db/schema.ts';
import { type AuthGuard, verifyFirst } from '../../http/authenticate.ts';
import { forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { collection } from '../../http/hal.ts';
import { isUuid } from '../../http/ids.ts';
import { idRoute, route } from '../../http/route-schemas.ts';
import { assertUsable, type CallerAccess, type Callers } from '../caller-access.ts';
import { provisionedIn } from '../provisioned-users.ts';
import { hasSamlConfiguration } from '../sso/sso-enforcement.ts';
import { toUserHal } from '../users/users.hal.ts';
import { toMembershipHal, toOrganizationHal, toRoleHal } from './organizations.hal.ts';

const optionalEmail = z
  .string()
  .max(MAX_LENGTH.email, { error: emailMessages.invalid, abort: true })
  .trim()
  .nullish()
  .refine((value) => !value || isValidEmail(value), emailMessages.invalid);
const optionalText = z
  .string()
  .trim()
  .max(200, { error: 'Must be at most 200 characters', abort: true })
  .nullish();

const updateOrganizationBody = z.looseObject({
  name: requiredText('Name', 120).optional(),
  address: optionalText,
  city: optionalText,
  state: optionalText,
  zip: optionalText,
  primary_phone: optionalText,
  emergency_phone: optionalText,
  security_alert_email: optionalEmail,
  ops_alert_email: optionalEmail,
  sso_enforced: z.boolean().optional(),
});

/** The roles every new organization starts with (spec 1 §6 role types). */
const DEFAULT_ROLES = [
  { name: 'Account Owners', type: 'owner' },
  { name: 'Deploy Owners', type: 'platform_owner' },
  { name: 'Billing Owners', type: 'billing_owner' },
] as const;

export async function organizationsRoutes(
  fastify: FastifyInstance,
  deps: {
    db: Db;
    urls: FamilyUrls;
    guard: AuthGuard;
    callers: Callers;
    /** A new organization starts on the operator's default plan. */
    plans: Pick<PlansService, 'startPlan'>;
  },
) {
  const { db, urls, guard, callers, plans } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Organizations'];

  /**
   * Loads an organization the caller belongs to and this token may use (any other id is 404; one that
   * needs another sign-in, SSO, is 403), with the caller's roles there and their actor's role types
   * (what spec 1 §6 lets them see of its roles).
   */
  async function memberOrganization(caller: CallerAccess, organizationId: string) {
    if (isUuid(organizationId)) assertUsable(caller, organizationId);
    const inOrganization = caller.memberships.filter((m) => m.organizationId === organizationId);
    if (inOrganization.length === 0) throw notFound('Organization');
    const [org] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
    if (!org) throw notFound('Organization');
    return { org, mine: inOrganization, actor: { roleTypes: inOrganization.map((m) => m.roleType) } };
  }

  const list = route(tags, 'The caller’s organizations, most recently updated first', {
    200: organizationCollection,
  });
  // Every organization of the caller, those this token may not use included (flagged `reauth_required`):
  // the console badges them and offers to sign in again (spec 3 §6).
  app.get('/organizations', list, async (request) => {
    const caller = await callers.require(request);
    const ids = [...caller.actors.keys(), ...caller.reauthentication.keys()];
    const rows = ids.length
      ? await db
          .select()
          .from(organizations)
          .where(inArray(organizations.id, ids))
          .orderBy(desc(organizations.updatedAt))
      : [];
    return collection(
      'organizations',
      `${urls.auth}/organizations`,
      rows.map((org) => toOrganizationHal(org, urls, caller.reauthentication.has(org.id))),
    );
  });

  // Sign-up's Create Organization step comes before the address is verified: the first one only.
  const create = {
    config: { caller: { allowUnverified: true } },
    ...route(
      tags,
      'Create an organization, with the caller as its Account Owner',
      { 201: organizationResource },
      { body: createOrganizationSchema },
    ),
  };
  app.post('/organizations', create, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    const { name } = request.body;
    const org = await db.transaction(async (tx) => {
      if (!caller.user.verified) {
        // The user's row is locked, so two parallel requests cannot both find no organization yet,
        // and read again, so a verification that landed meanwhile counts.
        const [me] = await tx
          .select({ verified: users.verified })
          .from(users)
          .where(eq(users.id, caller.user.id))
          .for('update');
        const [membership] = me?.verified
          ? []
          : await tx
              .select({ id: memberships.id })
              .from(memberships)
              .where(eq(memberships.userId, caller.user.id))
              .limit(1);
        if (membership) throw verifyFirst();
      }
      // A new organization takes its place in the queue's turns now, not ahead of everyone waiting: a
      // fresh organization must not be a way to jump the queue.
      const [created] = await tx
        .insert(organizations)
        .values({ name, queueTurnAt: sql`clock_timestamp()` })
        .returning();
      if (!created) throw new Error('Organization insert returned nothing');
      const createdRoles = await tx
        .insert(roles)
        .values(DEFAULT_ROLES.map((role) => ({ ...role, organizationId: created.id })))
        .returning();
      const ownerRole = createdRoles.find((role) => role.type === 'owner');
      if (!ownerRole) throw new Error('Owner role missing');
      await tx.insert(memberships).values({ userId: caller.user.id, roleId: ownerRole.id, privileged: true });
      await plans.startPlan(tx, created.id);
      // The creator works in the new organization next (issue 15): it becomes their selected one, the
      // `selected_organization` link of their user, as a switch (PUT /users/:id) would make it.
      await tx
        .update(users)
        .set({ selectedOrganizationId: created.id, updatedAt: new Date() })
        .where(eq(users.id, caller.user.id));
      return created;
    });
    return reply.code(201).send(toOrganizationHal(org, urls, false));
  });

  const update = idRoute(
    tags,
    'Change an organization’s name and contacts (Account Owners)',
    { 200: organizationResource },
    { body: updateOrganizationBody },
  );
  app.patch('/organizations/:id', update, async (request) => {
    const caller = await callers.require(request);
    const { org, mine } = await memberOrganization(caller, request.params.id);
    // The action's requirement, with this family's own wording of the refusal.
    if (!canAct({ roleTypes: mine.map((m) => m.roleType), permissions: [] }, 'organization.update')) {
      throw forbidden('Only an Account Owner can change organization settings');
    }
    const { body } = request;
    const updated = await db.transaction(async (tx) => {
      // The row is locked so the SAML configuration's removal (refused while enforced) cannot slip in
      // between the check and the write.
      const [before] = await tx
        .select()
        .from(organizations)
        .where(eq(organizations.id, org.id))
        .for('update');
      // Enforcement without a SAML configuration would lock every member out.
      if (body.sso_enforced === true && !(await hasSamlConfiguration(tx, org.id))) {
        throw unprocessable(ssoEnforcementMessages.configurationRequired);
      }
      const [row] = await tx
        .update(organizations)
        .set({
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.address !== undefined ? { address: body.address } : {}),
          ...(body.city !== undefined ? { city: body.city } : {}),
          ...(body.state !== undefined ? { state: body.state } : {}),
          ...(body.zip !== undefined ? { zip: body.zip } : {}),
          ...(body.primary_phone !== undefined ? { primaryPhone: body.primary_phone } : {}),
          ...(body.emergency_phone !== undefined ? { emergencyPhone: body.emergency_phone } : {}),
          ...(body.security_alert_email !== undefined
            ? { securityAlertEmail: body.security_alert_email }
            : {}),
          ...(body.ops_alert_email !== undefined ? { opsAlertEmail: body.ops_alert_email } : {}),
          ...(body.sso_enforced !== undefined ? { ssoEnforced: body.sso_enforced } : {}),
          updatedAt: new Date(),
        })
        .where(eq(organizations.id, org.id))
        .returning();
      if (before && row) await recordOrganizationChanges(tx, caller.user, before, row);
      return row;
    });
    // The caller changes settings as an Account Owner, whom enforcement exempts: they keep using it.
    return toOrganizationHal(updated ?? org, urls, false);
  });

  // Organizations the current token may not use until the user signs in again (auth/sso/sso-access.ts):
  // those enforcing SSO, for members neither owners nor on the bypass list; with an SSO session, every
  // other organization.
  const reauthenticate = route(
    tags,
    'Organizations the current token may not use until the user signs in again',
    { 200: reauthenticateOrganizationCollection },
  );
  app.get('/reauthenticate_organizations', reauthenticate, async (request) => {
    const caller = await callers.require(request);
    const ids = [...caller.reauthentication.keys()];
    const rows = ids.length
      ? await db
          .select()
          .from(organizations)
          .where(inArray(organizations.id, ids))
          .orderBy(desc(organizations.updatedAt))
      : [];
    return collection(
      'organizations',
      `${urls.auth}/reauthenticate_organizations`,
      rows.map((org) => ({ ...toOrganizationHal(org, urls, true), reauth_required: true as const })),
    );
  });

  const organizationRoles = idRoute(tags, 'An organization’s roles', { 200: roleCollection });
  app.get('/organizations/:id/roles', organizationRoles, async (request) => {
    const caller = await callers.require(request);
    const { org, actor } = await memberOrganization(caller, request.params.id);
    const rows = await db
      .select()
      .from(roles)
      .where(eq(roles.organizationId, org.id))
      .orderBy(roles.createdAt);
    return collection(
      'roles',
      `${urls.auth}/organizations/${org.id}/roles`,
      rows.filter((role) => isRoleVisible(actor, role.type as RoleType)).map((role) => toRoleHal(role, urls)),
    );
  });

  // spec 1 §6: a Deploy Owner does not see who holds only roles hidden from them.
  const members = idRoute(tags, 'An organization’s members', { 200: userCollection });
  app.get('/organizations/:id/users', members, async (request) => {
    const caller = await callers.require(request);
    const { org, actor } = await memberOrganization(caller, request.params.id);
    const memberIds = db
      .select({ id: memberships.userId })
      .from(memberships)
      .innerJoin(roles, eq(memberships.roleId, roles.id))
      .where(and(eq(roles.organizationId, org.id), inArray(roles.type, visibleRoleTypes(actor))));
    const rows = await db.select().from(users).where(inArray(users.id, memberIds)).orderBy(users.name);
    const managed = await provisionedIn(
      db,
      org.id,
      rows.map((user) => user.id),
    );
    return collection(
      'users',
      `${urls.auth}/organizations/${org.id}/users`,
      rows.map((user) => toUserHal(user, urls, { managedHere: managed.has(user.id) })),
    );
  });

  // Contract §5.3: `_embedded` is a map of role id → { memberships: [...] }, never an array.
  const membershipsByRole = idRoute(tags, 'The memberships of each role of an organization', {
    200: roleMembershipsMap,
  });
  app.get('/organizations/:id/roles/memberships', membershipsByRole, async (request) => {
    const caller = await callers.require(request);
    const { org, actor } = await memberOrganization(caller, request.params.id);
    const rows = await db
      .select({ membership: memberships })
      .from(memberships)
      .innerJoin(roles, eq(memberships.roleId, roles.id))
      .where(and(eq(roles.organizationId, org.id), inArray(roles.type, visibleRoleTypes(actor))));
    const byRole: RoleMembershipsMap['_embedded'] = {};
    for (const { membership } of rows) {
      const entry = byRole[membership.roleId] ?? { memberships: [] };
      entry.memberships.push(toMembershipHal(membership, urls));
      byRole[membership.roleId] = entry;
    }
    return {
      _embedded: byRole,
      _links: { self: { href: `${urls.auth}/organizations/${org.id}/roles/memberships` } },
    };
  });
}

/** The settings an organization's change event names (the contacts by name only: their values are not kept). */
const SETTING_NAMES = {
  address: 'address',
  city: 'city',
  state: 'state',
  zip: 'zip',
  primaryPhone: 'primary phone',
  emergencyPhone: 'emergency phone',
  securityAlertEmail: 'security alert email',
  opsAlertEmail: 'ops alert email',
} as const;

/**
 * The audit events of an organization's settings change (issue 41), in its transaction: a rename or
 * contacts changed, and single sign-on enforcement turned on or off, each its own event. Nothing that
 * stayed the same is recorded.
 */
async function recordOrganizationChanges(
  tx: DbOrTx,
  actor: { id: string; email: string },
  before: typeof organizations.$inferSelect,
  after: typeof organizations.$inferSelect,
) {
  const target = { type: 'organization', id: after.id, name: after.name };
  const changed: string[] = [];
  if (before.name !== after.name) changed.push(`renamed from ${before.name}`);
  const contacts = (Object.keys(SETTING_NAMES) as (keyof typeof SETTING_NAMES)[]).filter(
    (key) => (before[key] ?? null) !== (after[key] ?? null),
  );
  if (contacts.length > 0) changed.push(contacts.map((key) => SETTING_NAMES[key]).join(', '));
  if (changed.length > 0) {
    await recordAuditEvent(tx, after.id, {
      action: 'organization.update',
      actor,
      target,
      detail: changed.join('; '),
    });
  }
  if (before.ssoEnforced !== after.ssoEnforced) {
    await recordAuditEvent(tx, after.id, {
      action: after.ssoEnforced ? 'sso_enforcement.enable' : 'sso_enforcement.disable',
      actor,
      target,
    });
  }
}
