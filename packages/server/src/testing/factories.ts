import type { RoleType, Scope } from '@berth/core';
import type { Db } from '../db/client.ts';
import { memberships, permissions, roles } from '../db/schema.ts';

/**
 * Adds a user to an organization through a new role. Invitations (the product's way in) come with the
 * members work; until then tests place members directly.
 */
export async function addMember(
  db: Db,
  options: { organizationId: string; userId: string; roleType?: RoleType; name?: string },
) {
  const [role] = await db
    .insert(roles)
    .values({
      organizationId: options.organizationId,
      name: options.name ?? 'Developers',
      type: options.roleType ?? 'platform_user',
    })
    .returning();
  if (!role) throw new Error('role insert failed');
  await db.insert(memberships).values({ userId: options.userId, roleId: role.id });
  return role;
}

export async function grant(db: Db, options: { roleId: string; environmentId: string; scope: Scope }) {
  await db
    .insert(permissions)
    .values({ roleId: options.roleId, environmentId: Number(options.environmentId), scope: options.scope });
}
