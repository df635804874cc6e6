import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { gitRemote } from '../api/apps/apps.hal.ts';
import type { Db } from '../db/client.ts';
import {
  apps,
  codeScanResults,
  configurations,
  containers,
  deployments,
  environments,
  images,
  releases,
  services,
  sources,
  stacks,
} from '../db/schema.ts';
import type { AppTarget, ContainerSpec, Runtime, RuntimeContext, ServicePlan } from '../runtimes/runtime.ts';
import { RuntimeError } from '../runtimes/runtime.ts';
import { deprovisionAppEndpoints, ENDPOINT_HANDLERS } from './endpoint-handlers.ts';
import type { OperationRow } from './operations.hal.ts';
import type { Tx } from './queue.ts';

type ServiceRow = typeof services.$inferSelect;
type AppRow = typeof apps.$inferSelect;

export interface HandlerContext extends RuntimeContext {
  op: OperationRow;
  db: Db;
  runtime: Runtime;
}

/** What running an operation produced: the changes to record when it ends. */
export interface Outcome {
  /** Applied in the transaction that marks the operation succeeded. */
  succeed(tx: Tx): Promise<void>;
}

export interface Handler {
  run(ctx: HandlerContext): Promise<Outcome>;
  /** Applied in the transaction that marks the operation failed. */
  fail?(tx: Tx, op: OperationRow): Promise<void>;
}

/** The pieces of an app an operation needs, loaded fresh when the operation runs. */
async function loadApp(db: Db, appId: number) {
  const [row] = await db
    .select({ app: apps, environment: environments, stack: stacks })
    .from(apps)
    .innerJoin(environments, eq(apps.environmentId, environments.id))
    .innerJoin(stacks, eq(environments.stackId, stacks.id))
    .where(eq(apps.id, appId));
  if (!row) throw new RuntimeError(`App ${appId} no longer exists`);
  const target: AppTarget = {
    appHandle: row.app.handle,
    environmentHandle: row.environment.handle,
    stackName: row.stack.name,
  };
  return { ...row, target };
}

function plan(
  service: Pick<
    ServiceRow,
    'handle' | 'processType' | 'command' | 'containerCount' | 'containerMemoryLimitMb' | 'instanceClass'
  >,
): ServicePlan {
  return {
    handle: service.handle,
    processType: service.processType,
    command: service.command,
    containerCount: service.containerCount,
    memoryLimitMb: service.containerMemoryLimitMb,
    instanceClass: service.instanceClass,
  };
}

function servicesOfApp(db: Db | Tx, appId: number) {
  return db.select().from(services).where(eq(services.appId, appId)).orderBy(services.id);
}

async function currentEnv(db: Db | Tx, app: AppRow): Promise<Record<string, string>> {
  if (!app.currentConfigurationId) return {};
  const [configuration] = await db
    .select()
    .from(configurations)
    .where(eq(configurations.id, app.currentConfigurationId));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(configuration?.env ?? {})) if (value !== null) env[key] = value;
  return env;
}

/** Stops a service's live containers and records the new ones on a release (a new one when given). */
async function replaceContainers(
  tx: Tx,
  service: ServiceRow,
  next: ContainerSpec[],
  newRelease?: { dockerRepo: string; dockerRef: string },
): Promise<void> {
  const now = new Date();
  let releaseId = service.currentReleaseId;
  const old = await tx.select({ id: releases.id }).from(releases).where(eq(releases.serviceId, service.id));
  if (old.length > 0) {
    await tx
      .update(containers)
      .set({ deletedAt: now, status: 'stopped', updatedAt: now })
      .where(
        and(
          inArray(
            containers.releaseId,
            old.map((r) => r.id),
          ),
          isNull(containers.deletedAt),
        ),
      );
  }
  if (newRelease || !releaseId) {
    if (releaseId) {
      await tx.update(releases).set({ retiredAt: now, updatedAt: now }).where(eq(releases.id, releaseId));
    }
    const [release] = await tx
      .insert(releases)
      .values({
        serviceId: service.id,
        dockerRepo: newRelease?.dockerRepo ?? service.dockerRepo,
        dockerRef: newRelease?.dockerRef ?? service.dockerRef,
      })
      .returning();
    releaseId = release?.id ?? null;
  }
  if (!releaseId) throw new Error('Release missing');
  if (next.length > 0) {
    await tx.insert(containers).values(next.map((c) => ({ ...c, releaseId: releaseId as number })));
  }
  await tx
    .update(services)
    .set({
      currentReleaseId: releaseId,
      ...(newRelease ? { dockerRepo: newRelease.dockerRepo, dockerRef: newRelease.dockerRef } : {}),
      updatedAt: now,
    })
    .where(eq(services.id, service.id));
}

async function setDeploymentStatus(db: Db | Tx, operationId: number, status: string) {
  await db
    .update(deployments)
    .set({ status, updatedAt: new Date() })
    .where(eq(deployments.operationId, operationId));
}

const deploy: Handler = {
  async run(ctx) {
    const { app, environment, stack, target } = await loadApp(ctx.db, ctx.op.resourceId);
    await setDeploymentStatus(ctx.db, ctx.op.id, 'running');
    const gitRepo = gitRemote(stack.defaultDomain, environment.handle, app.handle);
    const image = await ctx.runtime.buildImage(ctx, target, {
      gitRepo,
      ...(ctx.op.dockerRef ? { dockerImage: ctx.op.dockerRef } : { gitRef: ctx.op.gitRef ?? 'main' }),
    });
    const existing = await servicesOfApp(ctx.db, app.id);
    const env = await currentEnv(ctx.db, app);
    const rolled: { service: ServiceRow | null; plan: ServicePlan; containers: ContainerSpec[] }[] = [];
    for (const process of image.processes) {
      const service = existing.find((s) => s.handle === process.processType) ?? null;
      const servicePlan = service
        ? { ...plan(service), command: process.command }
        : {
            handle: process.processType,
            processType: process.processType,
            command: process.command,
            containerCount: 1,
            memoryLimitMb: 512,
            instanceClass: 'm5',
          };
      rolled.push({
        service,
        plan: servicePlan,
        containers: await ctx.runtime.rollOut(ctx, target, servicePlan, image, env),
      });
    }
    await ctx.log(`Deployed ${app.handle} (${image.dockerRef.slice(7, 19)})`);
    return {
      async succeed(tx) {
        const now = new Date();
        const [imageRow] = await tx
          .insert(images)
          .values({
            appId: app.id,
            dockerRepo: image.dockerRepo,
            dockerRef: image.dockerRef,
            gitRepo: image.gitRepo,
            gitRef: image.gitRef,
            exposedPorts: image.exposedPorts,
          })
          .returning();
        for (const entry of rolled) {
          let service: ServiceRow | null | undefined = entry.service;
          if (!service) {
            [service] = await tx
              .insert(services)
              .values({
                environmentId: environment.id,
                appId: app.id,
                handle: entry.plan.handle,
                processType: entry.plan.processType,
                command: entry.plan.command,
                containerCount: entry.plan.containerCount,
                containerMemoryLimitMb: entry.plan.memoryLimitMb,
                instanceClass: entry.plan.instanceClass,
              })
              // One service per handle on an app (services_app_handle_unique): if one appeared since the
              // deploy started, roll out onto it instead of failing the deploy.
              .onConflictDoUpdate({
                target: [services.appId, services.handle],
                targetWhere: sql`${services.appId} is not null`,
                set: { updatedAt: now },
              })
              .returning();
          }
          if (!service) throw new Error('Service insert returned nothing');
          await replaceContainers(tx, service, entry.containers, image);
        }
        let sourceId: number | null = null;
        if (image.gitRepo) {
          const [source] = await tx
            .insert(sources)
            .values({
              organizationId: environment.organizationId,
              url: image.gitRepo,
              displayName: `${environment.handle}/${app.handle}`,
            })
            .onConflictDoUpdate({ target: [sources.organizationId, sources.url], set: { updatedAt: now } })
            .returning();
          sourceId = source?.id ?? null;
        }
        const [deployment] = await tx
          .update(deployments)
          .set({
            status: 'succeeded',
            imageId: imageRow?.id ?? null,
            sourceId,
            configurationId: app.currentConfigurationId,
            dockerImage: ctx.op.dockerRef ?? null,
            dockerRepositoryUrl: image.dockerRepo,
            gitRepositoryUrl: image.gitRepo,
            gitRef: image.gitRef,
            gitCommitSha: image.commit?.sha ?? null,
            gitCommitMessage: image.commit?.message ?? null,
            gitCommitTimestamp: image.commit?.timestamp ?? null,
            updatedAt: now,
          })
          .where(eq(deployments.operationId, ctx.op.id))
          .returning();
        await tx
          .update(apps)
          .set({
            status: 'provisioned',
            deploymentMethod: image.gitRepo ? 'git' : 'docker_image',
            currentImageId: imageRow?.id ?? null,
            currentDeploymentId: deployment?.id ?? app.currentDeploymentId,
            currentSourceId: sourceId ?? app.currentSourceId,
            updatedAt: now,
          })
          .where(eq(apps.id, app.id));
      },
    };
  },
  async fail(tx, op) {
    await setDeploymentStatus(tx, op.id, 'failed');
  },
};

const configure: Handler = {
  async run(ctx) {
    const { app, target } = await loadApp(ctx.db, ctx.op.resourceId);
    const env = await currentEnv(ctx.db, app);
    for (const [key, value] of Object.entries(ctx.op.env ?? {})) {
      // A key sent as "" (or null) removes the variable (contract §4.3 configuration).
      if (value === '' || value === null) delete env[key];
      else env[key] = value;
    }
    await ctx.log(
      `Updating configuration of ${app.handle}: ${Object.keys(ctx.op.env ?? {}).length} variable(s) changed`,
    );
    const live = await servicesOfApp(ctx.db, app.id);
    const restarted: { service: ServiceRow; containers: ContainerSpec[] }[] = [];
    for (const service of live) {
      if (!service.currentReleaseId) continue;
      restarted.push({
        service,
        containers: await ctx.runtime.rollOut(ctx, target, plan(service), service, env),
      });
    }
    if (restarted.length === 0)
      await ctx.log('The app has no running services yet: the configuration applies on the next deploy');
    return {
      async succeed(tx) {
        const [configuration] = await tx.insert(configurations).values({ appId: app.id, env }).returning();
        await tx
          .update(apps)
          .set({ currentConfigurationId: configuration?.id ?? null, updatedAt: new Date() })
          .where(eq(apps.id, app.id));
        for (const entry of restarted) {
          await replaceContainers(tx, entry.service, entry.containers, {
            dockerRepo: entry.service.dockerRepo,
            dockerRef: entry.service.dockerRef,
          });
        }
      },
    };
  },
};

function restartApp(recreate: boolean): Handler {
  return {
    async run(ctx) {
      const { app, target } = await loadApp(ctx.db, ctx.op.resourceId);
      const live = (await servicesOfApp(ctx.db, app.id)).filter((s) => s.currentReleaseId);
      if (live.length === 0)
        throw await failure(ctx, `App ${app.handle} has no running services to restart; deploy it first`);
      const restarted: { service: ServiceRow; containers: ContainerSpec[] }[] = [];
      for (const service of live) {
        restarted.push({
          service,
          containers: await ctx.runtime.restart(ctx, target, plan(service), recreate),
        });
      }
      return {
        async succeed(tx) {
          for (const entry of restarted) await replaceContainers(tx, entry.service, entry.containers);
        },
      };
    },
  };
}

const deprovisionApp: Handler = {
  async run(ctx) {
    const { app, target } = await loadApp(ctx.db, ctx.op.resourceId);
    // Load balancers first (traffic stops), then the containers behind them.
    await deprovisionAppEndpoints(ctx, app);
    await ctx.runtime.removeApp(ctx, target);
    return {
      async succeed(tx) {
        // Services, releases, containers, images, configurations and deployments go with the app;
        // its operations stay in the activity log.
        await tx.delete(apps).where(eq(apps.id, app.id));
      },
    };
  },
  async fail(tx, op) {
    await tx
      .update(apps)
      .set({ status: 'deprovision_failed', updatedAt: new Date() })
      .where(eq(apps.id, op.resourceId));
  },
};

const scanCode: Handler = {
  async run(ctx) {
    const { app, target } = await loadApp(ctx.db, ctx.op.resourceId);
    const scan = await ctx.runtime.scanCode(ctx, target, ctx.op.gitRef ?? 'main');
    return {
      async succeed(tx) {
        await tx.insert(codeScanResults).values({
          appId: app.id,
          operationId: ctx.op.id,
          dockerfilePresent: scan.dockerfile !== null,
          dockerfileData: scan.dockerfile,
          procfilePresent: scan.procfile !== null,
          procfileData: scan.procfile,
          berthYmlPresent: scan.berthYml !== null,
          berthYmlData: scan.berthYml,
          languagesDetected: scan.languages,
        });
      },
    };
  },
};

async function loadService(db: Db, serviceId: number) {
  const [service] = await db.select().from(services).where(eq(services.id, serviceId));
  if (!service?.appId) throw new RuntimeError(`Service ${serviceId} no longer exists`);
  return { service, ...(await loadApp(db, service.appId)) };
}

const scaleService: Handler = {
  async run(ctx) {
    const { service, app, target } = await loadService(ctx.db, ctx.op.resourceId);
    const next = {
      ...plan(service),
      containerCount: ctx.op.containerCount ?? service.containerCount,
      memoryLimitMb: ctx.op.containerSize ?? service.containerMemoryLimitMb,
      instanceClass: ctx.op.instanceProfile ?? service.instanceClass,
    };
    await ctx.log(
      `Scaling ${service.handle} from ${service.containerCount} × ${service.containerMemoryLimitMb} MB (${service.instanceClass}) to ${next.containerCount} × ${next.memoryLimitMb} MB (${next.instanceClass})`,
    );
    const started =
      next.containerCount > 0 && service.currentReleaseId
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

const restartService: Handler = {
  async run(ctx) {
    const { service, target } = await loadService(ctx.db, ctx.op.resourceId);
    if (!service.currentReleaseId)
      throw await failure(ctx, `Service ${service.handle} is not running; deploy its app first`);
    const started = await ctx.runtime.restart(ctx, target, plan(service), ctx.op.type === 'restart_recreate');
    return {
      async succeed(tx) {
        await replaceContainers(tx, service, started);
      },
    };
  },
};

async function failure(ctx: RuntimeContext, message: string): Promise<RuntimeError> {
  await ctx.log(message, 'ERROR');
  return new RuntimeError(message);
}

/** Handlers by resource type, then operation type. */
export const HANDLERS: Record<string, Record<string, Handler>> = {
  app: {
    deploy,
    configure,
    restart: restartApp(false),
    restart_recreate: restartApp(true),
    deprovision: deprovisionApp,
    scan_code: scanCode,
  },
  service: {
    scale: scaleService,
    restart: restartService,
    restart_recreate: restartService,
  },
  vhost: ENDPOINT_HANDLERS,
};

export function handlerFor(resourceType: string, type: string): Handler | undefined {
  return HANDLERS[resourceType]?.[type];
}
