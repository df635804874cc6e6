import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm';
import { recordAuditEvent, scimTokenActor } from '../api/audit-events/audit-events.repo.ts';
import type { ScimConfigurationRow } from '../auth/scim-configurations/scim-configurations.service.ts';
import type { Db, Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { memberships, roles, scimUsers, users } from '../db/schema.ts';
import { isUuid } from '../http/ids.ts';
import { invalidValue, scimNotFound, uniqueness } from './scim-errors.ts';
import type { Filter } from './scim-filter.ts';
import { groupFilterCondition } from './scim-filter-sql.ts';
import type { GroupChanges, MemberChange } from './scim-input.ts';
import { keepSomeRole, lockOrganization, recordMembershipChanges } from './scim-memberships.ts';
import type { GroupMember, RoleRow } from './scim-resources.ts';

/** A group as its events name it. */
type GroupRef = Pick<RoleRow, 'id' | 'name'>;

export interface GroupPage {
  total: number;
  rows: { role: RoleRow; members: GroupMember[] | null }[];
}

const notProvisioned = () => scimNotFound('Group');
const nameTaken = () => uniqueness('A group with this displayName already exists');

/**
 * SCIM Groups (RFC 7644 §3): roles of the organization created by provisioning (`scim_created`, spec 1 §3),
 * of type platform_user: owners give them environment permissions in the console; their name and members
 * are the identity provider's (spec 1 §6 locks them in the console). A group's members are its holders
 * whom provisioning manages; people an owner added in the console stay, untouched by the IdP's changes.
 */
export function createScimGroupsService(deps: { db: Db }) {
  const { db } = deps;

  const tenant = (organizationId: string) =>
    and(eq(roles.organizationId, organizationId), eq(roles.scimCreated, true));

  /** The provisioned members of each group, in user id order. */
  async function membersOf(tx: Db | Tx, organizationId: string, roleIds: string[]) {
    const byRole = new Map<string, GroupMember[]>(roleIds.map((id) => [id, []]));
    if (roleIds.length === 0) return byRole;
    const rows = await tx
      .select({ roleId: memberships.roleId, id: users.id, name: users.name })
      .from(memberships)
      .innerJoin(scimUsers, eq(scimUsers.userId, memberships.userId))
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(inArray(memberships.roleId, roleIds), eq(scimUsers.organizationId, organizationId)))
      .orderBy(asc(users.id));
    for (const row of rows) byRole.get(row.roleId)?.push({ id: row.id, name: row.name });
    return byRole;
  }

  async function group(tx: Db | Tx, organizationId: string, roleId: string): Promise<RoleRow> {
    if (!isUuid(roleId)) throw notProvisioned();
    const [role] = await tx
      .select()
      .from(roles)
      .where(and(tenant(organizationId), eq(roles.id, roleId)));
    if (!role) throw notProvisioned();
    return role;
  }

  async function withMembers(organizationId: string, role: RoleRow, includeMembers: boolean) {
    const members = includeMembers
      ? ((await membersOf(db, organizationId, [role.id])).get(role.id) ?? [])
      : null;
    return { role, members };
  }

  /**
   * The user ids a request names, as provisioned users of the organization; an id provisioning does not
   * know is a bad value (a group holds only users the IdP provisioned here).
   */
  async function provisionedIds(tx: Tx, organizationId: string, ids: string[], adding: boolean) {
    const unique = [...new Set(ids)];
    const wellFormed = unique.filter(isUuid);
    const rows =
      wellFormed.length === 0
        ? []
        : await tx
            .select({ userId: scimUsers.userId, active: scimUsers.active })
            .from(scimUsers)
            .where(and(eq(scimUsers.organizationId, organizationId), inArray(scimUsers.userId, wellFormed)));
    if (adding && rows.length < unique.length) {
      const known = new Set(rows.map((row) => row.userId));
      const unknown = unique.find((id) => !known.has(id)) ?? '';
      throw invalidValue(`"${unknown.slice(0, 64)}" is not a user provisioned in this organization`);
    }
    return rows;
  }

  /** The group's provisioned members now. */
  async function currentMembers(tx: Tx, organizationId: string, roleId: string) {
    return ((await membersOf(tx, organizationId, [roleId])).get(roleId) ?? []).map((member) => member.id);
  }

  async function addMembers(tx: Tx, configuration: ScimConfigurationRow, role: GroupRef, ids: string[]) {
    const rows = await provisionedIds(tx, configuration.organizationId, ids, true);
    // A deactivated user holds no role here (deactivation ended them): adding one is a no-op.
    const active = rows.filter((row) => row.active).map((row) => row.userId);
    if (active.length === 0) return;
    // Only the memberships this request made are events (one already held changes nothing).
    const added = await tx
      .insert(memberships)
      .values(active.map((userId) => ({ userId, roleId: role.id })))
      .onConflictDoNothing()
      .returning({ userId: memberships.userId });
    await recordMembershipChanges(tx, configuration, 'membership.create', role, added);
  }

  async function removeMembers(tx: Tx, configuration: ScimConfigurationRow, role: GroupRef, ids: string[]) {
    const rows = await provisionedIds(tx, configuration.organizationId, ids, false);
    const userIds = rows.map((row) => row.userId);
    if (userIds.length === 0) return;
    const removed = await tx
      .delete(memberships)
      .where(and(eq(memberships.roleId, role.id), inArray(memberships.userId, userIds)))
      .returning({ userId: memberships.userId });
    await recordMembershipChanges(tx, configuration, 'membership.delete', role, removed);
    await keepSomeRole(tx, configuration, userIds);
  }

  async function changeMembers(
    tx: Tx,
    configuration: ScimConfigurationRow,
    role: GroupRef,
    change: MemberChange,
  ) {
    switch (change.kind) {
      case 'add':
        return addMembers(tx, configuration, role, change.userIds);
      case 'remove':
        return removeMembers(tx, configuration, role, change.userIds);
      case 'removeAll':
        return removeMembers(
          tx,
          configuration,
          role,
          await currentMembers(tx, configuration.organizationId, role.id),
        );
      case 'set': {
        const wanted = new Set(change.userIds);
        const now = await currentMembers(tx, configuration.organizationId, role.id);
        await removeMembers(
          tx,
          configuration,
          role,
          now.filter((id) => !wanted.has(id)),
        );
        return addMembers(tx, configuration, role, [...wanted]);
      }
    }
  }

  async function write<T>(configuration: ScimConfigurationRow, work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await db.transaction(async (tx) => {
        await lockOrganization(tx, configuration.organizationId);
        return work(tx);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
  }

  /** Renames the group; a new name is an event (the same name sent again is not). */
  async function rename(tx: Tx, configuration: ScimConfigurationRow, role: GroupRef, displayName: string) {
    await tx.update(roles).set({ name: displayName, updatedAt: new Date() }).where(eq(roles.id, role.id));
    if (displayName === role.name) return role;
    await recordAuditEvent(tx, configuration.organizationId, {
      action: 'scim_group.update',
      actor: scimTokenActor(configuration),
      target: { type: 'role', id: role.id, name: displayName },
      detail: `renamed from ${role.name}`,
    });
    return { id: role.id, name: displayName };
  }

  const touch = (tx: Tx, roleId: string) =>
    tx.update(roles).set({ updatedAt: new Date() }).where(eq(roles.id, roleId));

  return {
    async list(
      organizationId: string,
      filter: Filter | null,
      startIndex: number,
      limit: number,
      includeMembers: boolean,
    ): Promise<GroupPage> {
      const where: SQL | undefined = filter
        ? and(tenant(organizationId), groupFilterCondition(filter))
        : tenant(organizationId);
      const [totalRow] = await db.select({ n: count() }).from(roles).where(where);
      const rows =
        limit === 0
          ? []
          : await db
              .select()
              .from(roles)
              .where(where)
              .orderBy(asc(roles.id))
              .limit(limit)
              .offset(startIndex - 1);
      const members = includeMembers
        ? await membersOf(
            db,
            organizationId,
            rows.map((role) => role.id),
          )
        : null;
      return {
        total: totalRow?.n ?? 0,
        rows: rows.map((role) => ({ role, members: members ? (members.get(role.id) ?? []) : null })),
      };
    },

    async get(organizationId: string, roleId: string, includeMembers: boolean) {
      return withMembers(organizationId, await group(db, organizationId, roleId), includeMembers);
    },

    async create(configuration: ScimConfigurationRow, input: { displayName: string; memberIds: string[] }) {
      const roleId = await write(configuration, async (tx) => {
        const [role] = await tx
          .insert(roles)
          .values({
            organizationId: configuration.organizationId,
            name: input.displayName,
            type: 'platform_user',
            scimCreated: true,
          })
          .returning();
        if (!role) throw new Error('Role insert returned nothing');
        await recordAuditEvent(tx, configuration.organizationId, {
          action: 'scim_group.create',
          actor: scimTokenActor(configuration),
          target: { type: 'role', id: role.id, name: role.name },
        });
        await addMembers(tx, configuration, role, input.memberIds);
        return role.id;
      });
      return withMembers(
        configuration.organizationId,
        await group(db, configuration.organizationId, roleId),
        true,
      );
    },

    /** PUT: the name and the whole set of provisioned members. */
    async replace(
      configuration: ScimConfigurationRow,
      roleId: string,
      input: { displayName: string; memberIds: string[] },
    ) {
      await write(configuration, async (tx) => {
        const role = await group(tx, configuration.organizationId, roleId);
        const named = await rename(tx, configuration, role, input.displayName);
        await changeMembers(tx, configuration, named, { kind: 'set', userIds: input.memberIds });
      });
      return withMembers(
        configuration.organizationId,
        await group(db, configuration.organizationId, roleId),
        true,
      );
    },

    async patch(configuration: ScimConfigurationRow, roleId: string, changes: GroupChanges) {
      await write(configuration, async (tx) => {
        const role = await group(tx, configuration.organizationId, roleId);
        const named =
          changes.displayName !== undefined
            ? await rename(tx, configuration, role, changes.displayName)
            : role;
        for (const change of changes.members) await changeMembers(tx, configuration, named, change);
        await touch(tx, role.id);
      });
    },

    /** The role goes with its memberships and permissions; its members keep (or get back) a role. */
    async remove(configuration: ScimConfigurationRow, roleId: string) {
      await write(configuration, async (tx) => {
        const role = await group(tx, configuration.organizationId, roleId);
        const members = await currentMembers(tx, configuration.organizationId, role.id);
        await tx.delete(roles).where(eq(roles.id, role.id));
        // The memberships go with the role: the event says how many (each member's own row is not kept).
        await recordAuditEvent(tx, configuration.organizationId, {
          action: 'scim_group.delete',
          actor: scimTokenActor(configuration),
          target: { type: 'role', id: role.id, name: role.name },
          detail:
            members.length > 0
              ? `${members.length} provisioned ${members.length === 1 ? 'member' : 'members'}`
              : '',
        });
        await keepSomeRole(tx, configuration, members);
      });
    },
  };
}
export type ScimGroupsService = ReturnType<typeof createScimGroupsService>;
