import { createMetricDrainSchema, metricDrainMessages } from '@berth/core';
import { and, eq, inArray } from 'drizzle-orm';
import type { CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { databases, metricDrains } from '../../db/schema.ts';
import { type Page, selectPage } from '../../db/select-page.ts';
import { parseBody, unprocessable } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { createAccess } from '../access/access.ts';
import { deleteUnlessShipping } from '../drains/drain-records.ts';
import type { MetricDrainRow } from './metric-drains.hal.ts';

export interface MetricDrainView {
  drain: MetricDrainRow;
  configuration: Record<string, string>;
}

export const duplicateMetricDrain = (handle: string) =>
  `A metric drain named ${handle} already exists in this environment`;

/** Metric drains (contract §5.10): created per environment, then provisioned; configuration sealed. */
export function createMetricDrainsService(deps: { db: Db; box: SecretBox }) {
  const { db, box } = deps;
  const access = createAccess(db);

  const view = (drain: MetricDrainRow): MetricDrainView => ({
    drain,
    configuration: drain.configurationSealed
      ? (JSON.parse(box.open(drain.configurationSealed)) as Record<string, string>)
      : {},
  });

  async function page(where: ReturnType<typeof eq>, paging: Paging | null): Promise<Page<MetricDrainView>> {
    const { items, paging: window } = await selectPage(db, metricDrains, {
      where,
      orderBy: [metricDrains.id],
      paging,
    });
    return { items: items.map(view), paging: window };
  }

  async function load(
    ref: CallerRef,
    id: number | null,
    action: 'metric_drain.read' | 'metric_drain.delete',
  ) {
    const [found] = id === null ? [] : await db.select().from(metricDrains).where(eq(metricDrains.id, id));
    return (await access.resource(await access.caller(ref), found, action, 'Metric drain')).row;
  }

  return {
    view,

    async list(ref: CallerRef, paging: Paging | null) {
      const ids = await access.readableEnvironmentIds(await access.caller(ref), 'metric_drain.read');
      return page(inArray(metricDrains.environmentId, ids), paging);
    },

    async listInEnvironment(ref: CallerRef, environmentId: number | null, paging: Paging | null) {
      const environment = await access.environment(
        await access.caller(ref),
        environmentId,
        'metric_drain.read',
      );
      return page(eq(metricDrains.environmentId, environment.id), paging);
    },

    async get(ref: CallerRef, id: number | null) {
      return view(await load(ref, id, 'metric_drain.read'));
    },

    /** The body is read only once the caller may create drains in the environment (404 or 403 first). */
    async create(ref: CallerRef, environmentId: number | null, body: unknown): Promise<MetricDrainView> {
      const caller = await access.caller(ref);
      const environment = await access.environment(caller, environmentId, 'metric_drain.create');
      const input = parseBody(createMetricDrainSchema, body);
      const given = input.drain_configuration ?? {};
      const configuration: Record<string, string> = {};
      const keys: Record<string, string[]> = {
        influxdb: ['address', 'username', 'password', 'database'],
        influxdb2: ['address', 'org', 'authToken', 'bucket'],
        datadog: ['api_key', 'series_url'],
        influxdb_database: [],
      };
      for (const key of keys[input.drain_type] ?? []) {
        const value = (given as Record<string, string | undefined>)[key];
        if (value !== undefined) configuration[key] = key === 'password' ? value : value.trim();
      }
      let databaseId: number | null = null;
      if (input.drain_type === 'influxdb_database') {
        const id = parseNumericId(String(input.database_id ?? ''));
        const [database] =
          id === null
            ? []
            : await db
                .select()
                .from(databases)
                .where(and(eq(databases.id, id), eq(databases.environmentId, environment.id)));
        if (database?.type !== 'influxdb')
          throw unprocessable(metricDrainMessages.influxDatabase('InfluxDB'));
        databaseId = database.id;
      }
      try {
        const [created] = await db
          .insert(metricDrains)
          .values({
            environmentId: environment.id,
            handle: input.handle,
            drainType: input.drain_type,
            address: configuration.address ?? configuration.series_url ?? '',
            configurationSealed: box.seal(JSON.stringify(configuration)),
            databaseId,
          })
          .returning();
        if (!created) throw new Error('Metric drain insert returned nothing');
        return view(created);
      } catch (error) {
        if (isUniqueViolation(error)) throw unprocessable(duplicateMetricDrain(input.handle));
        throw error;
      }
    },

    async remove(ref: CallerRef, id: number | null): Promise<void> {
      const row = await load(ref, id, 'metric_drain.delete');
      await deleteUnlessShipping(db, metricDrains, row.id, metricDrainMessages.deprovisionFirst);
    },
  };
}
export type MetricDrainsService = ReturnType<typeof createMetricDrainsService>;
