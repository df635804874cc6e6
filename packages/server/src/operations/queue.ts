import { and, eq, lt, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../db/client.ts';
import { operationLogs, operations, organizations } from '../db/schema.ts';
import type { OperationRow } from './operations.hal.ts';

/** How often an operation may be picked up again after its worker vanished. */
export const MAX_ATTEMPTS = 3;

// Every lease time and every comparison with one is the database's clock, never a worker's own: a
// worker whose clock runs ahead would otherwise find live leases expired and run an operation twice.
const databaseNow = sql`clock_timestamp()`;
const leaseEnd = (leaseMs: number) =>
  sql`clock_timestamp() + ${Math.max(Math.round(leaseMs), 1)}::int * interval '1 millisecond'`;

/**
 * One worker's hold on one attempt of a running operation. Every write of a running operation is
 * fenced on all three: a worker that lost its lease (another took over, or the attempt ended) changes
 * nothing, not even a log line.
 */
export interface Lease {
  operationId: number;
  workerId: string;
  /** The operation's `attempts` when this worker claimed it. */
  attempt: number;
}

export const leaseOf = (op: OperationRow, workerId: string): Lease => ({
  operationId: op.id,
  workerId,
  attempt: op.attempts,
});

/** The operation is still this lease's: running, owned by its worker, on its attempt. */
function held(lease: Lease) {
  return and(
    eq(operations.id, lease.operationId),
    eq(operations.leaseOwner, lease.workerId),
    eq(operations.attempts, lease.attempt),
    eq(operations.status, 'running'),
  );
}

/** Thrown by a fenced write when the lease is gone: the worker must stop this operation at once. */
export class LeaseLost extends Error {
  constructor(readonly operationId: number) {
    super(`The lease on operation ${operationId} was lost`);
  }
}

// Control characters (a newline first of all) in a logged value could forge lines of their own.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** A log line in the layout platforms of this kind write; no value in it can start another line. */
export function logLine(level: 'INFO' | 'WARN' | 'ERROR', message: string, at = new Date()): string {
  // "2026-01-01 12:00:00 +0000 INFO -- : message"
  const stamp = at.toISOString().replace('T', ' ').slice(0, 19);
  const safe = message.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `${stamp} +0000 ${level} -- : ${safe}`;
}

/** Lines written outside any worker's run (recovery, hand-back), tagged with the attempt they concern. */
export async function appendLog(
  db: DbOrTx,
  operationId: number,
  lines: string[],
  attempt = 0,
): Promise<void> {
  if (lines.length === 0) return;
  await db.insert(operationLogs).values(lines.map((line) => ({ operationId, line, attempt })));
}

/**
 * A running operation's lines, written only while `lease` holds (in one statement, so no takeover can
 * slip between the check and the write). Throws LeaseLost when it no longer does.
 */
export async function appendLeasedLog(db: DbOrTx, lease: Lease, lines: string[]): Promise<void> {
  if (lines.length === 0) return;
  const values = sql.join(
    lines.map((line) => sql`(${line})`),
    sql`, `,
  );
  const result = await db.execute(sql`
    insert into operation_logs (operation_id, line, attempt)
    select o.id, v.line, o.attempts
    from operations o cross join (values ${values}) as v(line)
    where o.id = ${lease.operationId} and o.lease_owner = ${lease.workerId}
      and o.attempts = ${lease.attempt} and o.status = 'running'
    returning operation_logs.id`);
  const written = (result as unknown as { rows: unknown[] }).rows.length;
  if (written === 0) throw new LeaseLost(lease.operationId);
}

/**
 * Runs `write` in a transaction that first locks the operation and checks `lease` still holds, so a
 * resource change made while the operation runs lands only for its current attempt.
 */
export async function leasedWrite<T>(db: Db, lease: Lease, write: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ id: operations.id }).from(operations).where(held(lease)).for('update');
    if (!row) throw new LeaseLost(lease.operationId);
    return write(tx);
  });
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
    const [claimed] = await tx
      .update(operations)
      .set({
        status: 'running',
        leaseOwner: workerId,
        leaseExpiresAt: leaseEnd(leaseMs),
        attempts: sql`${operations.attempts} + 1`,
        startedAt: sql`coalesce(${operations.startedAt}, ${databaseNow})`,
        updatedAt: databaseNow,
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
export async function renewLease(db: Db, lease: Lease, leaseMs: number): Promise<boolean> {
  const renewed = await db
    .update(operations)
    .set({ leaseExpiresAt: leaseEnd(leaseMs) })
    .where(held(lease))
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
      .where(and(eq(operations.status, 'running'), lt(operations.leaseExpiresAt, databaseNow)))
      .for('update', { skipLocked: true });
    let requeued = 0;
    let failed = 0;
    for (const op of expired) {
      const retry = op.attempts < MAX_ATTEMPTS;
      await tx
        .update(operations)
        .set({
          status: retry ? 'queued' : 'failed',
          leaseOwner: null,
          leaseExpiresAt: null,
          finishedAt: retry ? null : databaseNow,
          updatedAt: databaseNow,
        })
        .where(eq(operations.id, op.id));
      // The retry's notice opens the next attempt's lines; a final failure closes the last attempt's.
      const attempt = retry ? op.attempts + 1 : op.attempts;
      await appendLog(
        tx,
        op.id,
        [
          retry
            ? logLine(
                'WARN',
                `The worker running this operation stopped responding; retrying (attempt ${op.attempts + 1} of ${MAX_ATTEMPTS})`,
              )
            : logLine(
                'ERROR',
                `The worker running this operation stopped responding ${MAX_ATTEMPTS} times; the operation failed`,
              ),
        ],
        attempt,
      );
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
  lease: Lease,
  status: 'succeeded' | 'failed',
  apply: (tx: Tx) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [ended] = await tx
      .update(operations)
      .set({
        status,
        leaseOwner: null,
        leaseExpiresAt: null,
        finishedAt: databaseNow,
        updatedAt: databaseNow,
      })
      .where(held(lease))
      .returning({ id: operations.id });
    if (!ended) return false;
    await apply(tx);
    return true;
  });
}

/** Hands a running operation back to the queue (its worker is shutting down), if still held. */
export async function release(db: Db, lease: Lease): Promise<void> {
  await db.transaction(async (tx) => {
    // The notice is written while the lease still holds, as the attempt's last line.
    const [row] = await tx.select({ id: operations.id }).from(operations).where(held(lease)).for('update');
    if (!row) return;
    await appendLog(
      tx,
      lease.operationId,
      [logLine('WARN', 'The worker stopped; the operation went back to the queue')],
      lease.attempt,
    );
    await tx
      .update(operations)
      // A hand-back on shutdown is not a failed attempt.
      .set({
        status: 'queued',
        leaseOwner: null,
        leaseExpiresAt: null,
        attempts: sql`greatest(${operations.attempts} - 1, 0)`,
        updatedAt: databaseNow,
      })
      .where(eq(operations.id, lease.operationId));
  });
}
