import {
  type Actor,
  actionDenial,
  addMembershipSchema,
  can,
  createRoleSchema,
  isRoleVisible,
  isScope,
  lastUrlSegment,
  memberMessages,
  membershipCollection,
  membershipResource,
  noContent,
  permissionMessages,
  renameRoleSchema,
  roleEnvironmentAccessResource,
  roleResource,
  scimConfigurationMessages,
  scimMessages,
  updateMembershipSchema,
  userCollection,
  visibleRoleTypes,
} from '@berth/core';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { memberTarget, recordAuditEvent } from '../../api/audit-events/audit-events.repo.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  environments,
  memberships,
  organizations,
  permissions,
  roles,
  scimConfigurations,
  users,
} from '../../db/schema.ts';
import { ApiError, forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { collection } from '../../http/hal.ts';
import { isUuid } from '../../http/ids.ts';
import { idRoute, pathParameter } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { membershipsOf } from '../access.ts';
import { assertUsable, type CallerAccess, type Callers } from '../caller-access.ts';
import {
  type RoleReachRow,
  toMembershipHal,
  toRoleEnvironmentAccessHal,
  toRoleHal,
} from '../organizations/organizations.hal.ts';
import { recordPrivilegedChange } from '../privileged-activity.ts';
import { isProvisionedIn, provisionedIn } from '../provisioned-users.ts';
import { toUserHal } from '../users/users.hal.ts';
import type { RoleAccessService } from './role-access.ts';

const lastOwner = () => unprocessable('An organization needs at least one Account Owner');

/** The user id at the end of a user URL (contract §1.9: references are URLs). */
function userIdFromUrl(url: string): string | null {
  const id = url.includes('/users/') ? lastUrlSegment(url) : '';
  return isUuid(id) ? id : null;
}

/**
 * Roles and memberships (contract §5.3). Anyone in the organization reads them, except the owner and
 * billing roles a Deploy Owner cannot see (core's isRoleVisible: 404, and their holders left out); changing
 * who holds a role needs an owner or that role's admin, and the owner and billing roles an Account Owner
 * (core's canManageRoleMembers); renaming and deleting never touch owner-type or provisioned roles; a
 * member keeps at least one role (spec 1 §4).
 */
export async function rolesRoutes(
  fastify: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; callers: Callers; roleAccess: RoleAccessService },
) {
  const { db, urls, callers, roleAccess } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const roleTags = ['Roles'];
  const membershipTags = ['Memberships'];

  /** The caller's actor in an organization they belong to; any other is 404 (403 only when SSO stops it). */
  function organizationActor(caller: CallerAccess, organizationId: string) {
    if (isUuid(organizationId)) assertUsable(caller, organizationId);
    const actor = caller.actors.get(organizationId);
    if (!actor) throw notFound('Organization');
    return actor;
  }

  /**
   * Runs a removal of memberships and refuses it when no Account Owner would be left (or `alsoCheck`
   * fails). The organization row is locked first, so two removals in it at the same moment are
   * serialized and the second sees the first.
   */
  async function removeKeepingAnOwner(
    organizationId: string,
    remove: (tx: Tx) => Promise<unknown>,
    alsoCheck?: (tx: Tx) => Promise<void>,
  ) {
    await db.transaction(async (tx) => {
      await tx
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.id, organizationId))
        .for('update');
      await remove(tx);
      const [owners] = await tx
        .select({ n: count() })
        .from(memberships)
        .innerJoin(roles, eq(memberships.roleId, roles.id))
        .where(and(eq(roles.organizationId, organizationId), eq(roles.type, 'owner')));
      if ((owners?.n ?? 0) === 0) throw lastOwner(); // rolls the removal back
      await alsoCheck?.(tx);
    });
  }

  /**
   * spec 1 §4: the user still holds a role in the organization, among those the caller sees (a Deploy
   * Owner may not leave someone with only a role hidden from them: that would take them out of sight, as
   * Remove member would). Run after the removal, in its transaction.
   */
  async function assertKeepsARole(tx: Tx, userId: string, organizationId: string, actor: Actor) {
    const [left] = await tx
      .select({ n: count() })
      .from(memberships)
      .innerJoin(roles, eq(memberships.roleId, roles.id))
      .where(
        and(
          eq(memberships.userId, userId),
          eq(roles.organizationId, organizationId),
          inArray(roles.type, visibleRoleTypes(actor)),
        ),
      );
    if ((left?.n ?? 0) === 0) throw unprocessable(memberMessages.lastRole); // rolls the removal back
  }

  async function membershipWithAccess(caller: CallerAccess, membershipId: string) {
    if (!isUuid(membershipId)) throw notFound('Membership');
    const [membership] = await db.select().from(memberships).where(eq(memberships.id, membershipId));
    if (!membership) throw notFound('Membership');
    const access = await roleAccess.load(caller, membership.roleId).catch((error: unknown) => {
      throw error instanceof ApiError && error.status === 404 ? notFound('Membership') : error;
    });
    if (!access.canManageMembers) throw forbidden(permissionMessages.roleManagement);
    return { membership, access };
  }

  const create = idRoute(
    roleTags,
    'Create a platform user role in an organization',
    { 201: roleResource },
    { body: createRoleSchema },
  );
  app.post('/organizations/:id/roles', create, async (request, reply) => {
    const caller = await callers.require(request);
    const denied = actionDenial(organizationActor(caller, request.params.id), 'role.create');
    if (denied !== null) throw forbidden(denied);
    const { name } = request.body;
    // The role and its record in the privileged activity go together, or neither.
    const role = await db.transaction(async (tx) => {
      const [made] = await tx
        .insert(roles)
        .values({ organizationId: request.params.id, name, type: 'platform_user' })
        .returning();
      if (!made) throw new Error('Role insert returned nothing');
      await recordPrivilegedChange(tx, made.organizationId, {
        kind: 'role_created',
        actor: caller.user,
        detail: made.name,
        roleType: made.type,
      });
      await recordAuditEvent(tx, made.organizationId, {
        action: 'role.create',
        actor: caller.user,
        target: { type: 'role', id: made.id, name: made.name },
      });
      return made;
    });
    return reply.code(201).send(toRoleHal(role, urls));
  });

  app.get(
    '/roles/:id',
    idRoute(roleTags, 'A role of one of the caller’s organizations', { 200: roleResource }),
    async (request) => {
      const caller = await callers.require(request);
      const { role } = await roleAccess.load(caller, request.params.id);
      return toRoleHal(role, urls);
    },
  );

  // Issue 41: the invite form's summary of a role, correct for every inviter. The console's own list of
  // environments holds only those the inviter sees, so a role admin was told a role reaches none; the
  // server reads the role's permissions and names the environments the caller sees, counting the rest.
  const environmentAccess = idRoute(
    roleTags,
    'Where a role reaches: the environments the caller sees, with its scopes there, and how many others (those who may invite into it)',
    { 200: roleEnvironmentAccessResource },
  );
  app.get('/roles/:id/environment_access', environmentAccess, async (request) => {
    const caller = await callers.require(request);
    const { role, actor } = await roleAccess.forMemberManagement(caller, request.params.id);
    // Bounded by the organization's environments times the eight scopes (permissions_role_idx).
    const rows = await db
      .select({
        environmentId: permissions.environmentId,
        handle: environments.handle,
        scope: permissions.scope,
      })
      .from(permissions)
      .innerJoin(environments, eq(permissions.environmentId, environments.id))
      .where(and(eq(permissions.roleId, role.id), eq(environments.organizationId, role.organizationId)))
      .orderBy(environments.handle, permissions.environmentId);
    const reached = new Map<string, RoleReachRow>();
    for (const row of rows) {
      const id = String(row.environmentId);
      const entry = reached.get(id) ?? { id, handle: row.handle, scopes: [] };
      if (isScope(row.scope) && !entry.scopes.includes(row.scope)) entry.scopes.push(row.scope);
      reached.set(id, entry);
    }
    const all = [...reached.values()];
    const seen = all.filter((environment) => can(actor, 'basic_read', environment.id));
    return toRoleEnvironmentAccessHal(role, seen, all.length - seen.length, urls);
  });

  const rename = idRoute(
    roleTags,
    'Rename a role (owners and the role’s admins)',
    { 200: roleResource },
    { body: renameRoleSchema },
  );
  app.put('/roles/:id', rename, async (request) => {
    const caller = await callers.require(request);
    const { role } = await roleAccess.forEditing(caller, request.params.id);
    const { name } = request.body;
    const updated = await db.transaction(async (tx) => {
      const [renamed] = await tx
        .update(roles)
        .set({ name, updatedAt: new Date() })
        .where(eq(roles.id, role.id))
        .returning();
      if (renamed && renamed.name !== role.name) {
        await recordAuditEvent(tx, role.organizationId, {
          action: 'role.update',
          actor: caller.user,
          target: { type: 'role', id: role.id, name: renamed.name },
          detail: `renamed from ${role.name}`,
        });
      }
      return renamed;
    });
    return toRoleHal(updated ?? role, urls);
  });

  // Deleting a role removes its memberships and permissions (cascade); members left without a role
  // have left the organization. (An owner's deliberate act, confirmed by the role's name; spec 1 §4's
  // last-role rule is about editing one member's roles.)
  const remove = idRoute(roleTags, 'Delete a role with its memberships and permissions (owners)', {
    204: noContent,
  });
  app.delete('/roles/:id', remove, async (request, reply) => {
    const caller = await callers.require(request);
    const { role } = await roleAccess.forEditing(caller, request.params.id, true);
    const [provisioning] = await db
      .select({ id: scimConfigurations.id })
      .from(scimConfigurations)
      .where(eq(scimConfigurations.defaultRoleId, role.id));
    if (provisioning) throw unprocessable(scimConfigurationMessages.defaultRoleInUse);
    await db.transaction(async (tx) => {
      await tx.delete(roles).where(eq(roles.id, role.id));
      await recordPrivilegedChange(tx, role.organizationId, {
        kind: 'role_deleted',
        actor: caller.user,
        detail: role.name,
        roleType: role.type,
      });
      await recordAuditEvent(tx, role.organizationId, {
        action: 'role.delete',
        actor: caller.user,
        target: { type: 'role', id: role.id, name: role.name },
      });
    });
    return reply.code(204).send(null);
  });

  const roleMemberships = idRoute(membershipTags, 'A role’s memberships', { 200: membershipCollection });
  app.get('/roles/:id/memberships', roleMemberships, async (request) => {
    const caller = await callers.require(request);
    const { role } = await roleAccess.load(caller, request.params.id);
    const rows = await db
      .select()
      .from(memberships)
      .where(eq(memberships.roleId, role.id))
      .orderBy(memberships.createdAt);
    return collection(
      'memberships',
      `${urls.auth}/roles/${role.id}/memberships`,
      rows.map((membership) => toMembershipHal(membership, urls)),
    );
  });

  const roleUsers = idRoute(roleTags, 'The users who hold a role', { 200: userCollection });
  app.get('/roles/:id/users', roleUsers, async (request) => {
    const caller = await callers.require(request);
    const { role } = await roleAccess.load(caller, request.params.id);
    const memberIds = db
      .select({ id: memberships.userId })
      .from(memberships)
      .where(eq(memberships.roleId, role.id));
    const rows = await db.select().from(users).where(inArray(users.id, memberIds)).orderBy(users.name);
    const managed = await provisionedIn(
      db,
      role.organizationId,
      rows.map((user) => user.id),
    );
    return collection(
      'users',
      `${urls.auth}/roles/${role.id}/users`,
      rows.map((user) => toUserHal(user, urls, { managedHere: managed.has(user.id) })),
    );
  });

  // Adds someone already in the organization to another role; new people come in by invitation.
  const addMembership = idRoute(
    membershipTags,
    'Add a member of the organization to a role',
    { 201: membershipResource },
    { body: addMembershipSchema },
  );
  app.post('/roles/:id/memberships', addMembership, async (request, reply) => {
    const caller = await callers.require(request);
    const { role, actor } = await roleAccess.forMemberManagement(caller, request.params.id);
    const { user_url: userUrl } = request.body;
    const userId = userIdFromUrl(userUrl);
    // A member only by roles the caller cannot see is no member to them (spec 1 §6).
    const inOrganization =
      userId &&
      (await membershipsOf(db, userId)).some(
        (m) => m.organizationId === role.organizationId && isRoleVisible(actor, m.roleType),
      );
    if (!userId || !inOrganization) {
      throw unprocessable('Only members of the organization can be added to a role; invite new people');
    }
    // spec 1 §6: a managed role's provisioned holders are the identity provider's to change.
    if (role.scimCreated && (await isProvisionedIn(db, role.organizationId, userId))) {
      throw unprocessable(scimMessages.cannotAdd);
    }
    try {
      const membership = await db.transaction(async (tx) => {
        const [made] = await tx.insert(memberships).values({ userId, roleId: role.id }).returning();
        if (!made) throw new Error('Membership insert returned nothing');
        await recordPrivilegedChange(tx, role.organizationId, {
          kind: 'role_member_added',
          actor: caller.user,
          subjectId: userId,
          detail: role.name,
          roleType: role.type,
        });
        await recordAuditEvent(tx, role.organizationId, {
          action: 'membership.create',
          actor: caller.user,
          target: await memberTarget(tx, userId),
          parent: { type: 'role', id: role.id, name: role.name },
        });
        return made;
      });
      return reply.code(201).send(toMembershipHal(membership, urls));
    } catch (error) {
      if (isUniqueViolation(error)) throw unprocessable('This user already holds this role');
      throw error;
    }
  });

  const updateMembership = idRoute(
    membershipTags,
    'Make a member the role’s admin, or not',
    { 200: membershipResource },
    { body: updateMembershipSchema },
  );
  app.patch('/memberships/:id', updateMembership, async (request) => {
    const caller = await callers.require(request);
    const { membership, access } = await membershipWithAccess(caller, request.params.id);
    const { privileged } = request.body;
    const updated = await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(memberships)
        .set({ privileged, updatedAt: new Date() })
        .where(eq(memberships.id, membership.id))
        .returning();
      if (changed && privileged !== membership.privileged) {
        await recordPrivilegedChange(tx, access.role.organizationId, {
          kind: privileged ? 'role_admin_granted' : 'role_admin_revoked',
          actor: caller.user,
          subjectId: membership.userId,
          detail: access.role.name,
          roleType: access.role.type,
        });
        await recordAuditEvent(tx, access.role.organizationId, {
          action: 'membership.update',
          actor: caller.user,
          target: await memberTarget(tx, membership.userId),
          parent: { type: 'role', id: access.role.id, name: access.role.name },
          detail: privileged ? 'made role admin' : 'no longer role admin',
        });
      }
      return changed;
    });
    return toMembershipHal(updated ?? membership, urls);
  });

  // spec 1 §4: a member's last role stays (422); they leave the organization by Remove member. (Contract
  // §5.3 let the last membership take them out; the spec's rule wins.)
  const removeMembership = idRoute(
    membershipTags,
    'Remove a membership (never a member’s last role: remove the member instead)',
    { 204: noContent },
  );
  app.delete('/memberships/:id', removeMembership, async (request, reply) => {
    const caller = await callers.require(request);
    const { membership, access } = await membershipWithAccess(caller, request.params.id);
    if (
      access.role.scimCreated &&
      (await isProvisionedIn(db, access.role.organizationId, membership.userId))
    ) {
      throw unprocessable(scimMessages.cannotRemove);
    }
    const { organizationId } = access.role;
    await removeKeepingAnOwner(
      organizationId,
      async (tx) => {
        await tx.delete(memberships).where(eq(memberships.id, membership.id));
        await recordPrivilegedChange(tx, organizationId, {
          kind: 'role_member_removed',
          actor: caller.user,
          subjectId: membership.userId,
          detail: access.role.name,
          roleType: access.role.type,
        });
        await recordAuditEvent(tx, organizationId, {
          action: 'membership.delete',
          actor: caller.user,
          target: await memberTarget(tx, membership.userId),
          parent: { type: 'role', id: access.role.id, name: access.role.name },
        });
      },
      (tx) => assertKeepsARole(tx, membership.userId, organizationId, access.actor),
    );
    return reply.code(204).send(null);
  });

  // spec 1 §6: owners remove members, but not themselves nor provisioned users; only an Account Owner
  // removes someone who holds the owner or billing role.
  const removeMember = {
    schema: {
      tags: ['Organizations'],
      summary: 'Remove a member from an organization (all their roles in it)',
      params: z.strictObject({ id: pathParameter, userId: pathParameter }),
      response: responses({ 204: noContent }),
    },
  };
  app.delete('/organizations/:id/users/:userId', removeMember, async (request, reply) => {
    const caller = await callers.require(request);
    const organizationId = request.params.id;
    const actor = organizationActor(caller, organizationId);
    const notRemoving = actionDenial(actor, 'member.remove');
    if (notRemoving !== null) throw forbidden(notRemoving);
    const target = request.params.userId;
    const theirs = isUuid(target)
      ? (await membershipsOf(db, target)).filter((m) => m.organizationId === organizationId)
      : [];
    // Someone the caller sees no role of is no member to them (spec 1 §6): 404, as for a stranger.
    if (!theirs.some((m) => isRoleVisible(actor, m.roleType))) throw notFound('Member');
    if (target === caller.user.id) throw unprocessable(memberMessages.removeSelf);
    // Provisioned here: the identity provider deactivates them (a member elsewhere is no one's to lock here).
    if (await isProvisionedIn(db, organizationId, target))
      throw unprocessable(memberMessages.removeProvisioned);
    // Only the roles the caller sees go: a Deploy Owner removing someone who also holds a role hidden
    // from them (the owner or billing role) gets the same answer as for anyone else, and that role
    // stays, so the removal tells them nothing of who holds it.
    const removable = theirs.filter((m) => isRoleVisible(actor, m.roleType));
    const holdsOwnerRoles = removable.some((m) => m.roleType === 'owner' || m.roleType === 'billing_owner');
    const notRemovingOwner = holdsOwnerRoles ? actionDenial(actor, 'owner_member.remove') : null;
    if (notRemovingOwner !== null) throw forbidden(notRemovingOwner);
    await removeKeepingAnOwner(organizationId, async (tx) => {
      await tx.delete(memberships).where(
        and(
          eq(memberships.userId, target),
          inArray(
            memberships.roleId,
            removable.map((m) => m.roleId),
          ),
        ),
      );
      await recordPrivilegedChange(tx, organizationId, {
        kind: 'member_removed',
        actor: caller.user,
        subjectId: target,
      });
      await recordAuditEvent(tx, organizationId, {
        action: 'member.remove',
        actor: caller.user,
        target: await memberTarget(tx, target),
      });
    });
    return reply.code(204).send(null);
  });
}
