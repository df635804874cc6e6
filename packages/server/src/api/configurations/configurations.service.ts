import {
  MAX_SENSITIVE_ENV_KEYS,
  type MarkSensitiveEnvKeysInput,
  sensitiveEnvKeysMessages,
} from '@berth/core';
import { asc, count, eq } from 'drizzle-orm';
import type { CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { apps as appsTable, configurations, sensitiveEnvKeys } from '../../db/schema.ts';
import { unprocessable } from '../../http/errors.ts';
import type { AppsService } from '../apps/apps.service.ts';

/** An app's sensitive variable names (issue 41), in name order. */
export interface SensitiveEnvKeysView {
  appId: number;
  keys: string[];
}

/** Configurations belong to an app; their values are sensitive (`app.configuration.read` needs read, spec 1 §6). */
export function createConfigurationsService(deps: { db: Db; apps: AppsService }) {
  const { db, apps } = deps;

  async function keysOf(executor: Pick<Db, 'select'>, appId: number): Promise<string[]> {
    const rows = await executor
      .select({ key: sensitiveEnvKeys.key })
      .from(sensitiveEnvKeys)
      .where(eq(sensitiveEnvKeys.appId, appId))
      .orderBy(asc(sensitiveEnvKeys.key));
    return rows.map((row) => row.key);
  }

  return {
    get(ref: CallerRef, id: number | null) {
      return apps.getOwned(ref, configurations, id, 'app.configuration.read', 'Configuration');
    },

    /** Which variables are sensitive: read with the configuration's own rule, as names of its values. */
    async sensitiveKeys(ref: CallerRef, appId: number | null): Promise<SensitiveEnvKeysView> {
      const app = await apps.load(await apps.access.caller(ref), appId, 'app.configuration.read');
      return { appId: app.id, keys: await keysOf(db, app.id) };
    },

    /**
     * Marks variables sensitive, with the rule of configuring the app (deploy). Only ever adds, and a name
     * stays marked for good: the app's older configurations (a deployment's Config tab) keep their values,
     * and a configure queued earlier must not unmark a name marked since. A name may precede its variable,
     * so the console marks first and then configures: a failed configure leaves a name marked, never a
     * value bare. Answers the names it was given: the whole list is for readers (deploy alone is not one).
     */
    async markSensitive(
      ref: CallerRef,
      appId: number | null,
      input: MarkSensitiveEnvKeysInput,
    ): Promise<SensitiveEnvKeysView> {
      const app = await apps.load(await apps.access.caller(ref), appId, 'app.configure');
      const keys = [...new Set(input.keys)];
      return db.transaction(async (tx) => {
        // Serializes marks of one app, so two at once cannot both pass the cap.
        await tx.select({ id: appsTable.id }).from(appsTable).where(eq(appsTable.id, app.id)).for('update');
        await tx
          .insert(sensitiveEnvKeys)
          .values(keys.map((key) => ({ appId: app.id, key })))
          .onConflictDoNothing();
        const [total] = await tx
          .select({ value: count() })
          .from(sensitiveEnvKeys)
          .where(eq(sensitiveEnvKeys.appId, app.id));
        if ((total?.value ?? 0) > MAX_SENSITIVE_ENV_KEYS)
          throw unprocessable(sensitiveEnvKeysMessages.tooMany);
        return { appId: app.id, keys: keys.sort() };
      });
    },
  };
}
export type ConfigurationsService = ReturnType<typeof createConfigurationsService>;
