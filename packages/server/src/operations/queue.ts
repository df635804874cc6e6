import { and, eq, lt, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../db/client.ts';
import { operationLogs, operations, organizations } from '../db/schema.ts';
import type { OperationRow } from './operations.hal.ts';

/** How often an operation may be picked up again after its worker vanished. */
export const MAX_ATTEMPTS = 3;

export function logLine(level: 'INFO' | 'WARN' | 'ERROR', message: string, at = new Date()): string {
  // The layout platforms of this kind write: "2026-01-01 12:00:00 +0000 INFO -- : message"
  const stamp = at.toISOString().replace('T', ' ').slice(0, 19);
  return `${stamp} +0000 ${level} -- : ${message}`;
}

export async function appendLog(db: DbOrTx, operationId: number, lines: string[]): Promise<void> {
  if (lines.length === 0) return;
  await db.insert(operationLogs).values(lines.map((line) => ({ operationId, line })));
}

/**
 * The operations table is the queue. A worker claims with FOR UPDATE SKIP LOCKED, so two workers
 * never take the same operation, and holds it under a lease.
 *
 * Claims are fair across organizations: the next operation is the oldest runnable one of the
 * organization whose last turn (queue_turn_at) lies furthest back, one that never had a turn first,
 * and a claim moves that organization's turn to now. Organizations take turns, so one that queued
 * forty deploys delays another organization's restart by one operation, not forty.
 */
export async function claimNext(db: Db, workerId: string, leaseMs: number): Promise<OperationRow | null> {
  return db.transaction(async (tx) => {
    // Claims are short: taking them one at a time makes "nothing else runs on this app" a true check.
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`);
    // Per organization with queued operations, its oldest runnable one: operations on one app (or on
    // its services) run one after another, in the order they were asked, so an organization whose
    // queued operations all wait for running ones is passed over. Both lookups read the partial index
    // of queued operations by organization; min() rather than "order by id limit 1" keeps the planner
    // on it, so each organization costs about its queue cap in rows, however the ids interleave.
    // Skipping a locked candidate falls through to the next organization in turn.
    const result = await tx.execute(sql`
      select q.id from (
          select w.organization_id, min(w.id) as oldest from operations w
          where w.status = 'queued'
          group by w.organization_id
        ) waiting
        join organizations o on o.id = waiting.organization_id
        cross join lateral (
          select min(c.id) as id from operations c
          where c.organization_id = waiting.organization_id
            and c.status = 'queued'
            and not exists (
              select 1 from operations r
              where r.status = 'running' and ${serialKey(sql.raw('r'))} = ${serialKey(sql.raw('c'))}
            )
        ) next
        join operations q on q.id = next.id
      where q.status = 'queued'
      order by o.queue_turn_at asc nulls first, waiting.oldest, o.id
      limit 1
      for update of q skip locked`);
    const candidate = (result as unknown as { rows: { id: number | string }[] }).rows[0];
    if (!candidate) return null;
    const now = new Date();
    const [claimed] = await tx
      .update(operations)
      .set({
        status: 'running',
        leaseOwner: workerId,
        leaseExpiresAt: new Date(now.getTime() + leaseMs),
        attempts: sql`${operations.attempts} + 1`,
        startedAt: sql`coalesce(${operations.startedAt}, ${now.toISOString()}::timestamptz)`,
        updatedAt: now,
      })
      .where(and(eq(operations.id, Number(candidate.id)), eq(operations.status, 'queued')))
      .returning();
    if (!claimed) return null;
    // The database's clock at this moment (not the transaction's start): claims are serialized by the
    // lock above, so turns are recorded in the order they were taken, whichever process took them.
    await tx
      .update(organizations)
      .set({ queueTurnAt: sql`clock_timestamp()` })
      .where(eq(organizations.id, claimed.organizationId));
    return claimed;
  });
}

const CLAIM_LOCK = 0x62657274; // "bert"

/** What an operation serializes on: its app for app and service operations, else the resource itself. */
function serialKey(alias: SQL) {
  return sql`(case when ${alias}.resource_type = 'service'
    then coalesce((select 'app:' || s.app_id from services s where s.id = ${alias}.resource_id and s.app_id is not null),
                  'service:' || ${alias}.resource_id)
    else ${alias}.resource_type || ':' || ${alias}.resource_id end)`;
}

/** Extends the lease; false when the worker no longer holds the operation (it must stop). */
export async function renewLease(
  db: Db,
  operationId: number,
  workerId: string,
  leaseMs: number,
): Promise<boolean> {
  const renewed = await db
    .update(operations)
    .set({ leaseExpiresAt: new Date(Date.now() + leaseMs) })
    .where(
      and(
        eq(operations.id, operationId),
        eq(operations.leaseOwner, workerId),
        eq(operations.status, 'running'),
      ),
    )
    .returning({ id: operations.id });
  return renewed.length > 0;
}

/**
 * Operations whose worker stopped renewing its lease: queued again while attempts remain, failed
 * with a message after that. Never left running forever. `onFailed` records a failure on the
 * operation's resource in the same transaction (the worker passes its handlers' failure hooks).
 */
export async function recoverExpiredLeases(
  db: Db,
  onFailed: (tx: Tx, op: OperationRow) => Promise<void>,
): Promise<{ requeued: number; failed: number }> {
  return db.transaction(async (tx) => {
    const expired = await tx
      .select()
      .from(operations)
      .where(and(eq(operations.status, 'running'), lt(operations.leaseExpiresAt, new Date())))
      .for('update', { skipLocked: true });
    let requeued = 0;
    let failed = 0;
    for (const op of expired) {
      const retry = op.attempts < MAX_ATTEMPTS;
      const now = new Date();
      await tx
        .update(operations)
        .set({
          status: retry ? 'queued' : 'failed',
          leaseOwner: null,
          leaseExpiresAt: null,
          finishedAt: retry ? null : now,
          updatedAt: now,
        })
        .where(eq(operations.id, op.id));
      await appendLog(tx, op.id, [
        retry
          ? logLine(
              'WARN',
              `The worker running this operation stopped responding; retrying (attempt ${op.attempts + 1} of ${MAX_ATTEMPTS})`,
            )
          : logLine(
              'ERROR',
              `The worker running this operation stopped responding ${MAX_ATTEMPTS} times; the operation failed`,
            ),
      ]);
      if (retry) requeued += 1;
      else {
        failed += 1;
        await onFailed(tx, op);
      }
    }
    return { requeued, failed };
  });
}

/**
 * Ends an operation, and applies its resource changes in the same transaction, only if this worker
 * still holds it. Returns false (and changes nothing) when the lease was lost.
 */
export async function finish(
  db: Db,
  op: OperationRow,
  workerId: string,
  status: 'succeeded' | 'failed',
  apply: (tx: Tx) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const [ended] = await tx
      .update(operations)
      .set({ status, leaseOwner: null, leaseExpiresAt: null, finishedAt: now, updatedAt: now })
      .where(
        and(eq(operations.id, op.id), eq(operations.leaseOwner, workerId), eq(operations.status, 'running')),
      )
      .returning({ id: operations.id });
    if (!ended) return false;
    await apply(tx);
    return true;
  });
}

/** Hands a running operation back to the queue (its worker is shutting down), if still held. */
export async function release(db: Db, operationId: number, workerId: string): Promise<void> {
  const released = await db
    .update(operations)
    // A hand-back on shutdown is not a failed attempt.
    .set({
      status: 'queued',
      leaseOwner: null,
      leaseExpiresAt: null,
      attempts: sql`greatest(${operations.attempts} - 1, 0)`,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(operations.id, operationId),
        eq(operations.leaseOwner, workerId),
        eq(operations.status, 'running'),
      ),
    )
    .returning({ id: operations.id });
  if (released.length > 0) {
    await appendLog(db, operationId, [
      logLine('WARN', 'The worker stopped; the operation went back to the queue'),
    ]);
  }
}
