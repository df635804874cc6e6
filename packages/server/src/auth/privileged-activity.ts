import type { PrivilegedActivityKind } from '@berth/core';
import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { memberships, privilegedActivities, roles, users } from '../db/schema.ts';

/** Someone as a recorded change names them (the id is null when only their name is known). */
export interface Person {
  id: string | null;
  name: string;
  email: string;
}

export interface PrivilegedChange {
  kind: PrivilegedActivityKind;
  /** Who made the change; null for the platform itself. */
  actor: Person | null;
  /** The user the change concerns, when one does. */
  subjectId?: string | null;
  /** The role, scope or token concerned. */
  detail?: string;
  /** Set for a change to one environment (a permission). */
  environmentId?: number | null;
  /** The type of the role concerned, when a role is (the dashboard hides roles hidden from its reader). */
  roleType?: string | null;
}

async function personOf(db: DbOrTx, userId: string | null | undefined): Promise<Person | null> {
  if (!userId) return null;
  const [user] = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return user ?? null;
}

function rowsFor(organizationIds: readonly string[], change: PrivilegedChange, subject: Person | null) {
  return organizationIds.map((organizationId) => ({
    organizationId,
    environmentId: change.environmentId ?? null,
    kind: change.kind,
    actorId: change.actor?.id ?? null,
    actorName: change.actor?.name ?? '',
    actorEmail: change.actor?.email ?? '',
    subjectId: subject?.id ?? null,
    subjectName: subject?.name ?? '',
    subjectEmail: subject?.email ?? '',
    detail: change.detail ?? '',
    roleType: change.roleType ?? null,
  }));
}

/**
 * Records a privileged change of an organization for its Security & Compliance dashboard (issue 38).
 * Given the transaction that makes the change, it is recorded exactly when the change is.
 */
export async function recordPrivilegedChange(
  db: DbOrTx,
  organizationId: string,
  change: PrivilegedChange,
): Promise<void> {
  const subject = await personOf(db, change.subjectId);
  await db.insert(privilegedActivities).values(rowsFor([organizationId], change, subject));
}

/**
 * Records a change to a user's access as a whole (an impersonation, their tokens revoked) in every
 * organization they belong to: each one's owners see it happen to their member.
 */
export async function recordForEveryOrganizationOf(
  db: DbOrTx,
  userId: string,
  change: Omit<PrivilegedChange, 'subjectId' | 'environmentId' | 'roleType'>,
): Promise<void> {
  const held = await db
    .selectDistinct({ organizationId: roles.organizationId })
    .from(memberships)
    .innerJoin(roles, eq(memberships.roleId, roles.id))
    .where(eq(memberships.userId, userId));
  if (held.length === 0) return;
  const subject = await personOf(db, userId);
  await db.insert(privilegedActivities).values(
    rowsFor(
      held.map((row) => row.organizationId),
      change,
      subject,
    ),
  );
}

/** The names of roles by id, for changes that name the role they touched. */
export async function roleNames(db: DbOrTx, roleIds: readonly string[]): Promise<Map<string, string>> {
  if (roleIds.length === 0) return new Map();
  const rows = await db
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .where(inArray(roles.id, [...roleIds]));
  return new Map(rows.map((row) => [row.id, row.name]));
}
