import {
  DATABASE_DEFAULTS,
  DISK_LIMITS,
  databaseContainerSize,
  databaseHandleSchema,
  databaseMessages,
  diskProblem,
  type OperationBody,
  type OperationTypeOf,
  parsePitrTarget,
  scaleProblem,
} from '@berth/core';
import { eq } from 'drizzle-orm';
import { retentionPolicyInForce } from '../../api/backups/retention-policy.ts';
import type { Db, Tx } from '../../db/client.ts';
import {
  databaseCredentials,
  databaseImages,
  databases,
  disks,
  operations,
  services,
} from '../../db/schema.ts';
import { parseBody, unprocessable } from '../../http/errors.ts';
import type { DatabaseSeed } from '../../runtimes/runtime.ts';
import { failure, type Handler, type OperationFields, type OperationResource } from '../handler.ts';
import type { OperationRow } from '../operations.hal.ts';
import {
  currentPlan,
  type DatabaseRow,
  dependentHandles,
  derivedDatabaseId,
  insertDerivedDatabase,
  loadDatabase,
  plannedSize,
  provisionInto,
  recordBackup,
  recordDatabaseContainers,
  requireProvisioned,
  setDatabaseStatus,
} from './database-provisioning.ts';
import { deprovisionEndpointsOf } from './vhost.ts';

// Operations on databases (contract §6), spec 2 §4 statuses: pending → provisioning → provisioned |
// provision_failed; deprovisioning → (removed) | deprovision_failed. Restarts, scales and backups keep
// the database provisioned.

type DatabaseHandler<T extends OperationTypeOf<'database'>> = Handler<
  DatabaseRow,
  OperationBody<'database', T>
>;

const scaleNeedsChange = 'A scale needs container_size, disk_size, provisioned_iops or instance_profile';

/**
 * The database a replica or a point-in-time restore creates: in its source's environment, from the same
 * image, initialized from it (so it counts as a dependent until unlinked).
 */
async function insertCopyOf(tx: Tx, op: OperationRow, status: 'provisioning' | 'pending'): Promise<void> {
  const [source] = await tx.select().from(databases).where(eq(databases.id, op.resourceId));
  if (!source) return;
  await insertDerivedDatabase(tx, op, {
    environmentId: source.environmentId,
    handle: String(op.parameters?.handle),
    type: source.type,
    databaseImageId: source.databaseImageId,
    initializeFromId: source.id,
    status,
  });
}

/** A new database's handle from an operation body, with the handle rule's own messages. */
function newHandle(handle: string): string {
  return parseBody(databaseHandleSchema, handle);
}

async function imageOf(db: Db, database: DatabaseRow) {
  if (database.databaseImageId === null) return undefined;
  const [image] = await db
    .select()
    .from(databaseImages)
    .where(eq(databaseImages.id, database.databaseImageId));
  return image;
}

/**
 * The size a restart or scale asks for, checked against the database's current one: a container size
 * its profile offers, a disk that only grows, at most once a day, and IOPS the disk can carry.
 */
async function resizeFields(
  db: Db,
  database: DatabaseRow,
  body: { container_size?: number; disk_size?: number; provisioned_iops?: number; instance_profile?: string },
): Promise<OperationFields & { changed: boolean }> {
  requireProvisioned(database);
  const [service] = await db.select().from(services).where(eq(services.databaseId, database.id));
  const [disk] = await db.select().from(disks).where(eq(disks.databaseId, database.id));
  const current = currentPlan({ service, disk });
  const instanceClass = body.instance_profile ?? current.instanceClass;
  const containerSize = body.container_size
    ? databaseContainerSize(database.type, body.container_size)
    : current.containerSizeMb;
  const sizeProblem = scaleProblem({ instanceClass, containerSizeMb: containerSize });
  if (sizeProblem) throw unprocessable(sizeProblem);
  // contract §6: disk_size 0 (or absent) leaves the disk as it is.
  const diskSize = body.disk_size ? body.disk_size : current.diskSizeGb;
  const iops = body.provisioned_iops ?? current.provisionedIops;
  const grows = diskSize !== current.diskSizeGb;
  if (grows || iops !== current.provisionedIops) {
    const problem = diskProblem({ sizeGb: diskSize, iops, currentGb: current.diskSizeGb });
    if (problem) throw unprocessable(problem);
  }
  const dayAgo = Date.now() - DISK_LIMITS.resizeEveryHours * 3_600_000;
  if (grows && disk?.resizedAt && disk.resizedAt.getTime() > dayAgo) {
    throw unprocessable(databaseMessages.diskOncePerDay);
  }
  return {
    containerSize,
    instanceProfile: instanceClass,
    diskSize: grows ? diskSize : null,
    provisionedIops: iops,
    changed:
      grows ||
      iops !== current.provisionedIops ||
      containerSize !== current.containerSizeMb ||
      instanceClass !== current.instanceClass,
  };
}

const provision: DatabaseHandler<'provision'> = {
  async accept(body, database) {
    // spec 2 §4: a database provisions once; the console shows this refusal as a success.
    if (database.provisioned || database.status === 'provisioning') {
      throw unprocessable(databaseMessages.alreadyProvisioned(database.handle));
    }
    const instanceProfile = body.instance_profile ?? DATABASE_DEFAULTS.instanceProfile;
    const containerSize = databaseContainerSize(
      database.type,
      body.container_size ?? DATABASE_DEFAULTS.containerSizeMb,
    );
    const diskSize = body.disk_size || DATABASE_DEFAULTS.diskSizeGb;
    const iops = body.provisioned_iops || DATABASE_DEFAULTS.provisionedIops;
    const problem =
      scaleProblem({ instanceClass: instanceProfile, containerSizeMb: containerSize }) ??
      diskProblem({ sizeGb: diskSize, iops });
    if (problem) throw unprocessable(problem);
    const targetType = body.recovery_target_type ?? null;
    if (targetType === 'time') {
      if (!body.recovery_target) throw unprocessable(databaseMessages.pitrTargetRequired);
      if (!parsePitrTarget(body.recovery_target)) throw unprocessable(databaseMessages.pitrTargetFormat);
    }
    return {
      containerSize,
      diskSize,
      provisionedIops: iops,
      instanceProfile,
      parameters: targetType
        ? { recoveryTargetType: targetType, recoveryTarget: body.recovery_target ?? null }
        : null,
    };
  },
  async onEnqueue(tx, op) {
    await setDatabaseStatus(tx, op.resourceId, 'provisioning');
  },
  async run(ctx) {
    const { database } = await loadDatabase(ctx.db, ctx.op.resourceId);
    const plan = plannedSize(ctx.op, currentPlan({ service: undefined, disk: undefined }));
    let seed: DatabaseSeed = { kind: 'empty' };
    const targetType = ctx.op.parameters?.recoveryTargetType;
    if (targetType) {
      // The second step of a point-in-time restore (spec 2 §4): recover the source into this database.
      if (!database.initializeFromId)
        throw await failure(ctx, `Database ${database.handle} was not created from another database`);
      const source = await loadDatabase(ctx.db, database.initializeFromId).catch(() => null);
      if (!source) throw await failure(ctx, `The source of ${database.handle} no longer exists`);
      const target = ctx.op.parameters?.recoveryTarget;
      seed = {
        kind: 'point_in_time',
        source: source.target,
        at: targetType === 'time' && typeof target === 'string' ? parsePitrTarget(target) : null,
      };
    }
    return provisionInto(ctx, database.id, plan, seed);
  },
  async fail(tx, op) {
    await setDatabaseStatus(tx, op.resourceId, 'provision_failed');
  },
};

/** Restart (optionally resizing), scale and restart onto new hardware share one run. */
function restartDatabase(recreate: boolean): DatabaseHandler<'restart' | 'scale' | 'restart_recreate'> {
  return {
    async accept(body, database, request) {
      const { changed, ...fields } = await resizeFields(request.db, database, body);
      return fields;
    },
    async run(ctx) {
      const loaded = await loadDatabase(ctx.db, ctx.op.resourceId);
      const before = currentPlan(loaded);
      const next = plannedSize(ctx.op, before);
      // spec 2 §4 Last Scale: what it changed from, recorded while the database still has it.
      await ctx.write((tx) =>
        tx
          .update(operations)
          .set({
            previousContainerSize: before.containerSizeMb,
            previousInstanceProfile: before.instanceClass,
          })
          .where(eq(operations.id, ctx.op.id)),
      );
      const diskGrowsTo = next.diskSizeGb > before.diskSizeGb ? next.diskSizeGb : null;
      const started = await ctx.runtime.restartDatabase(ctx, loaded.target, next, { recreate, diskGrowsTo });
      return {
        async succeed(tx) {
          const now = new Date();
          if (loaded.service) {
            await tx
              .update(services)
              .set({
                containerMemoryLimitMb: next.containerSizeMb,
                instanceClass: next.instanceClass,
                updatedAt: now,
              })
              .where(eq(services.id, loaded.service.id));
          }
          await tx
            .update(disks)
            .set({
              size: next.diskSizeGb,
              provisionedIops: next.provisionedIops,
              ...(diskGrowsTo !== null ? { resizedAt: now } : {}),
              updatedAt: now,
            })
            .where(eq(disks.databaseId, loaded.database.id));
          await recordDatabaseContainers(tx, loaded, started);
        },
      };
    },
  };
}

const scale: DatabaseHandler<'scale'> = {
  ...restartDatabase(false),
  async accept(body, database, request) {
    const { changed, ...fields } = await resizeFields(request.db, database, body);
    if (!changed) throw unprocessable(scaleNeedsChange);
    return fields;
  },
};

const recreate: DatabaseHandler<'restart_recreate'> = {
  ...restartDatabase(true),
  async accept(body, database, request) {
    const { changed, ...fields } = await resizeFields(request.db, database, {
      instance_profile: body.instance_profile,
    });
    return fields;
  },
};

const reload: DatabaseHandler<'reload'> = {
  accept(_body, database) {
    requireProvisioned(database);
    return {};
  },
  async run(ctx) {
    const { target } = await loadDatabase(ctx.db, ctx.op.resourceId);
    await ctx.runtime.reloadDatabase(ctx, target);
    return { async succeed() {} };
  },
};

/** A manual backup, or (started by the scheduler, `automated`) an automatic one. */
const backup: DatabaseHandler<'backup'> = {
  accept(_body, database) {
    requireProvisioned(database);
    return {};
  },
  async run(ctx) {
    const loaded = await loadDatabase(ctx.db, ctx.op.resourceId);
    const taken = await ctx.runtime.backupDatabase(ctx, loaded.target);
    return {
      async succeed(tx) {
        await recordBackup(tx, loaded, taken, ctx.op, ctx.op.automated ? 'auto' : 'manual');
      },
    };
  },
};

/** A live copy of a provisioned database: a new database that replicates from it. */
const replicate: DatabaseHandler<'replicate'> = {
  async accept(body, database, request) {
    requireProvisioned(database);
    const handle = newHandle(body.handle);
    const [service] = await request.db.select().from(services).where(eq(services.databaseId, database.id));
    const [disk] = await request.db.select().from(disks).where(eq(disks.databaseId, database.id));
    const current = currentPlan({ service, disk });
    const diskSize = body.disk_size || current.diskSizeGb;
    const problem = diskProblem({ sizeGb: diskSize, currentGb: current.diskSizeGb });
    if (problem) throw unprocessable(problem);
    return {
      containerSize: body.container_size
        ? databaseContainerSize(database.type, body.container_size)
        : current.containerSizeMb,
      diskSize,
      provisionedIops: current.provisionedIops,
      instanceProfile: current.instanceClass,
      parameters: { handle },
    };
  },
  onEnqueue: (tx, op) => insertCopyOf(tx, op, 'provisioning'),
  async run(ctx) {
    const primary = await loadDatabase(ctx.db, ctx.op.resourceId);
    const [credential] = await ctx.db
      .select()
      .from(databaseCredentials)
      .where(eq(databaseCredentials.databaseId, primary.database.id));
    if (!credential) throw await failure(ctx, `Database ${primary.database.handle} has no credentials`);
    const primaryHost = new URL(ctx.secrets.open(credential.connectionUrlSealed)).hostname;
    return provisionInto(ctx, derivedDatabaseId(ctx.op), plannedSize(ctx.op, currentPlan(primary)), {
      kind: 'replica',
      primary: primary.target,
      primaryHost,
    });
  },
  async fail(tx, op) {
    const id = op.parameters?.newDatabaseId;
    if (typeof id === 'number') await setDatabaseStatus(tx, id, 'provision_failed');
  },
};

/**
 * spec 2 §4: the first step of a point-in-time restore creates the new database (initialized from this
 * one); the console then posts `provision` on it with the recovery target.
 */
const pitrRestore: DatabaseHandler<'pitr_restore'> = {
  async accept(body, database, request) {
    requireProvisioned(database);
    const image = await imageOf(request.db, database);
    if (!image?.pitrSupported) throw unprocessable(databaseMessages.pitrNotSupported);
    if (!database.enablePitr) throw unprocessable(databaseMessages.pitrDisabled);
    if (body.recovery_target_type === 'time') {
      if (!body.recovery_target) throw unprocessable(databaseMessages.pitrTargetRequired);
      if (!parsePitrTarget(body.recovery_target)) throw unprocessable(databaseMessages.pitrTargetFormat);
    }
    return {
      parameters: {
        handle: newHandle(body.handle),
        recoveryTargetType: body.recovery_target_type,
        recoveryTarget: body.recovery_target ?? null,
      },
    };
  },
  onEnqueue: (tx, op) => insertCopyOf(tx, op, 'pending'),
  async run(ctx) {
    const { database } = await loadDatabase(ctx.db, ctx.op.resourceId);
    const target = ctx.op.parameters?.recoveryTarget;
    await ctx.log(
      `Created database ${String(ctx.op.parameters?.handle)} to recover ${database.handle} to ${typeof target === 'string' && target ? `${target} (UTC)` : 'the latest point'}`,
    );
    return { async succeed() {} };
  },
};

/** Turns point-in-time recovery backups on or off for one database. */
const configureBackupPolicy: DatabaseHandler<'configure_backup_policy'> = {
  async accept(body, database, request) {
    if (body.enable_pitr) {
      const image = await imageOf(request.db, database);
      if (!image?.pitrSupported) throw unprocessable(databaseMessages.pitrNotSupported);
      if (!database.enableBackups) throw unprocessable(databaseMessages.backupsDisabled);
      const policy = await retentionPolicyInForce(request.db, database.environmentId);
      if (policy.pitrDays === 0) throw unprocessable(databaseMessages.pitrNeedsRetention);
    }
    return { parameters: { enablePitr: body.enable_pitr } };
  },
  async run(ctx) {
    const { database } = await loadDatabase(ctx.db, ctx.op.resourceId);
    const enable = ctx.op.parameters?.enablePitr === true;
    await ctx.log(
      `${enable ? 'Enabling' : 'Disabling'} point-in-time recovery backups of ${database.handle}`,
    );
    return {
      async succeed(tx) {
        await tx
          .update(databases)
          .set({ enablePitr: enable, updatedAt: new Date() })
          .where(eq(databases.id, database.id));
      },
    };
  },
};

const deprovision: DatabaseHandler<'deprovision'> = {
  async accept(_body, database, request) {
    // spec 2 §5: not while other databases depend on it.
    const dependents = await dependentHandles(request.db, database.id);
    if (dependents.length > 0) throw unprocessable(databaseMessages.dependents(dependents));
    return {};
  },
  async onEnqueue(tx, op) {
    await setDatabaseStatus(tx, op.resourceId, 'deprovisioning');
  },
  async run(ctx) {
    const loaded = await loadDatabase(ctx.db, ctx.op.resourceId);
    const { database } = loaded;
    await deprovisionEndpointsOf(ctx, { kind: 'database', id: database.id, handle: database.handle });
    if (database.provisioned) {
      // The retention policy decides whether a Final backup outlives the database (spec 2 §3 keepFinal).
      const policy = await retentionPolicyInForce(ctx.db, database.environmentId);
      if (policy.keepFinal && database.enableBackups) {
        await ctx.log(`Taking a final backup of ${database.handle}`);
        const taken = await ctx.runtime.backupDatabase(ctx, loaded.target);
        // Recorded at once: the data is kept even should the rest of the deprovision fail.
        await ctx.write((tx) => recordBackup(tx, loaded, taken, ctx.op, 'final'));
      }
      await ctx.runtime.deprovisionDatabase(ctx, loaded.target);
    }
    return {
      async succeed(tx) {
        // The service, containers, disk and credentials go with it; its backups stay (orphaned).
        await tx.delete(databases).where(eq(databases.id, database.id));
      },
    };
  },
  async fail(tx, op) {
    await setDatabaseStatus(tx, op.resourceId, 'deprovision_failed');
  },
};

export const databaseOperations: OperationResource<'database', DatabaseRow> = {
  notFound: 'Database',
  readAction: 'database.read',
  load: async (db, id) => (await db.select().from(databases).where(eq(databases.id, id)))[0],
  handle: (database) => database.handle,
  refusal: (database) =>
    database.status === 'deprovisioning' ? `Database ${database.handle} is being deprovisioned` : null,
  handlers: {
    provision,
    restart: restartDatabase(false),
    restart_recreate: recreate,
    reload,
    scale,
    backup,
    replicate,
    pitr_restore: pitrRestore,
    configure_backup_policy: configureBackupPolicy,
    deprovision,
  },
};
