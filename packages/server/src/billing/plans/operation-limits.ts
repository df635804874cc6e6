import { DEFAULT_CONTAINER_MEMORY_MB } from '@berth/core';
import { and, count, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { backups, disks, environments, operations, services } from '../../db/schema.ts';
import { planLimits } from './plan-limits.ts';

/** What an operation about to be queued asks for that a plan limits. */
export interface PlannedOperation {
  organizationId: string;
  resourceType: string;
  resourceId: number;
  type: string;
  /** null: the platform's own (an automated backup). */
  automated: boolean;
  containerCount?: number | null;
  containerSize?: number | null;
  instanceProfile?: string | null;
  diskSize?: number | null;
}

/** What the queued operation holds against the plan until it ends (stored on its row). */
export interface PlanReservation {
  reservedMemoryMb: number | null;
}

/** Unfinished, written out so the planner matches operations_org_unfinished_idx's predicate. */
const unfinished = sql`${operations.status} in ('queued', 'running')`;
/** Operations that make a new database (its service and disk come with it). */
const NEW_DATABASE = new Set(['restore', 'pitr_restore']);

/**
 * The plan's limits on what operations size and make: container profiles, container memory and disk in
 * the whole organization, manual and automated backups per database. Called in the transaction that
 * queues the operation, under the organization's lock (planLimits): queued and running operations count
 * at the sizes they asked for, so two parallel requests at the last slot never both pass. Shrinking is
 * never refused, so an organization over a lowered plan can always come back under it.
 */
export async function checkOperationPlan(tx: DbOrTx, op: PlannedOperation): Promise<PlanReservation> {
  const reservedMemoryMb = await firstDeployReservation(tx, op);
  const sizes = op.containerSize != null || op.containerCount != null || reservedMemoryMb !== null;
  const backup = op.resourceType === 'database' && op.type === 'backup';
  if (!sizes && op.diskSize == null && !op.instanceProfile && !backup) return { reservedMemoryMb };
  const limits = await planLimits(tx, op.organizationId);
  if (op.instanceProfile) limits.requireProfile(op.instanceProfile);
  if (backup) {
    const { made, pending, purging } = await backupsOf(tx, op.resourceId, op.automated);
    const wanted = made - purging + pending + 1;
    // An automated backup that replaces one being purged keeps the count where it is: the scheduler rolls
    // a database at its limit (or over a lowered one) this way, and its backups never stop.
    const replaces = op.automated && wanted <= made;
    if (!replaces) limits.requireCount(op.automated ? 'automatedBackups' : 'manualBackups', wanted);
  }
  if (sizes) {
    const { total, before } = await memoryAfter(tx, { ...op, reservedMemoryMb });
    if (total > before) limits.requireCount('containerMemory', total);
  }
  if (op.diskSize != null) {
    const { total, before } = await diskAfter(tx, op);
    if (total > before) limits.requireCount('disk', total);
  }
  return { reservedMemoryMb };
}

/**
 * An app's deploy makes a service for each process type the app has no service for yet, each one
 * container of the default size. Before anything runs, a first deploy is known to make at least one:
 * it reserves that much as it is queued, so the refusal comes at once in the common case.
 */
async function firstDeployReservation(tx: DbOrTx, op: PlannedOperation): Promise<number | null> {
  if (op.resourceType !== 'app' || op.type !== 'deploy') return null;
  const [existing] = await tx
    .select({ id: services.id })
    .from(services)
    .where(eq(services.appId, op.resourceId))
    .limit(1);
  return existing ? null : DEFAULT_CONTAINER_MEMORY_MB;
}

/**
 * Run by a deploy once its image says which process types it has: `newServices` of them have no service
 * yet. Holds their memory against the plan (under the organization's lock, counting every pending
 * operation) and records it on the deploy, so a parallel deploy or scale counts it until this one ends.
 * Throws the plan's refusal when they do not fit.
 */
export async function reserveDeployMemory(
  tx: DbOrTx,
  deploy: { id: number; organizationId: string; resourceId: number; reservedMemoryMb: number | null },
  newServices: number,
): Promise<void> {
  const wanted = newServices * DEFAULT_CONTAINER_MEMORY_MB;
  if (wanted <= (deploy.reservedMemoryMb ?? 0)) return;
  const limits = await planLimits(tx, deploy.organizationId);
  const { total, before } = await memoryAfter(tx, {
    organizationId: deploy.organizationId,
    resourceType: 'app',
    resourceId: deploy.resourceId,
    type: 'deploy',
    reservedMemoryMb: wanted,
    reservingOperationId: deploy.id,
  });
  if (total > before) limits.requireCount('containerMemory', total);
  await tx.update(operations).set({ reservedMemoryMb: wanted }).where(eq(operations.id, deploy.id));
}

/**
 * A database's backups of one kind: those made, the backup operations pending, and (automated only) the
 * pending purges of its automated backups.
 */
async function backupsOf(tx: DbOrTx, databaseId: number, automated: boolean) {
  const kind = automated ? 'auto' : 'manual';
  const [[made], [pending], [purging]] = await Promise.all([
    tx
      .select({ value: count() })
      .from(backups)
      .where(and(eq(backups.databaseId, databaseId), eq(backups.kind, kind))),
    tx
      .select({ value: count() })
      .from(operations)
      .where(
        and(
          eq(operations.resourceType, 'database'),
          eq(operations.resourceId, databaseId),
          eq(operations.type, 'backup'),
          eq(operations.automated, automated),
          unfinished,
        ),
      ),
    automated
      ? tx
          .select({ value: count() })
          .from(operations)
          .innerJoin(backups, eq(operations.resourceId, backups.id))
          .where(
            and(
              eq(operations.resourceType, 'backup'),
              eq(operations.type, 'purge'),
              unfinished,
              eq(backups.databaseId, databaseId),
              eq(backups.kind, 'auto'),
            ),
          )
      : [{ value: 0 }],
  ]);
  return { made: made?.value ?? 0, pending: pending?.value ?? 0, purging: purging?.value ?? 0 };
}

/** A key per sized thing: a service, or a database not made yet (by the operation that makes it). */
type Key = string;

/** The organization's container memory (MB) now, counting pending operations at their sizes, and with `op`. */
async function memoryAfter(
  tx: DbOrTx,
  op: Pick<PlannedOperation, 'organizationId' | 'resourceType' | 'resourceId' | 'type'> &
    Partial<Pick<PlannedOperation, 'containerCount' | 'containerSize'>> & {
      reservedMemoryMb: number | null;
      /** The pending operation `op` is (its own reservation is replaced, not added to). */
      reservingOperationId?: number;
    },
) {
  const rows = await tx
    .select({
      id: services.id,
      databaseId: services.databaseId,
      count: services.containerCount,
      size: services.containerMemoryLimitMb,
    })
    .from(services)
    .innerJoin(environments, eq(services.environmentId, environments.id))
    .where(eq(environments.organizationId, op.organizationId));
  const current = new Map<Key, { count: number; size: number }>();
  const byDatabase = new Map<number, Key>();
  for (const row of rows) {
    current.set(`s${row.id}`, { count: row.count, size: row.size });
    if (row.databaseId !== null) byDatabase.set(row.databaseId, `s${row.id}`);
  }
  const keyOf = (resourceType: string, resourceId: number, type: string, opId: number | null): Key | null => {
    if (NEW_DATABASE.has(type)) return `new${opId ?? 'this'}`;
    if (resourceType === 'service') return `s${resourceId}`;
    if (resourceType === 'database') return byDatabase.get(resourceId) ?? `d${resourceId}`;
    return null;
  };
  const effective = new Map(current);
  const pending = await pendingSizing(tx, op.organizationId);
  for (const p of pending) {
    // A deploy's new services, not yet made: one more thing of the size it holds.
    if (p.reservedMemoryMb !== null && p.id !== op.reservingOperationId) {
      effective.set(`deploy${p.id}`, { count: 1, size: p.reservedMemoryMb });
    }
    const key = keyOf(p.resourceType, p.resourceId, p.type, p.id);
    if (!key || (p.containerSize === null && p.containerCount === null)) continue;
    const now = effective.get(key) ?? { count: 0, size: 0 };
    const asked = { count: p.containerCount ?? (now.count || 1), size: p.containerSize ?? now.size };
    // A pending operation holds the larger of what is and what it asked for until it ends.
    if (asked.count * asked.size > now.count * now.size) effective.set(key, asked);
  }
  // The operation's own earlier reservation (a deploy raising it) counts as before.
  const own = pending.find((p) => p.id === op.reservingOperationId)?.reservedMemoryMb;
  if (own) effective.set('deploythis', { count: 1, size: own });
  const before = sum(effective);
  if (op.reservedMemoryMb !== null) effective.set('deploythis', { count: 1, size: op.reservedMemoryMb });
  const key = keyOf(op.resourceType, op.resourceId, op.type, null);
  if (key) {
    const now = effective.get(key) ?? { count: 0, size: 0 };
    effective.set(key, {
      count: op.containerCount ?? (now.count || 1),
      size: op.containerSize ?? now.size,
    });
  }
  return { total: sum(effective), before };
}

function sum(sized: Map<Key, { count: number; size: number }>): number {
  let total = 0;
  for (const { count, size } of sized.values()) total += count * size;
  return total;
}

/** The organization's disk (GB), counting pending operations at their sizes, and with `op`. */
async function diskAfter(tx: DbOrTx, op: PlannedOperation) {
  const rows = await tx
    .select({ databaseId: disks.databaseId, size: disks.size })
    .from(disks)
    .innerJoin(environments, eq(disks.environmentId, environments.id))
    .where(eq(environments.organizationId, op.organizationId));
  const effective = new Map<Key, number>();
  for (const row of rows) effective.set(`d${row.databaseId}`, row.size);
  const keyOf = (resourceType: string, resourceId: number, type: string, opId: number | null): Key | null => {
    if (NEW_DATABASE.has(type)) return `new${opId ?? 'this'}`;
    return resourceType === 'database' ? `d${resourceId}` : null;
  };
  for (const p of await pendingSizing(tx, op.organizationId)) {
    const key = keyOf(p.resourceType, p.resourceId, p.type, p.id);
    if (!key || p.diskSize === null) continue;
    effective.set(key, Math.max(effective.get(key) ?? 0, p.diskSize));
  }
  const total = (map: Map<Key, number>) => [...map.values()].reduce((a, b) => a + b, 0);
  const before = total(effective);
  const key = keyOf(op.resourceType, op.resourceId, op.type, null);
  if (key && op.diskSize != null) effective.set(key, op.diskSize);
  return { total: total(effective), before };
}

/** The organization's queued and running operations that size something. */
function pendingSizing(tx: DbOrTx, organizationId: string) {
  return tx
    .select({
      id: operations.id,
      resourceType: operations.resourceType,
      resourceId: operations.resourceId,
      type: operations.type,
      containerCount: operations.containerCount,
      containerSize: operations.containerSize,
      diskSize: operations.diskSize,
      reservedMemoryMb: operations.reservedMemoryMb,
    })
    .from(operations)
    .where(
      and(
        eq(operations.organizationId, organizationId),
        unfinished,
        or(
          isNotNull(operations.containerCount),
          isNotNull(operations.containerSize),
          isNotNull(operations.diskSize),
          isNotNull(operations.reservedMemoryMb),
        ),
      ),
    );
}
