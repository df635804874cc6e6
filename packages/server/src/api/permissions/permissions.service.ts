import {
  type CreatePermissionInput,
  canManageRole,
  permissionMessages,
  permissionSchemaMessages,
  type RoleType,
  roleTakesEnvironmentPermissions,
} from '@berth/core';
import { and, eq } from 'drizzle-orm';
import { membershipsOf } from '../../auth/access.ts';
import type { Db } from '../../db/client.ts';
import { environments, permissions, roles } from '../../db/schema.ts';
import { forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { isUuid } from '../../http/ids.ts';
import { assertAllowed, type CallerAccess, createEnvironmentAccess } from '../access/environment-access.ts';
import type { EnvironmentRow, PermissionRow } from '../environments/environments.hal.ts';

type RoleRow = typeof roles.$inferSelect;

/**
 * Per-environment permissions of a role (contract §5.6). The environment must be visible to the caller
 * (else 404, like every api-family resource); changing a role's permissions is role management, which
 * spec 1 §6 gives to owners and to the role's admins (privileged members), else 403.
 */
export function createPermissionsService(deps: { db: Db }) {
  const { db } = deps;
  const access = createEnvironmentAccess(db);

  async function assertCanManage(userId: string, callerAccess: CallerAccess, role: RoleRow): Promise<void> {
    const actor = callerAccess.actors.get(role.organizationId);
    const mine = await membershipsOf(db, userId);
    const isRoleAdmin = mine.some((m) => m.roleId === role.id && m.privileged);
    if (!actor || !canManageRole(actor, isRoleAdmin)) throw forbidden(permissionMessages.roleManagement);
  }

  return {
    async create(
      userId: string,
      environmentId: number | null,
      input: CreatePermissionInput,
    ): Promise<PermissionRow> {
      const callerAccess = await access.forUser(userId);
      const environment: EnvironmentRow = await access.authorize(callerAccess, environmentId, 'basic_read');
      const [role] = isUuid(input.role)
        ? await db
            .select()
            .from(roles)
            .where(and(eq(roles.id, input.role), eq(roles.organizationId, environment.organizationId)))
        : [];
      if (!role) throw unprocessable(permissionSchemaMessages.roleNotFound, { role: ['not found'] });
      await assertCanManage(userId, callerAccess, role);
      // A role admin who is not an owner may grant only what they hold themselves on this environment,
      // so managing a role never raises anyone's access above the admin's own.
      assertAllowed(callerAccess, environment, input.scope);
      if (!roleTakesEnvironmentPermissions(role.type as RoleType)) {
        throw unprocessable(permissionSchemaMessages.ownerTypeRole(role.type as RoleType), {
          role: ['owner type'],
        });
      }
      const [created] = await db
        .insert(permissions)
        .values({ environmentId: environment.id, roleId: role.id, scope: input.scope })
        .onConflictDoNothing()
        .returning();
      if (!created)
        throw unprocessable(permissionSchemaMessages.duplicate(input.scope), { scope: ['taken'] });
      return created;
    },

    async remove(userId: string, permissionId: number | null): Promise<void> {
      const [permission] =
        permissionId === null
          ? []
          : await db.select().from(permissions).where(eq(permissions.id, permissionId));
      if (!permission) throw notFound('Permission');
      const callerAccess = await access.forUser(userId);
      const [environment] = await db
        .select()
        .from(environments)
        .where(eq(environments.id, permission.environmentId));
      if (!environment || !callerAccess.allows(environment, 'basic_read')) throw notFound('Permission');
      const [role] = await db.select().from(roles).where(eq(roles.id, permission.roleId));
      if (!role) throw notFound('Permission');
      await assertCanManage(userId, callerAccess, role);
      await db.delete(permissions).where(eq(permissions.id, permission.id));
    },
  };
}
export type PermissionsService = ReturnType<typeof createPermissionsService>;
