import type { OperationBody, OperationTypeOf } from '@berth/core';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { databaseCredentials, databases, logDrains } from '../../db/schema.ts';
import { tlsReachable } from '../../drains/log-delivery.ts';
import { failure, type Handler, type OperationResource } from '../handler.ts';
import type { OperationRow } from '../operations.hal.ts';

// Operations on log drains (contract §6): provision (checks the destination answers, then the shipper
// sends to it), configure (a restart: shipping starts again from what was delivered), deprovision (the
// shipping stops and the drain goes). Statuses as spec 2 §4 gives them.

export type LogDrainRow = typeof logDrains.$inferSelect;
type LogDrainHandler<T extends OperationTypeOf<'log_drain'>> = Handler<
  LogDrainRow,
  OperationBody<'log_drain', T>
>;

async function setStatus(tx: Tx, op: OperationRow, status: string) {
  await tx.update(logDrains).set({ status, updatedAt: new Date() }).where(eq(logDrains.id, op.resourceId));
}

const provision: LogDrainHandler<'provision'> = {
  async onEnqueue(tx, op) {
    await setStatus(tx, op, 'provisioning');
  },
  async run(ctx) {
    const [drain] = await ctx.db.select().from(logDrains).where(eq(logDrains.id, ctx.op.resourceId));
    if (!drain) throw await failure(ctx, `Log drain ${ctx.op.resourceId} no longer exists`);
    if (drain.drainType === 'elasticsearch_database') {
      const [database] = drain.databaseId
        ? await ctx.db
            .select({ handle: databases.handle, credential: databaseCredentials.id })
            .from(databases)
            .innerJoin(databaseCredentials, eq(databaseCredentials.databaseId, databases.id))
            .where(and(eq(databases.id, drain.databaseId), eq(databases.status, 'provisioned')))
        : [];
      if (!database) throw await failure(ctx, 'The Elasticsearch database of this drain is not provisioned');
      await ctx.log(`Shipping to Elasticsearch database ${database.handle}`);
    } else {
      const port = drain.drainPort ?? 6514;
      await ctx.log(`Checking that ${drain.drainHost}:${port} answers over TLS`);
      const problem = await tlsReachable(drain.drainHost, port, ctx.drainTls);
      if (problem) throw await failure(ctx, problem);
    }
    const sources = [drain.drainApps && 'apps', drain.drainDatabases && 'databases'].filter(Boolean);
    await ctx.log(`Log drain ${drain.handle} ships the logs of: ${sources.join(', ') || 'nothing'}`);
    if (drain.drainEphemeralSessions || drain.drainProxies)
      await ctx.log('SSH session and endpoint logs are not shipped by this installation yet', 'WARN');
    return {
      async succeed(tx) {
        await tx
          .update(logDrains)
          .set({
            status: 'provisioned',
            // Shipping starts now: what ran before the drain existed is not sent.
            shippedUntil: drain.shippedUntil ?? new Date(),
            lastError: '',
            failures: 0,
            retryAt: null,
            updatedAt: new Date(),
          })
          .where(eq(logDrains.id, drain.id));
      },
    };
  },
  async fail(tx, op) {
    await setStatus(tx, op, 'provision_failed');
  },
};

/** A restart: the retry wait is cleared, so the next pass tries at once. */
const configure: LogDrainHandler<'configure'> = {
  async run(ctx) {
    await ctx.log('Restarting the shipping of the log drain');
    return {
      async succeed(tx) {
        await tx
          .update(logDrains)
          .set({ retryAt: null, failures: 0, updatedAt: new Date() })
          .where(eq(logDrains.id, ctx.op.resourceId));
      },
    };
  },
};

const deprovision: LogDrainHandler<'deprovision'> = {
  async onEnqueue(tx, op) {
    await setStatus(tx, op, 'deprovisioning');
  },
  async run(ctx) {
    await ctx.log('Stopping the shipping of the log drain');
    return {
      async succeed(tx) {
        await tx.delete(logDrains).where(eq(logDrains.id, ctx.op.resourceId));
      },
    };
  },
  async fail(tx, op) {
    await setStatus(tx, op, 'deprovision_failed');
  },
};

export const logDrainOperations: OperationResource<'log_drain', LogDrainRow> = {
  notFound: 'Log drain',
  readAction: 'log_drain.read',
  load: async (db, id) => (await db.select().from(logDrains).where(eq(logDrains.id, id)))[0],
  handle: (drain) => drain.handle,
  refusal: (drain) =>
    drain.status === 'provisioning' || drain.status === 'deprovisioning'
      ? `Log drain ${drain.handle} is ${drain.status}; wait until its operation ends`
      : null,
  handlers: { provision, configure, deprovision },
};
