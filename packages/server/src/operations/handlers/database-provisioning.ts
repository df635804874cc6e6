import { DATABASE_DEFAULTS, databaseMessages } from '@berth/core';
import { eq } from 'drizzle-orm';
import { connectionUrl, newDatabaseAccount } from '../../api/databases/connection-url.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import {
  backups,
  databaseCredentials,
  databaseImages,
  databases,
  disks,
  environments,
  operations,
  services,
  stacks,
} from '../../db/schema.ts';
import { unprocessable } from '../../http/errors.ts';
import type {
  ContainerSpec,
  DatabaseBackup,
  DatabasePlan,
  DatabaseSeed,
  DatabaseTarget,
} from '../../runtimes/runtime.ts';
import { RuntimeError } from '../../runtimes/runtime.ts';
import type { HandlerContext, Outcome } from '../handler.ts';
import type { OperationRow } from '../operations.hal.ts';
import { replaceContainers } from './app-services.ts';

// What database, backup and replica operations share: a database's place and size as the runtime sees
// it, provisioning a database (a new one, a replica, a restore), and recording a backup.

export type DatabaseRow = typeof databases.$inferSelect;
export type DiskRow = typeof disks.$inferSelect;

/** A database with its place, image, service and disk, loaded fresh when an operation runs. */
export async function loadDatabase(db: DbOrTx, databaseId: number) {
  const [row] = await db
    .select({ database: databases, environment: environments, stack: stacks, image: databaseImages })
    .from(databases)
    .innerJoin(environments, eq(databases.environmentId, environments.id))
    .innerJoin(stacks, eq(environments.stackId, stacks.id))
    .leftJoin(databaseImages, eq(databases.databaseImageId, databaseImages.id))
    .where(eq(databases.id, databaseId));
  if (!row) throw new RuntimeError(`Database ${databaseId} no longer exists`);
  const [service] = await db.select().from(services).where(eq(services.databaseId, databaseId));
  const [disk] = await db.select().from(disks).where(eq(disks.databaseId, databaseId));
  const target: DatabaseTarget = {
    id: row.database.id,
    handle: row.database.handle,
    type: row.database.type,
    version: row.image?.version ?? '',
    dockerRepo: row.image?.dockerRepo ?? row.database.dockerRepo,
    environmentId: row.environment.id,
    environmentHandle: row.environment.handle,
    stackName: row.stack.name,
    region: row.stack.region,
    internalDomain: row.stack.internalDomain,
  };
  return { ...row, service, disk, target };
}
export type LoadedDatabase = Awaited<ReturnType<typeof loadDatabase>>;

/** The size a database runs at now. */
export function currentPlan(loaded: Pick<LoadedDatabase, 'service' | 'disk'>): DatabasePlan {
  return {
    containerSizeMb: loaded.service?.containerMemoryLimitMb ?? DATABASE_DEFAULTS.containerSizeMb,
    instanceClass: loaded.service?.instanceClass ?? DATABASE_DEFAULTS.instanceProfile,
    diskSizeGb: loaded.disk?.size ?? DATABASE_DEFAULTS.diskSizeGb,
    provisionedIops: loaded.disk?.provisionedIops ?? DATABASE_DEFAULTS.provisionedIops,
  };
}

/** The size an operation asked for, over the database's current one. */
export function plannedSize(op: OperationRow, current: DatabasePlan): DatabasePlan {
  return {
    containerSizeMb: op.containerSize ?? current.containerSizeMb,
    instanceClass: op.instanceProfile ?? current.instanceClass,
    diskSizeGb: op.diskSize || current.diskSizeGb,
    provisionedIops: op.provisionedIops || current.provisionedIops,
  };
}

/** Operations other than provision need a running database. */
export function requireProvisioned(database: DatabaseRow): void {
  if (!database.provisioned) throw unprocessable(databaseMessages.notProvisioned(database.handle));
}

/** Sets a database's status as an operation is queued or ends. */
export async function setDatabaseStatus(tx: Tx, databaseId: number, status: string): Promise<void> {
  await tx.update(databases).set({ status, updatedAt: new Date() }).where(eq(databases.id, databaseId));
}

/**
 * Inserts the record of a database an operation creates (a replica, a point-in-time copy, a restore),
 * refusing a handle taken in its environment, and notes its id on the operation for the run.
 */
export async function insertDerivedDatabase(
  tx: Tx,
  op: OperationRow,
  values: {
    environmentId: number;
    handle: string;
    type: string;
    databaseImageId: number | null;
    initializeFromId: number | null;
    status: string;
  },
): Promise<DatabaseRow> {
  const [created] = await tx.insert(databases).values(values).onConflictDoNothing().returning();
  if (!created) throw unprocessable(databaseMessages.duplicate(values.handle), { handle: ['taken'] });
  await tx
    .update(operations)
    .set({ parameters: { ...op.parameters, newDatabaseId: created.id } })
    .where(eq(operations.id, op.id));
  return created;
}

/** The database an operation created (replicate, pitr_restore, restore), as noted when it was queued. */
export function derivedDatabaseId(op: OperationRow): number {
  const id = op.parameters?.newDatabaseId;
  if (typeof id !== 'number') throw new RuntimeError(`Operation ${op.id} has no database to provision`);
  return id;
}

/**
 * Provisions a database on the runtime from a seed and returns the outcome that records it: its service,
 * container, disk and sealed credentials, and the database marked provisioned. The password is made
 * here, given to the runtime and stored only sealed; it never reaches a log line.
 */
export async function provisionInto(
  ctx: HandlerContext,
  databaseId: number,
  plan: DatabasePlan,
  seed: DatabaseSeed,
): Promise<Outcome> {
  const loaded = await loadDatabase(ctx.db, databaseId);
  const { database, image, target } = loaded;
  const account = newDatabaseAccount();
  const made = await ctx.runtime.provisionDatabase(ctx, target, plan, account, seed);
  const sealedUrl = ctx.secrets.seal(connectionUrl(database.type, account, made.host, made.port));
  return {
    async succeed(tx) {
      const now = new Date();
      let [service] = await tx.select().from(services).where(eq(services.databaseId, database.id));
      if (service) {
        [service] = await tx
          .update(services)
          .set({
            containerMemoryLimitMb: plan.containerSizeMb,
            instanceClass: plan.instanceClass,
            updatedAt: now,
          })
          .where(eq(services.id, service.id))
          .returning();
      } else {
        [service] = await tx
          .insert(services)
          .values({
            environmentId: database.environmentId,
            databaseId: database.id,
            handle: database.type,
            processType: 'database',
            containerCount: 1,
            containerMemoryLimitMb: plan.containerSizeMb,
            instanceClass: plan.instanceClass,
          })
          .returning();
      }
      if (!service) throw new Error('Database service insert returned nothing');
      await replaceContainers(tx, service, made.containers, {
        dockerRepo: target.dockerRepo,
        dockerRef: image?.version ?? '',
      });
      const diskValues = {
        size: plan.diskSizeGb,
        provisionedIops: plan.provisionedIops,
        baselineIops: 3000,
        device: made.disk.device,
        host: made.disk.host,
        availabilityZone: made.disk.availabilityZone,
        ebsVolumeId: made.disk.volumeId,
        instanceId: made.disk.instanceId,
        keyBytes: made.disk.keyBytes,
        attached: true,
        updatedAt: now,
      };
      await tx
        .insert(disks)
        .values({
          ...diskValues,
          databaseId: database.id,
          environmentId: database.environmentId,
          handle: `${database.handle}-data`,
        })
        .onConflictDoUpdate({ target: disks.databaseId, set: diskValues });
      await tx
        .insert(databaseCredentials)
        .values({
          databaseId: database.id,
          type: database.type,
          isDefault: true,
          connectionUrlSealed: sealedUrl,
        })
        .onConflictDoUpdate({
          target: [databaseCredentials.databaseId, databaseCredentials.type],
          set: { connectionUrlSealed: sealedUrl, updatedAt: now },
        });
      await tx
        .update(databases)
        .set({
          status: 'provisioned',
          provisioned: true,
          serviceId: service.id,
          dockerRepo: target.dockerRepo,
          portMapping: [[made.port, made.port]],
          updatedAt: now,
        })
        .where(eq(databases.id, database.id));
    },
  };
}

/** Containers the runtime started, recorded on a database's service in place of the old ones. */
export async function recordDatabaseContainers(
  tx: Tx,
  loaded: Pick<LoadedDatabase, 'service'>,
  started: ContainerSpec[],
): Promise<void> {
  if (loaded.service) await replaceContainers(tx, loaded.service, started);
}

/** Records a backup the runtime took of a database. */
export async function recordBackup(
  tx: Tx,
  loaded: LoadedDatabase,
  taken: DatabaseBackup,
  op: OperationRow,
  kind: 'manual' | 'auto' | 'final',
): Promise<void> {
  await tx.insert(backups).values({
    environmentId: loaded.database.environmentId,
    databaseId: loaded.database.id,
    databaseHandle: loaded.database.handle,
    databaseType: loaded.database.type,
    databaseImageId: loaded.database.databaseImageId,
    kind,
    sizeGb: taken.sizeGb,
    diskSizeGb: loaded.disk?.size ?? DATABASE_DEFAULTS.diskSizeGb,
    awsRegion: loaded.stack.region,
    createdByEmail: op.userEmail,
    createdFromOperationId: op.id,
    storageRef: taken.storageRef,
  });
}

/** Handles of the databases that depend on this one (replicas and copies not yet unlinked). */
export async function dependentHandles(db: DbOrTx, databaseId: number): Promise<string[]> {
  const rows = await db
    .select({ handle: databases.handle })
    .from(databases)
    .where(eq(databases.initializeFromId, databaseId))
    .orderBy(databases.id);
  return rows.map((row) => row.handle);
}
