import { and, eq, inArray, isNull, like, ne, or } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import {
  apps,
  configurations,
  containers,
  databases,
  environments,
  images,
  releases,
  services,
  stacks,
  vhosts,
} from '../../db/schema.ts';
import type { AppTarget, ContainerSpec, RecordedApp, ServicePlan } from '../../runtimes/runtime.ts';
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
  const environmentDatabases = await db
    .select({ id: databases.id })
    .from(databases)
    .where(eq(databases.environmentId, row.environment.id));
  const target: AppTarget = {
    appId: row.app.id,
    appHandle: row.app.handle,
    environmentId: row.environment.id,
    environmentHandle: row.environment.handle,
    stackName: row.stack.name,
    environmentDatabaseIds: environmentDatabases.map((database) => database.id),
  };
  return { ...row, target };
}

/** What Berth records of a service on its runtime (ServicePlan): its live containers and its endpoints. */
export type ServiceRecords = Pick<ServicePlan, 'recordedContainers' | 'endpointIds'>;

/** The records of a new service: none. */
export const NOTHING_RECORDED: ServiceRecords = { recordedContainers: [], endpointIds: [] };

/** What Berth records of these services on their runtime, by service id. */
export async function recordsOf(db: DbOrTx, serviceIds: number[]): Promise<Map<number, ServiceRecords>> {
  const records = new Map<number, ServiceRecords>(
    serviceIds.map((id) => [id, { recordedContainers: [], endpointIds: [] }]),
  );
  if (serviceIds.length === 0) return records;
  const live = await db
    .select({ serviceId: services.id, dockerName: containers.dockerName })
    .from(containers)
    .innerJoin(releases, eq(containers.releaseId, releases.id))
    .innerJoin(services, and(eq(releases.serviceId, services.id), eq(services.currentReleaseId, releases.id)))
    .where(and(inArray(services.id, serviceIds), isNull(containers.deletedAt)));
  for (const row of live) records.get(row.serviceId)?.recordedContainers.push(row.dockerName);
  const endpoints = await db
    .select({ serviceId: vhosts.serviceId, id: vhosts.id })
    .from(vhosts)
    .where(inArray(vhosts.serviceId, serviceIds))
    .orderBy(vhosts.id);
  for (const row of endpoints) records.get(row.serviceId)?.endpointIds.push(row.id);
  return records;
}

/**
 * What Berth records of an app on its runtime, for its removal: its services' live containers, and the
 * images its deploys built (a `berth/` repository) that no other app records (an older Berth's build of
 * the same code for another organization's app of the same handles could be the very same image).
 */
export async function recordedApp(db: DbOrTx, appId: number): Promise<RecordedApp> {
  const ids = (await servicesOfApp(db, appId)).map((service) => service.id);
  const records = await recordsOf(db, ids);
  const built = like(images.dockerRepo, 'berth/%');
  const refs = new Set(
    (
      await db
        .select({ ref: images.dockerRef })
        .from(images)
        .where(and(eq(images.appId, appId), built))
    ).flatMap((row) => (row.ref ? [row.ref] : [])),
  );
  if (ids.length > 0)
    for (const row of await db
      .select({ ref: releases.dockerRef })
      .from(releases)
      .where(and(inArray(releases.serviceId, ids), like(releases.dockerRepo, 'berth/%'))))
      if (row.ref) refs.add(row.ref);
  const shared = new Set<string>();
  if (refs.size > 0) {
    const others = await db
      .select({ ref: images.dockerRef })
      .from(images)
      .where(and(inArray(images.dockerRef, [...refs]), ne(images.appId, appId)));
    const otherReleases = await db
      .select({ ref: releases.dockerRef })
      .from(releases)
      .innerJoin(services, eq(releases.serviceId, services.id))
      .where(
        and(inArray(releases.dockerRef, [...refs]), or(ne(services.appId, appId), isNull(services.appId))),
      );
    for (const row of [...others, ...otherReleases]) if (row.ref) shared.add(row.ref);
  }
  return {
    containers: [...records.values()].flatMap((record) => record.recordedContainers),
    images: [...refs].filter((ref) => !shared.has(ref)),
  };
}

export function plan(
  service: Pick<
    ServiceRow,
    | 'id'
    | 'handle'
    | 'processType'
    | 'command'
    | 'containerCount'
    | 'containerMemoryLimitMb'
    | 'instanceClass'
    | 'naiveHealthCheck'
  >,
  records: Map<number, ServiceRecords>,
): ServicePlan {
  return {
    ...(records.get(service.id) ?? NOTHING_RECORDED),
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
