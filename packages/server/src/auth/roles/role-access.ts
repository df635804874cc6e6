import {
  type Actor,
  actionDenial,
  canManageRoleMembers,
  isRoleEditable,
  isRoleVisible,
  permissionMessages,
  type RoleType,
  scimMessages,
} from '@berth/core';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles } from '../../db/schema.ts';
import { forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { isUuid } from '../../http/ids.ts';
import { accessOf, assertUsable, type CallerRef } from '../caller-access.ts';
import type { RoleRow } from '../organizations/organizations.hal.ts';

export interface RoleAccess {
  role: RoleRow;
  roleType: RoleType;
  actor: Actor;
  isRoleAdmin: boolean;
  /** May change who holds the role (members, role admins, invitations). */
  canManageMembers: boolean;
}

/**
 * A role as the caller sees it: a role of an organization the caller does not belong to, or one spec 1 §6
 * hides from them (a Deploy Owner and the owner and billing roles), is 404 (never 403); what they may do
 * with it comes from core's rules (spec 1 §6).
 */
export function createRoleAccess(db: Db) {
  async function load(ref: CallerRef, roleId: string): Promise<RoleAccess> {
    if (!isUuid(roleId)) throw notFound('Role');
    const [role] = await db.select().from(roles).where(eq(roles.id, roleId));
    if (!role) throw notFound('Role');
    const caller = await accessOf(db, ref);
    assertUsable(caller, role.organizationId);
    const actor = caller.actors.get(role.organizationId);
    const roleType = role.type as RoleType;
    if (!actor || !isRoleVisible(actor, roleType)) throw notFound('Role');
    const inOrganization = caller.memberships.filter((m) => m.organizationId === role.organizationId);
    const isRoleAdmin = inOrganization.some((m) => m.roleId === role.id && m.privileged);
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
    async forMemberManagement(ref: CallerRef, roleId: string): Promise<RoleAccess> {
      const access = await load(ref, roleId);
      if (!access.canManageMembers) throw forbidden(permissionMessages.roleManagement);
      return access;
    },
    /**
     * The role, when the caller may rename it (owners and its admins) or, with `deleting`, delete it:
     * deleting also drops the permissions owners set up, so it is left to owners.
     */
    async forEditing(ref: CallerRef, roleId: string, deleting = false): Promise<RoleAccess> {
      const access = await load(ref, roleId);
      const context = { isRoleAdmin: access.isRoleAdmin };
      const notDeleting = deleting ? actionDenial(access.actor, 'role.delete', context) : null;
      if (notDeleting !== null) throw forbidden(notDeleting);
      // Owner and billing roles are an Account Owner's to manage (canManageRoleMembers), renaming included.
      const notRenaming = actionDenial(access.actor, 'role.rename', context);
      if (notRenaming !== null || !access.canManageMembers) {
        throw forbidden(notRenaming ?? permissionMessages.roleManagement);
      }
      if (!isRoleEditable({ type: access.roleType, scimCreated: access.role.scimCreated })) {
        // A rule of the role, not a lack of the caller's rights: 422, in one wording with the console's
        // notice (the texts live in core).
        throw unprocessable(
          access.role.scimCreated ? scimMessages.roleLocked : permissionMessages.ownerRoleLocked,
        );
      }
      return access;
    },
  };
}
export type RoleAccessService = ReturnType<typeof createRoleAccess>;
