import type { RoleType } from '@berth/core';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { memberships, roles } from '../db/schema.ts';

export interface MembershipInfo {
  organizationId: string;
  roleId: string;
  roleType: RoleType;
  privileged: boolean;
}

/** What a membership row reads: its role and organization, and whether it is privileged. */
export const membershipColumns = {
  organizationId: roles.organizationId,
  roleId: roles.id,
  roleType: roles.type,
  privileged: memberships.privileged,
};

/** Every role the user holds, across organizations. */
export async function membershipsOf(db: Db, userId: string): Promise<MembershipInfo[]> {
  const rows = await db
    .select(membershipColumns)
    .from(memberships)
    .innerJoin(roles, eq(memberships.roleId, roles.id))
    .where(eq(memberships.userId, userId));
  return rows.map((row) => ({ ...row, roleType: row.roleType as RoleType }));
}

export function organizationIdsOf(list: MembershipInfo[]): string[] {
  return [...new Set(list.map((m) => m.organizationId))];
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
