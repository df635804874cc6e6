import { type BackupRetentionPolicyInput, backupRetentionPolicySchema } from '@berth/core';
import { and, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { backupRetentionPolicies, backups, databases } from '../../db/schema.ts';
import { type Page, selectPage } from '../../db/select-page.ts';
import { parseBody } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import { createAccess } from '../access/access.ts';
import type { BackupRow, RetentionPolicyRow } from '../databases/databases.hal.ts';
import { defaultRetentionPolicy } from './retention-policy.ts';

/** Backups and the retention policies that keep them (contract §5.8). Lists are newest first. */
export function createBackupsService(deps: { db: Db }) {
  const { db } = deps;
  const access = createAccess(db);

  const page = (where: SQL | undefined, paging: Paging): Promise<Page<BackupRow>> =>
    selectPage(db, backups, { where, orderBy: [desc(backups.createdAt), desc(backups.id)], paging });

  return {
    /** Backups of every environment the caller may see. */
    async list(ref: CallerRef, paging: Paging) {
      const environmentIds = await access.readableEnvironmentIds(await access.caller(ref), 'backup.read');
      return page(inArray(backups.environmentId, environmentIds), paging);
    },

    /** An environment's backups; `orphaned` keeps only those whose database is gone. */
    async listInEnvironment(ref: CallerRef, environmentId: number | null, paging: Paging, orphaned: boolean) {
      const environment = await access.environment(await access.caller(ref), environmentId, 'backup.read');
      const inEnvironment = eq(backups.environmentId, environment.id);
      return page(orphaned ? and(inEnvironment, isNull(backups.databaseId)) : inEnvironment, paging);
    },

    async listForDatabase(ref: CallerRef, databaseId: number | null, paging: Paging) {
      const [database] =
        databaseId === null ? [] : await db.select().from(databases).where(eq(databases.id, databaseId));
      const { row } = await access.resource(await access.caller(ref), database, 'backup.read', 'Database');
      return page(eq(backups.databaseId, row.id), paging);
    },

    async get(ref: CallerRef, id: number | null): Promise<BackupRow> {
      const [backup] = id === null ? [] : await db.select().from(backups).where(eq(backups.id, id));
      return (await access.resource(await access.caller(ref), backup, 'backup.read', 'Backup')).row;
    },

    /**
     * An environment's retention policies, newest (the one in force) first. An environment that never had
     * one is given the defaults first, so there is always a policy in force to show and edit.
     */
    async policies(
      ref: CallerRef,
      environmentId: number | null,
      paging: Paging,
    ): Promise<Page<RetentionPolicyRow>> {
      const environment = await access.environment(
        await access.caller(ref),
        environmentId,
        'backup_retention_policy.read',
      );
      const where = eq(backupRetentionPolicies.environmentId, environment.id);
      const [existing] = await db
        .select({ id: backupRetentionPolicies.id })
        .from(backupRetentionPolicies)
        .where(where)
        .limit(1);
      if (!existing) await db.insert(backupRetentionPolicies).values(defaultRetentionPolicy(environment.id));
      return selectPage(db, backupRetentionPolicies, {
        where,
        orderBy: [desc(backupRetentionPolicies.id)],
        paging,
      });
    },

    /** A new policy in force (spec 2 §5 rules checked by the schema). */
    async createPolicy(
      ref: CallerRef,
      environmentId: number | null,
      body: unknown,
    ): Promise<RetentionPolicyRow> {
      const environment = await access.environment(
        await access.caller(ref),
        environmentId,
        'backup_retention_policy.create',
      );
      const input: BackupRetentionPolicyInput = parseBody(backupRetentionPolicySchema, body);
      return db.transaction(async (tx) => {
        const [created] = await tx
          .insert(backupRetentionPolicies)
          .values({
            environmentId: environment.id,
            daily: input.daily,
            monthly: input.monthly,
            yearly: input.yearly,
            pitrDays: input.pitr_days,
            makeCopy: input.make_copy,
            keepFinal: input.keep_final,
          })
          .returning();
        if (!created) throw new Error('Retention policy insert returned nothing');
        // spec 2 §5: a retention of 0 days leaves no point-in-time recovery to keep.
        if (input.pitr_days === 0) {
          await tx
            .update(databases)
            .set({ enablePitr: false, updatedAt: new Date() })
            .where(and(eq(databases.environmentId, environment.id), eq(databases.enablePitr, true)));
        }
        return created;
      });
    },
  };
}
export type BackupsService = ReturnType<typeof createBackupsService>;
