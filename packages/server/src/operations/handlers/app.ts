import { DEFAULT_CONTAINER_MEMORY_MB, type OperationBody, type OperationTypeOf } from '@berth/core';
import { eq, sql } from 'drizzle-orm';
import { reserveDeployMemory } from '../../billing/plans/operation-limits.ts';
import type { DbOrTx } from '../../db/client.ts';
import {
  apps,
  codeScanResults,
  configurations,
  deployments,
  images,
  services,
  sources,
} from '../../db/schema.ts';
import { ApiError } from '../../http/errors.ts';
import {
  type ContainerSpec,
  RuntimeError,
  registryAuthOf,
  type ServicePlan,
} from '../../runtimes/runtime.ts';
import { failure, type Handler, type OperationResource } from '../handler.ts';
import {
  type AppRow,
  currentEnv,
  loadApp,
  NOTHING_RECORDED,
  plan,
  recordedApp,
  recordsOf,
  replaceContainers,
  type ServiceRow,
  servicesOfApp,
} from './app-services.ts';
import { deprovisionEndpointsOf } from './vhost.ts';

type AppHandler<T extends OperationTypeOf<'app'>> = Handler<AppRow, OperationBody<'app', T>>;

/**
 * The name a deploy's repository is recorded by (its source) on a runtime with no git remote of its own:
 * the simulator's, which fetches nothing. The docker runtime records its real remote instead.
 */
function repositoryName(stackDefaultDomain: string, environmentHandle: string, appHandle: string): string {
  return `git@${stackDefaultDomain || 'berth.localhost'}:${environmentHandle}/${appHandle}.git`;
}

async function setDeploymentStatus(db: DbOrTx, operationId: number, status: string) {
  await db
    .update(deployments)
    .set({ status, updatedAt: new Date() })
    .where(eq(deployments.operationId, operationId));
}

const deploy: AppHandler<'deploy'> = {
  accept: (body) => ({
    // An image deploys as it is; a git deploy builds the ref asked for, main when none.
    gitRef: body.docker_image ? null : body.git_ref || 'main',
    dockerRef: body.docker_image ?? null,
  }),
  // The deployment is listed from the moment it is asked for (contract §4.3 deployments).
  async onEnqueue(tx, op) {
    await tx.insert(deployments).values({
      appId: op.resourceId,
      // The app's own, read with it: global search scopes deployments by it (db/tables/apps.ts).
      environmentId: sql`(select ${apps.environmentId} from ${apps} where ${apps.id} = ${op.resourceId})`,
      operationId: op.id,
      status: 'queued',
      gitRef: op.gitRef,
      dockerImage: op.dockerRef,
    });
  },
  async run(ctx) {
    const { app, environment, stack, target } = await loadApp(ctx.db, ctx.op.resourceId);
    await ctx.write((tx) => setDeploymentStatus(tx, ctx.op.id, 'running'));
    const gitRepo = repositoryName(stack.defaultDomain, environment.handle, app.handle);
    const env = await currentEnv(ctx.db, app);
    const registryAuth = registryAuthOf(env);
    const image = await ctx.runtime.buildImage(ctx, target, {
      gitRepo,
      ...(ctx.op.dockerRef
        ? { dockerImage: ctx.op.dockerRef, ...(registryAuth ? { registryAuth } : {}) }
        : { gitRef: ctx.op.gitRef ?? 'main' }),
    });
    const existing = await servicesOfApp(ctx.db, app.id);
    const records = await recordsOf(
      ctx.db,
      existing.map((service) => service.id),
    );
    // New process types become new services: their memory must fit the plan before anything starts.
    const newServices = image.processes.filter(
      (process) => !existing.some((service) => service.handle === process.processType),
    ).length;
    if (newServices > 0) {
      await ctx.write(async (tx) => {
        try {
          await reserveDeployMemory(tx, ctx.op, newServices);
        } catch (error) {
          // The plan's refusal is the deploy's reason to fail, not a fault of the platform.
          if (error instanceof ApiError) throw new RuntimeError(error.message);
          throw error;
        }
      });
    }
    const rolled: { service: ServiceRow | null; plan: ServicePlan; containers: ContainerSpec[] }[] = [];
    for (const process of image.processes) {
      const service = existing.find((s) => s.handle === process.processType) ?? null;
      const servicePlan = service
        ? { ...plan(service, records), command: process.command }
        : {
            ...NOTHING_RECORDED,
            handle: process.processType,
            processType: process.processType,
            command: process.command,
            containerCount: 1,
            memoryLimitMb: DEFAULT_CONTAINER_MEMORY_MB,
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

const configure: AppHandler<'configure'> = {
  accept: (body) => ({ env: body.env }),
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
    const records = await recordsOf(
      ctx.db,
      live.map((service) => service.id),
    );
    const restarted: { service: ServiceRow; containers: ContainerSpec[] }[] = [];
    for (const service of live) {
      if (!service.currentReleaseId) continue;
      restarted.push({
        service,
        containers: await ctx.runtime.rollOut(ctx, target, plan(service, records), service, env),
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

function restartApp(recreate: boolean): AppHandler<'restart' | 'restart_recreate'> {
  return {
    async run(ctx) {
      const { app, target } = await loadApp(ctx.db, ctx.op.resourceId);
      const live = (await servicesOfApp(ctx.db, app.id)).filter((s) => s.currentReleaseId);
      if (live.length === 0)
        throw await failure(ctx, `App ${app.handle} has no running services to restart; deploy it first`);
      const env = await currentEnv(ctx.db, app);
      const records = await recordsOf(
        ctx.db,
        live.map((service) => service.id),
      );
      const restarted: { service: ServiceRow; containers: ContainerSpec[] }[] = [];
      for (const service of live) {
        restarted.push({
          service,
          containers: await ctx.runtime.restart(ctx, target, plan(service, records), recreate, {
            image: service,
            env,
          }),
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

const deprovisionApp: AppHandler<'deprovision'> = {
  // Marked at once, so no other operation is queued behind the deprovision.
  async onEnqueue(tx, op) {
    await tx
      .update(apps)
      .set({ status: 'deprovisioning', updatedAt: new Date() })
      .where(eq(apps.id, op.resourceId));
  },
  async run(ctx) {
    const { app, target } = await loadApp(ctx.db, ctx.op.resourceId);
    // Load balancers first (traffic stops), then the containers behind them.
    await deprovisionEndpointsOf(ctx, { kind: 'app', id: app.id, handle: app.handle });
    await ctx.runtime.removeApp(ctx, target, await recordedApp(ctx.db, app.id));
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

const scanCode: AppHandler<'scan_code'> = {
  accept: (body) => ({ gitRef: body.docker_image ? null : body.git_ref || 'main', dockerRef: null }),
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

export const appOperations: OperationResource<'app', AppRow> = {
  // The answer the app routes have always given for an app absent or out of reach.
  notFound: 'Environment',
  readAction: 'app.read',
  load: async (db, id) => (await db.select().from(apps).where(eq(apps.id, id)))[0],
  handle: (app) => app.handle,
  refusal: (app) => (app.status === 'deprovisioning' ? `App ${app.handle} is being deprovisioned` : null),
  handlers: {
    deploy,
    scan_code: scanCode,
    configure,
    restart: restartApp(false),
    restart_recreate: restartApp(true),
    deprovision: deprovisionApp,
  },
};
