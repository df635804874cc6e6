import type { AuditAction } from '@berth/core';
import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { auditEvents, memberships, roles, users } from '../../db/schema.ts';
import { currentRequestAddress } from '../../http/request-address.ts';

/** A resource as an event names it: its type, id and name at the time. */
export interface AuditTarget {
  type: string;
  id: string | number;
  name: string;
}

export interface AuditChange {
  action: AuditAction;
  /**
   * Who made the change: a user (their email at the time), a credential that is no user (a SCIM token:
   * null id, its name in place of the email), or null for the platform itself.
   */
  actor: { id: string | null; email: string } | null;
  target: AuditTarget;
  /** What the target belongs to, named in its row ("service cmd of web"). */
  parent?: AuditTarget | null;
  /** The environment the change belongs to (it decides who may read it); absent for the organization's own. */
  environmentId?: number | null;
  /** What changed beyond the names: a scope, a new name. */
  detail?: string;
}

/**
 * Records an audit event. Given the transaction that makes the change, the event is written exactly
 * when the change is (issue 41). The address is the current request's.
 */
export async function recordAuditEvent(
  db: DbOrTx,
  organizationId: string,
  change: AuditChange,
): Promise<void> {
  await db.insert(auditEvents).values(auditRow(organizationId, change));
}

/** Rows per insert: 14 parameters each, well under PostgreSQL's 65535 per statement. */
const AUDIT_ROWS_PER_INSERT = 1000;

/** Many events of one change (a SCIM patch's memberships): a few multi-row inserts, not one per event. */
export async function recordAuditEvents(
  db: DbOrTx,
  organizationId: string,
  changes: readonly AuditChange[],
): Promise<void> {
  for (let at = 0; at < changes.length; at += AUDIT_ROWS_PER_INSERT) {
    const rows = changes
      .slice(at, at + AUDIT_ROWS_PER_INSERT)
      .map((change) => auditRow(organizationId, change));
    await db.insert(auditEvents).values(rows);
  }
}

function auditRow(organizationId: string, change: AuditChange) {
  return {
    organizationId,
    environmentId: change.environmentId ?? null,
    action: change.action,
    actorId: change.actor?.id ?? null,
    // A user's email in lower case, as the actor filter reads it; a credential's name as it is.
    actorEmail: change.actor ? (change.actor.id ? change.actor.email.toLowerCase() : change.actor.email) : '',
    resourceType: change.target.type,
    resourceId: String(change.target.id),
    resourceName: change.target.name,
    parentType: change.parent?.type ?? null,
    parentId: change.parent ? String(change.parent.id) : null,
    parentName: change.parent?.name ?? null,
    detail: change.detail ?? '',
    ipAddress: currentRequestAddress(),
  };
}

/** A member as an event names them: by their e-mail at the time (the id when the user is gone). */
export async function memberTarget(db: DbOrTx, userId: string): Promise<AuditTarget> {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return { type: 'member', id: userId, name: user?.email ?? userId };
}

/** Members as events name them, read in one query per thousand (a SCIM patch may carry many). */
export async function memberTargets(db: DbOrTx, userIds: readonly string[]): Promise<AuditTarget[]> {
  const emails = new Map<string, string>();
  for (let at = 0; at < userIds.length; at += AUDIT_ROWS_PER_INSERT) {
    const found = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(users.id, userIds.slice(at, at + AUDIT_ROWS_PER_INSERT)));
    for (const user of found) emails.set(user.id, user.email);
  }
  return userIds.map((id) => ({ type: 'member', id, name: emails.get(id) ?? id }));
}

/**
 * Records a change to a user's own credentials (a personal API token) in every organization they belong
 * to: the token acts in each, so each one's owners see it made or revoked.
 */
export async function recordAuditEventForEveryOrganizationOf(
  db: DbOrTx,
  userId: string,
  change: Omit<AuditChange, 'environmentId'>,
): Promise<void> {
  const held = await db
    .selectDistinct({ organizationId: roles.organizationId })
    .from(memberships)
    .innerJoin(roles, eq(memberships.roleId, roles.id))
    .where(eq(memberships.userId, userId));
  for (const { organizationId } of held) await recordAuditEvent(db, organizationId, change);
}

/** A SCIM token as an event's actor: provisioning acts by its token, named by the token's id. */
export function scimTokenActor(configuration: { tokenId: string | null }): { id: null; email: string } {
  return { id: null, email: `SCIM token ${configuration.tokenId ?? ''}`.trim() };
}
