import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { scimUsers } from '../db/schema.ts';
import { isUuid } from '../http/ids.ts';

/**
 * Which of the users the organization's provisioning manages (spec 1 §6: such users keep their managed
 * roles and cannot be removed). Asked per organization: a user managed by one organization is an
 * ordinary member of any other.
 */
export async function provisionedIn(db: DbOrTx, organizationId: string, userIds: string[]) {
  const ids = [...new Set(userIds.filter(isUuid))];
  if (ids.length === 0 || !isUuid(organizationId)) return new Set<string>();
  const rows = await db
    .select({ userId: scimUsers.userId })
    .from(scimUsers)
    .where(and(eq(scimUsers.organizationId, organizationId), inArray(scimUsers.userId, ids)));
  return new Set(rows.map((row) => row.userId));
}

/** Whether the organization's provisioning manages this user. */
export async function isProvisionedIn(db: DbOrTx, organizationId: string, userId: string) {
  return (await provisionedIn(db, organizationId, [userId])).has(userId);
}
