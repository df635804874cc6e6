import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { backupsToPrune } from '../api/backups/retention.ts';
import { retentionPolicyInForce } from '../api/backups/retention-policy.ts';
import type { Db } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { backups, databases, environments, operations } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import type { NewOperation, OperationsService } from './operations.service.ts';

const DAY_MS = 86_400_000;
/** Databases looked at per query: the work of one pass grows in steps, never as one huge answer. */
const BATCH = 500;

/**
 * Automatic backups (issue 9): once a day per database with backups on, an automated `backup` operation;
 * then the environment's retention policy prunes automatic backups it no longer keeps, each with an
 * automated `purge`. Both go through the queue like any operation (so the organization's cap holds and no
 * tenant's backups delay another's), and a partial unique index keeps one unfinished automated operation
 * of each type per resource, however many workers run this.
 */
export function createBackupScheduler(deps: {
  db: Db;
  operations: Pick<OperationsService, 'enqueue'>;
  /** The clock (tests move it instead of waiting). */
  now?: () => Date;
  onError?: (error: unknown) => void;
}) {
  const { db, operations: ops } = deps;
  const now = deps.now ?? (() => new Date());
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<unknown> | null = null;

  /**
   * Enqueues one automated operation: 'queued', 'exists' when one is already unfinished, 'full' when
   * the organization's queue is at its cap, or 'limited' when its plan allows no more.
   */
  async function enqueue(
    input: Omit<NewOperation, 'user'>,
  ): Promise<'queued' | 'exists' | 'full' | 'limited'> {
    try {
      await ops.enqueue({ ...input, user: null });
      return 'queued';
    } catch (error) {
      if (isUniqueViolation(error)) return 'exists';
      if (error instanceof ApiError && error.status === 429) return 'full';
      // The database has all the automated backups its organization's plan allows (takeBackups rolls it).
      if (error instanceof ApiError && error.error === 'plan_limit') return 'limited';
      throw error;
    }
  }

  /**
   * Enqueues for organizations whose queue had room so far in this batch. Once an organization's queue is
   * full, its other databases in the batch are skipped instead of each asking and being refused (5,000
   * refusals a pass were load beside every other tenant's requests); the next batch asks again, so the
   * room the worker makes meanwhile is used within the pass.
   */
  function batchEnqueuer() {
    const full = new Set<string>();
    return async (input: Omit<NewOperation, 'user'>): Promise<'queued' | 'exists' | 'full' | 'limited'> => {
      if (full.has(input.organizationId)) return 'full';
      const outcome = await enqueue(input);
      if (outcome === 'full') full.add(input.organizationId);
      return outcome;
    };
  }

  /**
   * A database at its plan's automated backup limit is not left without new backups: its oldest
   * automated backup (one no purge is already under way for) is purged, and the new backup replaces it.
   */
  async function oldestAutomatedBackup(databaseId: number) {
    const [oldest] = await db
      .select({ id: backups.id, handle: backups.databaseHandle })
      .from(backups)
      .where(
        and(
          eq(backups.databaseId, databaseId),
          eq(backups.kind, 'auto'),
          sql`not exists (select 1 from ${operations} where ${operations.resourceType} = 'backup'
            and ${operations.resourceId} = ${backups.id} and ${operations.type} = 'purge'
            and ${operations.status} in ('queued', 'running'))`,
        ),
      )
      .orderBy(asc(backups.createdAt), asc(backups.id))
      .limit(1);
    return oldest;
  }

  /** Databases with backups on whose last automatic backup is a day old (or that have none). */
  async function dueDatabases(at: Date, afterId: number) {
    const since = new Date(at.getTime() - DAY_MS);
    return db
      .select({ database: databases, organizationId: environments.organizationId })
      .from(databases)
      .innerJoin(environments, eq(databases.environmentId, environments.id))
      .where(
        and(
          eq(databases.provisioned, true),
          eq(databases.enableBackups, true),
          eq(databases.status, 'provisioned'),
          gt(databases.id, afterId),
          sql`not exists (select 1 from ${backups} where ${backups.databaseId} = ${databases.id}
            and ${backups.kind} = 'auto' and ${backups.createdAt} > ${since})`,
        ),
      )
      .orderBy(databases.id)
      .limit(BATCH);
  }

  async function takeBackups(at: Date): Promise<number> {
    let started = 0;
    let afterId = 0;
    for (;;) {
      const due = await dueDatabases(at, afterId);
      const enqueueInBatch = batchEnqueuer();
      for (const { database, organizationId } of due) {
        const backup = {
          organizationId,
          environmentId: database.environmentId,
          resourceType: 'database',
          resourceId: database.id,
          resourceHandle: database.handle,
          type: 'backup',
        };
        let outcome = await enqueueInBatch(backup);
        if (outcome === 'limited') {
          const oldest = await oldestAutomatedBackup(database.id);
          const purge = oldest
            ? await enqueueInBatch({
                organizationId,
                environmentId: database.environmentId,
                resourceType: 'backup',
                resourceId: oldest.id,
                resourceHandle: `${oldest.handle} backup ${oldest.id}`,
                type: 'purge',
              })
            : 'exists';
          // A purge already under way for it counts too: then the backup replaces that one.
          if (purge === 'queued' || purge === 'exists') outcome = await enqueueInBatch(backup);
        }
        if (outcome === 'queued') started++;
      }
      if (due.length < BATCH) return started;
      afterId = due[due.length - 1]?.database.id ?? afterId;
    }
  }

  async function prune(): Promise<number> {
    let pruned = 0;
    let afterId = 0;
    for (;;) {
      const batch = await db
        .select({
          id: databases.id,
          environmentId: databases.environmentId,
          organizationId: environments.organizationId,
        })
        .from(databases)
        .innerJoin(environments, eq(databases.environmentId, environments.id))
        .where(gt(databases.id, afterId))
        .orderBy(databases.id)
        .limit(BATCH);
      if (batch.length === 0) return pruned;
      const enqueueInBatch = batchEnqueuer();
      const automatic = await db
        .select({
          id: backups.id,
          databaseId: backups.databaseId,
          createdAt: backups.createdAt,
          handle: backups.databaseHandle,
        })
        .from(backups)
        .where(
          and(
            inArray(
              backups.databaseId,
              batch.map((row) => row.id),
            ),
            eq(backups.kind, 'auto'),
          ),
        );
      const byDatabase = new Map<number | null, typeof automatic>();
      for (const backup of automatic) {
        const own = byDatabase.get(backup.databaseId);
        if (own) own.push(backup);
        else byDatabase.set(backup.databaseId, [backup]);
      }
      const policies = new Map<number, Awaited<ReturnType<typeof retentionPolicyInForce>>>();
      for (const database of batch) {
        const own = byDatabase.get(database.id) ?? [];
        if (own.length === 0) continue;
        let policy = policies.get(database.environmentId);
        if (!policy) {
          policy = await retentionPolicyInForce(db, database.environmentId);
          policies.set(database.environmentId, policy);
        }
        for (const id of backupsToPrune(own, policy)) {
          const backup = own.find((row) => row.id === id);
          const queued = await enqueueInBatch({
            organizationId: database.organizationId,
            environmentId: database.environmentId,
            resourceType: 'backup',
            resourceId: id,
            resourceHandle: `${backup?.handle ?? 'database'} backup ${id}`,
            type: 'purge',
          });
          if (queued === 'queued') pruned++;
        }
      }
      afterId = batch[batch.length - 1]?.id ?? afterId;
    }
  }

  /** One pass: the backups that are due, then the pruning. */
  async function runOnce(): Promise<{ started: number; pruned: number }> {
    const at = now();
    const started = await takeBackups(at);
    const pruned = await prune();
    return { started, pruned };
  }

  return {
    runOnce,
    /** Runs a pass now and then every `intervalMs` (one pass at a time). */
    start(intervalMs: number): void {
      if (timer) return;
      const tick = () => {
        if (running) return;
        running = runOnce()
          .catch((error) => deps.onError?.(error))
          .finally(() => {
            running = null;
          });
      };
      tick();
      timer = setInterval(tick, intervalMs);
      timer.unref?.();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
export type BackupScheduler = ReturnType<typeof createBackupScheduler>;
