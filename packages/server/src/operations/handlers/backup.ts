import {
  DATABASE_DEFAULTS,
  databaseContainerSize,
  databaseHandleSchema,
  databaseMessages,
  diskProblem,
  type OperationBody,
  type OperationTypeOf,
  scaleProblem,
} from '@berth/core';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { backups, environments } from '../../db/schema.ts';
import { parseBody, unprocessable } from '../../http/errors.ts';
import { parseNumericId } from '../../http/ids.ts';
import { RuntimeError } from '../../runtimes/runtime.ts';
import type { Handler, OperationResource } from '../handler.ts';
import {
  derivedDatabaseId,
  insertDerivedDatabase,
  plannedSize,
  provisionInto,
  setDatabaseStatus,
} from './database-provisioning.ts';

// Operations on backups (contract §6): `purge` deletes one, `restore` provisions a new database from it,
// in its environment or another of the same organization the caller may create databases in.

export type BackupRow = typeof backups.$inferSelect;
type BackupHandler<T extends OperationTypeOf<'backup'>> = Handler<BackupRow, OperationBody<'backup', T>>;

async function loadBackup(db: Db, backupId: number): Promise<BackupRow> {
  const [backup] = await db.select().from(backups).where(eq(backups.id, backupId));
  if (!backup) throw new RuntimeError(`Backup ${backupId} no longer exists`);
  return backup;
}

const purge: BackupHandler<'purge'> = {
  async run(ctx) {
    const backup = await loadBackup(ctx.db, ctx.op.resourceId);
    await ctx.runtime.deleteBackup(ctx, backup.storageRef);
    return {
      async succeed(tx) {
        await tx.delete(backups).where(eq(backups.id, backup.id));
      },
    };
  },
};

const restore: BackupHandler<'restore'> = {
  async accept(body, backup, request) {
    const handle = parseBody(databaseHandleSchema, body.handle);
    const destinationId =
      body.destination_account_id === undefined
        ? backup.environmentId
        : parseNumericId(body.destination_account_id);
    const destination = await request.environment(destinationId, 'database.create');
    const [source] = await request.db
      .select()
      .from(environments)
      .where(eq(environments.id, backup.environmentId));
    if (destination.organizationId !== source?.organizationId) {
      throw unprocessable(databaseMessages.restoreOtherOrganization);
    }
    // A restore needs room for the data: at least the disk the backup was taken from.
    const diskSize = Math.max(body.disk_size || DATABASE_DEFAULTS.diskSizeGb, backup.diskSizeGb);
    const containerSize = databaseContainerSize(
      backup.databaseType,
      body.containerSize ?? body.container_size ?? DATABASE_DEFAULTS.containerSizeMb,
    );
    const problem =
      scaleProblem({ instanceClass: DATABASE_DEFAULTS.instanceProfile, containerSizeMb: containerSize }) ??
      diskProblem({ sizeGb: diskSize });
    if (problem) throw unprocessable(problem);
    return {
      containerSize,
      diskSize,
      provisionedIops: DATABASE_DEFAULTS.provisionedIops,
      instanceProfile: DATABASE_DEFAULTS.instanceProfile,
      parameters: { handle, destinationEnvironmentId: destination.id },
    };
  },
  async onEnqueue(tx, op) {
    const [backup] = await tx.select().from(backups).where(eq(backups.id, op.resourceId));
    const destinationId = op.parameters?.destinationEnvironmentId;
    if (!backup || typeof destinationId !== 'number') return;
    await insertDerivedDatabase(tx, op, {
      environmentId: destinationId,
      handle: String(op.parameters?.handle),
      type: backup.databaseType,
      databaseImageId: backup.databaseImageId,
      initializeFromId: null,
      status: 'provisioning',
    });
  },
  async run(ctx) {
    const backup = await loadBackup(ctx.db, ctx.op.resourceId);
    const plan = plannedSize(ctx.op, {
      containerSizeMb: DATABASE_DEFAULTS.containerSizeMb,
      instanceClass: DATABASE_DEFAULTS.instanceProfile,
      diskSizeGb: DATABASE_DEFAULTS.diskSizeGb,
      provisionedIops: DATABASE_DEFAULTS.provisionedIops,
    });
    await ctx.log(
      `Restoring backup ${backup.id} of ${backup.databaseHandle} into ${String(ctx.op.parameters?.handle)}`,
    );
    return provisionInto(ctx, derivedDatabaseId(ctx.op), plan, {
      kind: 'backup',
      storageRef: backup.storageRef,
    });
  },
  async fail(tx, op) {
    const id = op.parameters?.newDatabaseId;
    if (typeof id === 'number') await setDatabaseStatus(tx, id, 'provision_failed');
  },
};

export const backupOperations: OperationResource<'backup', BackupRow> = {
  notFound: 'Backup',
  readAction: 'backup.read',
  load: async (db, id) => (await db.select().from(backups).where(eq(backups.id, id)))[0],
  handle: (backup) => `${backup.databaseHandle} backup ${backup.id}`,
  handlers: { purge, restore },
};
