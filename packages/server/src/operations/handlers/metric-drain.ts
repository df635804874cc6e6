import type { OperationBody, OperationTypeOf } from '@berth/core';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { databaseCredentials, databases, metricDrains } from '../../db/schema.ts';
import { tlsReachable } from '../../drains/log-delivery.ts';
import { tcpReachable } from '../../drains/post.ts';
import { failure, type Handler, type OperationResource } from '../handler.ts';
import type { OperationRow } from '../operations.hal.ts';

// Operations on metric drains (contract §6): provision (checks the destination answers, then the shipper
// sends to it every minute; posted again, it is the drain's restart), deprovision (the drain goes).

export type MetricDrainRow = typeof metricDrains.$inferSelect;
type MetricDrainHandler<T extends OperationTypeOf<'metric_drain'>> = Handler<
  MetricDrainRow,
  OperationBody<'metric_drain', T>
>;

async function setStatus(tx: Tx, op: OperationRow, status: string) {
  await tx
    .update(metricDrains)
    .set({ status, updatedAt: new Date() })
    .where(eq(metricDrains.id, op.resourceId));
}

const provision: MetricDrainHandler<'provision'> = {
  async onEnqueue(tx, op) {
    await setStatus(tx, op, 'provisioning');
  },
  async run(ctx) {
    const [drain] = await ctx.db.select().from(metricDrains).where(eq(metricDrains.id, ctx.op.resourceId));
    if (!drain) throw await failure(ctx, `Metric drain ${ctx.op.resourceId} no longer exists`);
    if (drain.drainType === 'influxdb_database') {
      const [database] = drain.databaseId
        ? await ctx.db
            .select({ handle: databases.handle })
            .from(databases)
            .innerJoin(databaseCredentials, eq(databaseCredentials.databaseId, databases.id))
            .where(and(eq(databases.id, drain.databaseId), eq(databases.status, 'provisioned')))
        : [];
      if (!database) throw await failure(ctx, 'The InfluxDB database of this drain is not provisioned');
      await ctx.log(`Sending metrics to InfluxDB database ${database.handle}`);
    } else {
      const url = new URL(drain.address);
      const port = Number(url.port) || (url.protocol === 'http:' ? 80 : 443);
      await ctx.log(`Checking that ${url.hostname}:${port} answers`);
      const problem =
        url.protocol === 'http:'
          ? await tcpReachable(url.hostname, port, ctx.drainTls)
          : await tlsReachable(url.hostname, port, ctx.drainTls);
      if (problem) throw await failure(ctx, problem);
    }
    await ctx.log(`Metric drain ${drain.handle} receives each container's memory, CPU and disk every minute`);
    return {
      async succeed(tx) {
        await tx
          .update(metricDrains)
          .set({ status: 'provisioned', lastError: '', failures: 0, retryAt: null, updatedAt: new Date() })
          .where(eq(metricDrains.id, drain.id));
      },
    };
  },
  async fail(tx, op) {
    await setStatus(tx, op, 'provision_failed');
  },
};

const deprovision: MetricDrainHandler<'deprovision'> = {
  async onEnqueue(tx, op) {
    await setStatus(tx, op, 'deprovisioning');
  },
  async run(ctx) {
    await ctx.log('Stopping the metrics of the drain');
    return {
      async succeed(tx) {
        await tx.delete(metricDrains).where(eq(metricDrains.id, ctx.op.resourceId));
      },
    };
  },
  async fail(tx, op) {
    await setStatus(tx, op, 'deprovision_failed');
  },
};

export const metricDrainOperations: OperationResource<'metric_drain', MetricDrainRow> = {
  notFound: 'Metric drain',
  readAction: 'metric_drain.read',
  load: async (db, id) => (await db.select().from(metricDrains).where(eq(metricDrains.id, id)))[0],
  handle: (drain) => drain.handle,
  refusal: (drain) =>
    drain.status === 'provisioning' || drain.status === 'deprovisioning'
      ? `Metric drain ${drain.handle} is ${drain.status}; wait until its operation ends`
      : null,
  handlers: { provision, deprovision },
};
