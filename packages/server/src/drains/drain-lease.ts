import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { logDrains, metricDrains } from '../db/schema.ts';

/** How long a process holds a drain between passes (several intervals: a missed pass keeps it). */
export const DRAIN_LEASE_MS = 60_000;
/** The longest wait between attempts at a destination that keeps failing. */
export const MAX_BACKOFF_MS = 5 * 60_000;

/** After the n-th failure in a row: 2 s, 4 s, … up to five minutes. */
export const retryAfter = (now: Date, failures: number) =>
  new Date(now.getTime() + Math.min(1000 * 2 ** failures, MAX_BACKOFF_MS));

/**
 * Takes (or renews) one process's hold on a drain, so each drain ships from one process at a time:
 * the drain's row as held, or undefined when another process holds it.
 */
export async function holdDrain(
  db: Db,
  table: typeof logDrains | typeof metricDrains,
  id: number,
  shipperId: string,
) {
  // Both tables name these columns alike; the update is the same statement on either.
  const drains = table as typeof logDrains;
  const [held] = await db
    .update(drains)
    .set({ shipperId, shipperLeaseUntil: new Date(Date.now() + DRAIN_LEASE_MS) })
    .where(
      and(
        eq(drains.id, id),
        or(
          isNull(drains.shipperLeaseUntil),
          lt(drains.shipperLeaseUntil, new Date()),
          eq(drains.shipperId, shipperId),
        ),
      ),
    )
    .returning({ id: drains.id });
  return held !== undefined;
}
