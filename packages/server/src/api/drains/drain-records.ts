import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { logDrains, metricDrains } from '../../db/schema.ts';
import { unprocessable } from '../../http/errors.ts';

/**
 * Deletes a drain's record unless it is shipping (provisioned, or an operation on it under way): that
 * one is deprovisioned first, with `refusal`. The status is checked in the delete itself, so a
 * provision queued meanwhile is never lost.
 */
export async function deleteUnlessShipping(
  db: Db,
  table: typeof logDrains | typeof metricDrains,
  id: number,
  refusal: string,
): Promise<void> {
  // Both tables name these columns alike; the statement is the same on either.
  const drains = table as typeof logDrains;
  const deleted = await db
    .delete(drains)
    .where(
      and(eq(drains.id, id), sql`${drains.status} not in ('provisioned', 'provisioning', 'deprovisioning')`),
    )
    .returning({ id: drains.id });
  if (deleted.length === 0) throw unprocessable(refusal);
}
