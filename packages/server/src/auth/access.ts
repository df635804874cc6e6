import { type Actor, buildActor, type RoleType, type Scope } from '@berth/core';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { memberships, permissions, roles } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';

export interface MembershipInfo {
  organizationId: string;
  roleId: string;
  roleType: RoleType;
  privileged: boolean;
}

/** Every role the user holds, across organizations. */
export async function membershipsOf(db: Db, userId: string): Promise<MembershipInfo[]> {
  const rows = await db
    .select({
      organizationId: roles.organizationId,
      roleId: roles.id,
      roleType: roles.type,
      privileged: memberships.privileged,
    })
    .from(memberships)
    .innerJoin(roles, eq(memberships.roleId, roles.id))
    .where(eq(memberships.userId, userId));
  return rows.map((row) => ({ ...row, roleType: row.roleType as RoleType }));
}

/** The caller's memberships in one organization; none (or a malformed id) is 404, never 403. */
export async function membershipsInOrganization(
  db: Db,
  userId: string,
  organizationId: string,
  what = 'Organization',
): Promise<MembershipInfo[]> {
  const inOrganization = (await membershipsOf(db, userId)).filter((m) => m.organizationId === organizationId);
  if (inOrganization.length === 0) throw notFound(what);
  return inOrganization;
}

export function organizationIdsOf(list: MembershipInfo[]): string[] {
  return [...new Set(list.map((m) => m.organizationId))];
}

/** The core permission engine's view of the user within one organization. */
export async function actorIn(db: Db, list: MembershipInfo[], organizationId: string): Promise<Actor> {
  const roles = list.map((m) => ({ id: m.roleId, type: m.roleType, organizationId: m.organizationId }));
  const roleIds = roles.filter((role) => role.organizationId === organizationId).map((role) => role.id);
  const granted =
    roleIds.length === 0
      ? []
      : await db
          .select({
            roleId: permissions.roleId,
            environmentId: permissions.environmentId,
            scope: permissions.scope,
          })
          .from(permissions)
          .where(inArray(permissions.roleId, roleIds));
  return buildActor(
    roles,
    granted.map((row) => ({ ...row, scope: row.scope as Scope })),
    organizationId,
  );
}

export async function isMemberOf(db: Db, userId: string, organizationId: string): Promise<boolean> {
  const rows = await db
    .select({ id: memberships.id })
    .from(memberships)
    .innerJoin(roles, eq(memberships.roleId, roles.id))
    .where(and(eq(memberships.userId, userId), eq(roles.organizationId, organizationId)))
    .limit(1);
  return rows.length > 0;
}
