import {
  actionDenial,
  type CreatePermissionInput,
  isRoleVisible,
  isScope,
  permissionSchemaMessages,
  type RoleType,
  roleTakesEnvironmentPermissions,
  SCOPE_LABELS,
  scopeDenial,
} from '@berth/core';
import { and, eq } from 'drizzle-orm';
import type { CallerAccess, CallerRef } from '../../auth/caller-access.ts';
import { recordPrivilegedChange } from '../../auth/privileged-activity.ts';
import type { Db } from '../../db/client.ts';
import { environments, permissions, roles } from '../../db/schema.ts';
import { forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { isUuid } from '../../http/ids.ts';
import { createAccess } from '../access/access.ts';
import { recordAuditEvent } from '../audit-events/audit-events.repo.ts';
import type { EnvironmentRow, PermissionRow } from '../environments/environments.hal.ts';

type RoleRow = typeof roles.$inferSelect;

/**
 * Per-environment permissions of a role (contract §5.6). The environment must be visible to the caller
 * (else 404, like every api-family resource); changing a role's permissions is role management, which
 * spec 1 §6 gives to owners and to the role's admins (privileged members), else 403.
 */
export function createPermissionsService(deps: { db: Db }) {
  const { db } = deps;
  const access = createAccess(db);

  /** 403 unless the caller may take the action on this role: an owner, or an admin of the role. */
  function assertCanManage(
    caller: CallerAccess,
    role: RoleRow,
    action: 'permission.grant' | 'permission.revoke',
  ): void {
    const actor = caller.actors.get(role.organizationId) ?? { roleTypes: [], permissions: [] };
    const isRoleAdmin = caller.memberships.some((m) => m.roleId === role.id && m.privileged);
    const reason = actionDenial(actor, action, { isRoleAdmin });
    if (reason !== null) throw forbidden(reason);
  }

  return {
    async create(
      ref: CallerRef,
      environmentId: number | null,
      input: CreatePermissionInput,
    ): Promise<PermissionRow> {
      const caller = await access.caller(ref);
      const environment: EnvironmentRow = await access.environment(caller, environmentId, 'environment.read');
      const [role] = isUuid(input.role)
        ? await db
            .select()
            .from(roles)
            .where(and(eq(roles.id, input.role), eq(roles.organizationId, environment.organizationId)))
        : [];
      const actor = caller.actors.get(environment.organizationId) ?? { roleTypes: [], permissions: [] };
      // A role hidden from the caller (spec 1 §6) is as unknown as another organization's.
      if (!role || !isRoleVisible(actor, role.type as RoleType)) {
        throw unprocessable(permissionSchemaMessages.roleNotFound, { role: ['not found'] });
      }
      assertCanManage(caller, role, 'permission.grant');
      // A role admin who is not an owner may grant only what they hold themselves on this environment,
      // so managing a role never raises anyone's access above the admin's own.
      const beyondOwn = scopeDenial(actor, input.scope, String(environment.id));
      if (beyondOwn !== null) throw forbidden(beyondOwn);
      if (!roleTakesEnvironmentPermissions(role.type as RoleType)) {
        throw unprocessable(permissionSchemaMessages.ownerTypeRole(role.type as RoleType), {
          role: ['owner type'],
        });
      }
      const created = await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(permissions)
          .values({ environmentId: environment.id, roleId: role.id, scope: input.scope })
          .onConflictDoNothing()
          .returning();
        if (made) {
          await recordPrivilegedChange(tx, environment.organizationId, {
            kind: 'permission_granted',
            actor: caller.user,
            environmentId: environment.id,
            detail: `${SCOPE_LABELS[input.scope]} to the role ${role.name}`,
            roleType: role.type,
          });
          // The role's change, read by those who manage roles (an organization-level event).
          await recordAuditEvent(tx, environment.organizationId, {
            action: 'permission.create',
            actor: caller.user,
            target: { type: 'permission', id: made.id, name: input.scope },
            parent: { type: 'role', id: role.id, name: role.name },
            detail: `${SCOPE_LABELS[input.scope]} on ${environment.handle}`,
          });
        }
        return made;
      });
      if (!created)
        throw unprocessable(permissionSchemaMessages.duplicate(input.scope), { scope: ['taken'] });
      return created;
    },

    async remove(ref: CallerRef, permissionId: number | null): Promise<void> {
      const caller = await access.caller(ref);
      const [found] =
        permissionId === null
          ? []
          : await db.select().from(permissions).where(eq(permissions.id, permissionId));
      // Seen through its environment like any resource there; revoking is then a matter of the role.
      const { row: permission } = await access.resource(caller, found, 'environment.read', 'Permission');
      const [role] = await db.select().from(roles).where(eq(roles.id, permission.roleId));
      if (!role) throw notFound('Permission');
      assertCanManage(caller, role, 'permission.revoke');
      const [environment] = await db
        .select({ handle: environments.handle })
        .from(environments)
        .where(eq(environments.id, permission.environmentId));
      await db.transaction(async (tx) => {
        const removed = await tx
          .delete(permissions)
          .where(eq(permissions.id, permission.id))
          .returning({ id: permissions.id });
        // Revoked at the same moment by another request: that one records it.
        if (removed.length === 0) return;
        await recordAuditEvent(tx, role.organizationId, {
          action: 'permission.delete',
          actor: caller.user,
          target: { type: 'permission', id: permission.id, name: permission.scope },
          parent: { type: 'role', id: role.id, name: role.name },
          detail: `${isScope(permission.scope) ? SCOPE_LABELS[permission.scope] : permission.scope} on ${environment?.handle ?? permission.environmentId}`,
        });
        await recordPrivilegedChange(tx, role.organizationId, {
          kind: 'permission_revoked',
          actor: caller.user,
          environmentId: permission.environmentId,
          detail: `${isScope(permission.scope) ? SCOPE_LABELS[permission.scope] : permission.scope} from the role ${role.name}`,
          roleType: role.type,
        });
      });
    },
  };
}
export type PermissionsService = ReturnType<typeof createPermissionsService>;
