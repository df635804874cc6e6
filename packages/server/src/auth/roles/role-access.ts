import {
  type Actor,
  canDeleteRole,
  canManageRoleMembers,
  isRoleEditable,
  permissionMessages,
  type RoleType,
  scimMessages,
} from '@berth/core';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles } from '../../db/schema.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { isUuid } from '../../http/ids.ts';
import { membershipsInOrganization } from '../access.ts';
import type { RoleRow } from '../organizations/organizations.hal.ts';

export interface RoleAccess {
  role: RoleRow;
  roleType: RoleType;
  actor: Pick<Actor, 'roleTypes'>;
  isRoleAdmin: boolean;
  /** May change who holds the role (members, role admins, invitations). */
  canManageMembers: boolean;
}

/**
 * A role as the caller sees it: a role of an organization the caller does not belong to is 404 (never
 * 403), and what they may do with it comes from core's rules (spec 1 §6).
 */
export function createRoleAccess(db: Db) {
  async function load(userId: string, roleId: string): Promise<RoleAccess> {
    if (!isUuid(roleId)) throw notFound('Role');
    const [role] = await db.select().from(roles).where(eq(roles.id, roleId));
    if (!role) throw notFound('Role');
    const inOrganization = await membershipsInOrganization(db, userId, role.organizationId, 'Role');
    const actor = { roleTypes: inOrganization.map((m) => m.roleType) };
    const isRoleAdmin = inOrganization.some((m) => m.roleId === role.id && m.privileged);
    const roleType = role.type as RoleType;
    return {
      role,
      roleType,
      actor,
      isRoleAdmin,
      canManageMembers: canManageRoleMembers(actor, roleType, isRoleAdmin),
    };
  }

  return {
    load,
    /** The role, when the caller may manage its members; else 403 with the spec's text. */
    async forMemberManagement(userId: string, roleId: string): Promise<RoleAccess> {
      const access = await load(userId, roleId);
      if (!access.canManageMembers) throw forbidden(permissionMessages.roleManagement);
      return access;
    },
    /**
     * The role, when the caller may rename it (owners and its admins) or, with `deleting`, delete it:
     * deleting also drops the permissions owners set up, so it is left to owners.
     */
    async forEditing(userId: string, roleId: string, deleting = false): Promise<RoleAccess> {
      const access = await load(userId, roleId);
      if (deleting && !canDeleteRole(access.actor)) throw forbidden(permissionMessages.ownerOnly);
      if (!access.canManageMembers) throw forbidden(permissionMessages.roleManagement);
      if (!isRoleEditable({ type: access.roleType, scimCreated: access.role.scimCreated })) {
        // One wording with the console's notice: the texts live in core.
        throw forbidden(
          access.role.scimCreated ? scimMessages.roleLocked : permissionMessages.ownerRoleLocked,
        );
      }
      return access;
    },
  };
}
export type RoleAccessService = ReturnType<typeof createRoleAccess>;
