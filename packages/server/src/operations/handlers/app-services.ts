import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import {
  apps,
  configurations,
  containers,
  environments,
  releases,
  services,
  stacks,
} from '../../db/schema.ts';
import type { AppTarget, ContainerSpec, ServicePlan } from '../../runtimes/runtime.ts';
import { RuntimeError } from '../../runtimes/runtime.ts';

// What app and service operations share: an app's place, its services' plans, its configuration, and
// the containers a release runs.

export type ServiceRow = typeof services.$inferSelect;
export type AppRow = typeof apps.$inferSelect;

/** The pieces of an app an operation needs, loaded fresh when the operation runs. */
export async function loadApp(db: Db, appId: number) {
  const [row] = await db
    .select({ app: apps, environment: environments, stack: stacks })
    .from(apps)
    .innerJoin(environments, eq(apps.environmentId, environments.id))
    .innerJoin(stacks, eq(environments.stackId, stacks.id))
    .where(eq(apps.id, appId));
  if (!row) throw new RuntimeError(`App ${appId} no longer exists`);
  const target: AppTarget = {
    appId: row.app.id,
    appHandle: row.app.handle,
    environmentHandle: row.environment.handle,
    stackName: row.stack.name,
  };
  return { ...row, target };
}

export function plan(
  service: Pick<
    ServiceRow,
    | 'handle'
    | 'processType'
    | 'command'
    | 'containerCount'
    | 'containerMemoryLimitMb'
    | 'instanceClass'
    | 'naiveHealthCheck'
  >,
): ServicePlan {
  return {
    naiveHealthCheck: service.naiveHealthCheck,
    handle: service.handle,
    processType: service.processType,
    command: service.command,
    containerCount: service.containerCount,
    memoryLimitMb: service.containerMemoryLimitMb,
    instanceClass: service.instanceClass,
  };
}

export function servicesOfApp(db: DbOrTx, appId: number) {
  return db.select().from(services).where(eq(services.appId, appId)).orderBy(services.id);
}

export async function currentEnv(db: DbOrTx, app: AppRow): Promise<Record<string, string>> {
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
export async function replaceContainers(
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
