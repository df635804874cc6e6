import { and, eq, inArray, isNotNull, or } from 'drizzle-orm';
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

const PENDING = ['queued', 'running'];
/** Operations that make a new database (its service and disk come with it). */
const NEW_DATABASE = new Set(['restore', 'pitr_restore']);

/**
 * The plan's limits on what operations size and make: container profiles, container memory and disk in
 * the whole organization, manual and automated backups per database. Called in the transaction that
 * queues the operation, under the organization's lock (planLimits): queued and running operations count
 * at the sizes they asked for, so two parallel requests at the last slot never both pass. Shrinking is
 * never refused, so an organization over a lowered plan can always come back under it.
 */
export async function checkOperationPlan(tx: DbOrTx, op: PlannedOperation): Promise<void> {
  const sizes = op.containerSize != null || op.containerCount != null;
  const backup = op.resourceType === 'database' && op.type === 'backup';
  if (!sizes && op.diskSize == null && !op.instanceProfile && !backup) return;
  const limits = await planLimits(tx, op.organizationId);
  if (op.instanceProfile) limits.requireProfile(op.instanceProfile);
  if (backup) {
    const kind = op.automated ? 'auto' : 'manual';
    const [made, pending] = await Promise.all([
      tx
        .select({ id: backups.id })
        .from(backups)
        .where(and(eq(backups.databaseId, op.resourceId), eq(backups.kind, kind))),
      tx
        .select({ id: operations.id })
        .from(operations)
        .where(
          and(
            eq(operations.resourceType, 'database'),
            eq(operations.resourceId, op.resourceId),
            eq(operations.type, 'backup'),
            eq(operations.automated, op.automated),
            inArray(operations.status, PENDING),
          ),
        ),
    ]);
    limits.requireCount(
      op.automated ? 'automatedBackups' : 'manualBackups',
      made.length + pending.length + 1,
    );
  }
  if (sizes) {
    const { total, before } = await memoryAfter(tx, op);
    if (total > before) limits.requireCount('containerMemory', total);
  }
  if (op.diskSize != null) {
    const { total, before } = await diskAfter(tx, op);
    if (total > before) limits.requireCount('disk', total);
  }
}

/** A key per sized thing: a service, or a database not made yet (by the operation that makes it). */
type Key = string;

/** The organization's container memory (MB) now, counting pending operations at their sizes, and with `op`. */
async function memoryAfter(tx: DbOrTx, op: PlannedOperation) {
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
    const key = keyOf(p.resourceType, p.resourceId, p.type, p.id);
    if (!key || (p.containerSize === null && p.containerCount === null)) continue;
    const now = effective.get(key) ?? { count: 0, size: 0 };
    const asked = { count: p.containerCount ?? (now.count || 1), size: p.containerSize ?? now.size };
    // A pending operation holds the larger of what is and what it asked for until it ends.
    if (asked.count * asked.size > now.count * now.size) effective.set(key, asked);
  }
  const before = sum(effective);
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
    })
    .from(operations)
    .where(
      and(
        eq(operations.organizationId, organizationId),
        inArray(operations.status, PENDING),
        or(
          isNotNull(operations.containerCount),
          isNotNull(operations.containerSize),
          isNotNull(operations.diskSize),
        ),
      ),
    );
}
