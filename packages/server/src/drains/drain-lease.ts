import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { logDrains, metricDrains } from '../db/schema.ts';

/** The longest wait between attempts at a destination that keeps failing. */
export const MAX_BACKOFF_MS = 5 * 60_000;
/** Drains shipped at once by one process: a slow destination holds one slot, never the others. */
export const DRAIN_CONCURRENCY = 8;

/** After the n-th failure in a row: 2 s, 4 s, … up to five minutes. */
export const retryAfter = (now: Date, failures: number) =>
  new Date(now.getTime() + Math.min(1000 * 2 ** failures, MAX_BACKOFF_MS));

/** How long a hold lasts: three passes, and at least a minute (a missed pass keeps it). */
export const leaseFor = (intervalMs: number) => Math.max(60_000, 3 * intervalMs);

/**
 * Takes (or renews) one process's hold on a drain, so each drain ships from one process at a time; the
 * database's clock decides, so processes on several machines agree. True when this process holds it.
 */
export async function holdDrain(
  db: Db,
  table: typeof logDrains | typeof metricDrains,
  id: number,
  shipperId: string,
  leaseMs: number,
): Promise<boolean> {
  // Both tables name these columns alike; the update is the same statement on either.
  const drains = table as typeof logDrains;
  const [row] = await db
    .update(drains)
    .set({ shipperId, shipperLeaseUntil: sql`now() + ${leaseMs} * interval '1 millisecond'` })
    .where(
      and(
        eq(drains.id, id),
        or(
          isNull(drains.shipperLeaseUntil),
          sql`${drains.shipperLeaseUntil} < now()`,
          eq(drains.shipperId, shipperId),
        ),
      ),
    )
    .returning({ id: drains.id });
  return row !== undefined;
}

/** Runs `work` for each item, at most `limit` at a time. */
export async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
