import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  apps,
  containers,
  databases,
  environments,
  releases,
  services,
  stacks,
  vhosts,
} from '../db/schema.ts';

/**
 * The running containers of an environment's apps (or databases): each with its service's process type,
 * the app or database handle, and the runtime of the stack it runs on. What drains ship from.
 */
export function environmentContainers(db: Db, environmentId: number, layer: 'app' | 'database') {
  return db
    .select({
      container: containers,
      processType: services.processType,
      resource: layer === 'app' ? apps.handle : databases.handle,
      runtime: stacks.runtime,
    })
    .from(containers)
    .innerJoin(releases, eq(containers.releaseId, releases.id))
    .innerJoin(services, and(eq(releases.serviceId, services.id), eq(services.currentReleaseId, releases.id)))
    .innerJoin(
      layer === 'app' ? apps : databases,
      layer === 'app' ? eq(services.appId, apps.id) : eq(services.databaseId, databases.id),
    )
    .innerJoin(environments, eq(services.environmentId, environments.id))
    .innerJoin(stacks, eq(environments.stackId, stacks.id))
    .where(and(eq(services.environmentId, environmentId), isNull(containers.deletedAt)));
}
export type EnvironmentContainer = Awaited<ReturnType<typeof environmentContainers>>[number];

/** The environment's provisioned endpoints with the runtime of their stack: what proxy lines come from. */
export function environmentEndpoints(db: Db, environmentId: number) {
  return db
    .select({ vhost: vhosts, runtime: stacks.runtime, resource: services.handle })
    .from(vhosts)
    .innerJoin(services, eq(vhosts.serviceId, services.id))
    .innerJoin(environments, eq(vhosts.environmentId, environments.id))
    .innerJoin(stacks, eq(environments.stackId, stacks.id))
    .where(and(eq(vhosts.environmentId, environmentId), eq(vhosts.status, 'provisioned')));
}
