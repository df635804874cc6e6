import { type OperationBody, type OperationTypeOf, operationTypeMessages, scaleProblem } from '@berth/core';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { operations, services } from '../../db/schema.ts';
import { unprocessable } from '../../http/errors.ts';
import { RuntimeError } from '../../runtimes/runtime.ts';
import { failure, type Handler, type OperationResource } from '../handler.ts';
import { currentEnv, loadApp, plan, recordsOf, replaceContainers, type ServiceRow } from './app-services.ts';

type ServiceHandler<T extends OperationTypeOf<'service'>> = Handler<ServiceRow, OperationBody<'service', T>>;

async function loadService(db: Db, serviceId: number) {
  const [service] = await db.select().from(services).where(eq(services.id, serviceId));
  if (!service?.appId) throw new RuntimeError(`Service ${serviceId} no longer exists`);
  return { service, ...(await loadApp(db, service.appId)) };
}

const scaleService: ServiceHandler<'scale'> = {
  accept(body, service) {
    const problem = scaleProblem({
      instanceClass: body.instance_profile ?? service.instanceClass,
      containerCount: body.container_count,
      // A new profile is checked against the size the service keeps when no new size is given.
      containerSizeMb: body.container_size ?? service.containerMemoryLimitMb,
    });
    if (problem) throw unprocessable(problem);
    if (body.container_count === undefined && body.container_size === undefined && !body.instance_profile) {
      throw unprocessable(operationTypeMessages.scaleNeedsChange);
    }
    return {
      containerCount: body.container_count ?? null,
      containerSize: body.container_size ?? null,
      instanceProfile: body.instance_profile ?? null,
    };
  },
  async run(ctx) {
    const { service, app, target } = await loadService(ctx.db, ctx.op.resourceId);
    // The autoscaler's reason leads its scale's log, as it leads the operation's note.
    if (ctx.op.automated && ctx.op.note) await ctx.log(ctx.op.note);
    // spec 2 §4: the Last Scale banner reads "from" and "to"; the service's size before the change is
    // recorded on the operation now, while the service still holds it.
    await ctx.write((tx) =>
      tx
        .update(operations)
        .set({
          previousContainerCount: service.containerCount,
          previousContainerSize: service.containerMemoryLimitMb,
          previousInstanceProfile: service.instanceClass,
        })
        .where(eq(operations.id, ctx.op.id)),
    );
    const next = {
      ...plan(service, await recordsOf(ctx.db, [service.id])),
      containerCount: ctx.op.containerCount ?? service.containerCount,
      memoryLimitMb: ctx.op.containerSize ?? service.containerMemoryLimitMb,
      instanceClass: ctx.op.instanceProfile ?? service.instanceClass,
    };
    await ctx.log(
      `Scaling ${service.handle} from ${service.containerCount} × ${service.containerMemoryLimitMb} MB (${service.instanceClass}) to ${next.containerCount} × ${next.memoryLimitMb} MB (${next.instanceClass})`,
    );
    // Scaled to zero, the roll-out starts nothing and stops the running containers.
    const started = service.currentReleaseId
      ? await ctx.runtime.rollOut(ctx, target, next, service, await currentEnv(ctx.db, app))
      : [];
    return {
      async succeed(tx) {
        await tx
          .update(services)
          .set({
            containerCount: next.containerCount,
            containerMemoryLimitMb: next.memoryLimitMb,
            instanceClass: next.instanceClass,
            updatedAt: new Date(),
          })
          .where(eq(services.id, service.id));
        if (service.currentReleaseId) await replaceContainers(tx, service, started);
      },
    };
  },
};

const restartService: ServiceHandler<'restart' | 'restart_recreate'> = {
  async run(ctx) {
    const { service, app, target } = await loadService(ctx.db, ctx.op.resourceId);
    if (!service.currentReleaseId)
      throw await failure(ctx, `Service ${service.handle} is not running; deploy its app first`);
    const started = await ctx.runtime.restart(
      ctx,
      target,
      plan(service, await recordsOf(ctx.db, [service.id])),
      ctx.op.type === 'restart_recreate',
      {
        image: service,
        env: await currentEnv(ctx.db, app),
      },
    );
    return {
      async succeed(tx) {
        await replaceContainers(tx, service, started);
      },
    };
  },
};

export const serviceOperations: OperationResource<'service', ServiceRow> = {
  // The answer the service routes have always given for a service absent or out of reach.
  notFound: 'Environment',
  readAction: 'service.read',
  load: async (db, id) => (await db.select().from(services).where(eq(services.id, id)))[0],
  handle: (service) => service.handle,
  handlers: {
    scale: scaleService,
    restart: restartService,
    restart_recreate: restartService,
  },
};
