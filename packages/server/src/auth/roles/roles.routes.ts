import {
  actionDenial,
  addMembershipSchema,
  createRoleSchema,
  lastUrlSegment,
  memberMessages,
  membershipCollection,
  membershipResource,
  noContent,
  permissionMessages,
  renameRoleSchema,
  roleResource,
  scimMessages,
  updateMembershipSchema,
  userCollection,
} from '@berth/core';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FamilyUrls } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { memberships, organizations, roles, users } from '../../db/schema.ts';
import { ApiError, forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { collection } from '../../http/hal.ts';
import { isUuid } from '../../http/ids.ts';
import { idRoute, pathParameter } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { membershipsOf } from '../access.ts';
import type { CallerAccess, Callers } from '../caller-access.ts';
import { toMembershipHal, toRoleHal } from '../organizations/organizations.hal.ts';
import { toUserHal } from '../users/users.hal.ts';
import type { RoleAccessService } from './role-access.ts';

const lastOwner = () => unprocessable('An organization needs at least one Account Owner');

/** The user id at the end of a user URL (contract §1.9: references are URLs). */
function userIdFromUrl(url: string): string | null {
  const id = url.includes('/users/') ? lastUrlSegment(url) : '';
  return isUuid(id) ? id : null;
}

/**
 * Roles and memberships (contract §5.3). Anyone in the organization reads them; changing who holds a
 * role needs an owner or that role's admin, and the owner and billing roles an Account Owner (core's
 * canManageRoleMembers); renaming and deleting never touch owner-type or provisioned roles.
 */
export async function rolesRoutes(
  fastify: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; callers: Callers; roleAccess: RoleAccessService },
) {
  const { db, urls, callers, roleAccess } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const roleTags = ['Roles'];
  const membershipTags = ['Memberships'];

  /** The caller's actor in an organization they belong to; any other is 404, never 403. */
  function organizationActor(caller: CallerAccess, organizationId: string) {
    const actor = caller.actors.get(organizationId);
    if (!actor) throw notFound('Organization');
    return actor;
  }

  /**
   * Runs a removal of memberships and refuses it when no Account Owner would be left. The organization
   * row is locked first, so two owners removing each other at the same moment are serialized and the
   * second removal sees the first.
   */
  async function removeKeepingAnOwner(organizationId: string, remove: (tx: Tx) => Promise<unknown>) {
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
    });
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
    const [role] = await db
      .insert(roles)
      .values({ organizationId: request.params.id, name, type: 'platform_user' })
      .returning();
    if (!role) throw new Error('Role insert returned nothing');
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
    const [updated] = await db
      .update(roles)
      .set({ name, updatedAt: new Date() })
      .where(eq(roles.id, role.id))
      .returning();
    return toRoleHal(updated ?? role, urls);
  });

  // Deleting a role removes its memberships and permissions (cascade); members left without a role
  // have left the organization, as with removing their last membership.
  const remove = idRoute(roleTags, 'Delete a role with its memberships and permissions (owners)', {
    204: noContent,
  });
  app.delete('/roles/:id', remove, async (request, reply) => {
    const caller = await callers.require(request);
    const { role } = await roleAccess.forEditing(caller, request.params.id, true);
    await db.delete(roles).where(eq(roles.id, role.id));
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
    return collection(
      'users',
      `${urls.auth}/roles/${role.id}/users`,
      rows.map((user) => toUserHal(user, urls)),
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
    const { role } = await roleAccess.forMemberManagement(caller, request.params.id);
    const { user_url: userUrl } = request.body;
    const userId = userIdFromUrl(userUrl);
    const inOrganization =
      userId && (await membershipsOf(db, userId)).some((m) => m.organizationId === role.organizationId);
    if (!userId || !inOrganization) {
      throw unprocessable('Only members of the organization can be added to a role; invite new people');
    }
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (role.scimCreated && user?.externalId) {
      throw unprocessable(scimMessages.cannotAdd);
    }
    try {
      const [membership] = await db.insert(memberships).values({ userId, roleId: role.id }).returning();
      if (!membership) throw new Error('Membership insert returned nothing');
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
    const { membership } = await membershipWithAccess(caller, request.params.id);
    const { privileged } = request.body;
    const [updated] = await db
      .update(memberships)
      .set({ privileged, updatedAt: new Date() })
      .where(eq(memberships.id, membership.id))
      .returning();
    return toMembershipHal(updated ?? membership, urls);
  });

  // Removing a user's last membership removes them from the organization (contract §5.3).
  const removeMembership = idRoute(
    membershipTags,
    'Remove a membership (the user leaves the organization with their last one)',
    { 204: noContent },
  );
  app.delete('/memberships/:id', removeMembership, async (request, reply) => {
    const caller = await callers.require(request);
    const { membership, access } = await membershipWithAccess(caller, request.params.id);
    if (access.role.scimCreated) {
      const [user] = await db.select().from(users).where(eq(users.id, membership.userId));
      if (user?.externalId) throw unprocessable(scimMessages.cannotRemove);
    }
    await removeKeepingAnOwner(access.role.organizationId, (tx) =>
      tx.delete(memberships).where(eq(memberships.id, membership.id)),
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
    if (theirs.length === 0) throw notFound('Member');
    if (target === caller.user.id) throw unprocessable(memberMessages.removeSelf);
    const [user] = await db.select().from(users).where(eq(users.id, target));
    if (user?.externalId) throw unprocessable(memberMessages.removeProvisioned);
    const holdsOwnerRoles = theirs.some((m) => m.roleType === 'owner' || m.roleType === 'billing_owner');
    const notRemovingOwner = holdsOwnerRoles ? actionDenial(actor, 'owner_member.remove') : null;
    if (notRemovingOwner !== null) throw forbidden(notRemovingOwner);
    await removeKeepingAnOwner(organizationId, (tx) =>
      tx.delete(memberships).where(
        and(
          eq(memberships.userId, target),
          inArray(
            memberships.roleId,
            theirs.map((m) => m.roleId),
          ),
        ),
      ),
    );
    return reply.code(204).send(null);
  });
}
