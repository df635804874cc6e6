import { and, eq, inArray, isNotNull, isNull, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { containers, environments, operations, releases, services, stacks, vhosts } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import type { RecordedEndpoint, Runtime } from '../runtimes/runtime.ts';
import type { OperationsService } from './operations.service.ts';
import { periodic } from './periodic.ts';

/** How often the database's containers are held against the machines'. */
export const RECONCILE_INTERVAL_MS = 60_000;
/**
 * A running container the database does not record is an orphan once it is older than any operation
 * can run (30 minutes): younger, it may be a roll-out's new container not recorded yet.
 */
export const ORPHAN_AGE_MS = 35 * 60_000;

/**
 * Keeps what runs equal to what the database records, for runtimes whose containers can go missing
 * (the docker runtime: removed by hand, lost with a host). At start and every minute, a service whose
 * recorded containers are not all running gets an automated `restart`; its log says what was missing,
 * and the restart starts them again from the service's release. Services with an unfinished operation
 * are left to it. Containers keep running while Berth restarts (their restart policy) and are found
 * again by their labels, so nothing needs adopting. This Berth's running containers that it records
 * nowhere (a roll-out that died before it was recorded, a deprovision that failed halfway) are removed
 * once old enough; the runtime never shows it another Berth's containers. Endpoint routes to containers
 * that came back at another address (the engine restarted) are sent to the running ones.
 */
export function createContainerReconciler(deps: {
  db: Db;
  runtimes: Record<string, Runtime>;
  operations: Pick<OperationsService, 'enqueue'>;
  onError?: (error: unknown) => void;
  /** Told of the orphans each pass removed (the server's log). */
  onOrphansRemoved?: (names: string[]) => void;
  /** Told of the endpoint routes each pass sent to containers' new addresses (the server's log). */
  onRoutingRepaired?: (changes: string[]) => void;
  orphanAgeMs?: number;
}) {
  const { db, runtimes } = deps;
  const orphanAgeMs = deps.orphanAgeMs ?? ORPHAN_AGE_MS;

  /**
   * One pass over every runtime that can lose containers; the number of restarts it queued. Tests pass
   * a shorter orphan age than a real pass may use.
   */
  async function reconcileOnce(options: { orphanAgeMs?: number } = {}): Promise<number> {
    let queued = 0;
    for (const [name, runtime] of Object.entries(runtimes)) {
      // One cluster that does not answer (a registered Swarm's manager down) holds up none of the others.
      try {
        queued += await reconcileRuntime(name, runtime, options);
      } catch (error) {
        deps.onError?.(error);
      }
    }
    return queued;
  }

  /** One runtime's part of a pass: the restarts it queued. */
  async function reconcileRuntime(
    name: string,
    runtime: Runtime,
    options: { orphanAgeMs?: number },
  ): Promise<number> {
    let queued = 0;
    if (!runtime.runningContainers) return 0;
    const alive = await runtime.runningContainers();
    const recorded = await db
      .select({
        serviceId: services.id,
        serviceHandle: services.handle,
        appId: services.appId,
        environmentId: services.environmentId,
        organizationId: environments.organizationId,
        dockerName: containers.dockerName,
      })
      .from(containers)
      .innerJoin(releases, eq(containers.releaseId, releases.id))
      .innerJoin(
        services,
        and(eq(releases.serviceId, services.id), eq(services.currentReleaseId, releases.id)),
      )
      .innerJoin(environments, eq(services.environmentId, environments.id))
      .innerJoin(stacks, eq(environments.stackId, stacks.id))
      .where(and(isNull(containers.deletedAt), eq(stacks.runtime, name), isNotNull(services.appId)));
    await removeOrphans(
      runtime,
      alive,
      new Set(recorded.map((row) => row.dockerName)),
      options.orphanAgeMs ?? orphanAgeMs,
    );
    // An edge that does not answer stops only the routing repair, not the restarts below.
    try {
      const rerouted = runtime.repairRouting
        ? await runtime.repairRouting(await recordedEndpoints(name, recorded))
        : [];
      if (rerouted.length) deps.onRoutingRepaired?.(rerouted);
    } catch (error) {
      deps.onError?.(error);
    }
    const missing = new Map<number, { row: (typeof recorded)[number]; names: string[] }>();
    for (const row of recorded) {
      if (alive.has(row.dockerName)) continue;
      const entry = missing.get(row.serviceId) ?? { row, names: [] };
      entry.names.push(row.dockerName);
      missing.set(row.serviceId, entry);
    }
    if (missing.size === 0) return 0;
    const busy = await busyServices([...missing.values()].map((entry) => entry.row));
    for (const { row } of missing.values()) {
      if (busy.has(row.serviceId)) continue;
      try {
        await deps.operations.enqueue({
          organizationId: row.organizationId,
          environmentId: row.environmentId,
          resourceType: 'service',
          resourceId: row.serviceId,
          resourceHandle: row.serviceHandle,
          type: 'restart',
          user: null,
        });
        queued++;
      } catch (error) {
        // One already queued (another process's pass), or the organization's queue is full: next pass.
        if (error instanceof ApiError && error.status === 429) continue;
        if (isUniqueViolation(error)) continue;
        throw error;
      }
    }
    return queued;
  }

  async function removeOrphans(
    runtime: Runtime,
    alive: Map<string, Date>,
    recorded: Set<string>,
    minimumAgeMs: number,
  ) {
    if (!runtime.removeContainers) return;
    const now = Date.now();
    const old = [...alive]
      .filter(([name, created]) => !recorded.has(name) && now - created.getTime() >= minimumAgeMs)
      .map(([name]) => name);
    if (old.length === 0) return;
    // Any container the database still records (a database's, a release not current) is no orphan.
    const known = await db
      .select({ dockerName: containers.dockerName })
      .from(containers)
      .where(and(inArray(containers.dockerName, old), isNull(containers.deletedAt)));
    const knownNames = new Set(known.map((row) => row.dockerName));
    const orphans = old.filter((name) => !knownNames.has(name));
    if (orphans.length === 0) return;
    await runtime.removeContainers(orphans);
    deps.onOrphansRemoved?.(orphans);
  }

  /**
   * The endpoints of apps' services on the runtime's stacks, each with its service's recorded containers:
   * what names a route's service, as the keys of older Berths (handles) may name two organizations'.
   */
  async function recordedEndpoints(
    runtimeName: string,
    recorded: { serviceId: number; dockerName: string }[],
  ): Promise<RecordedEndpoint[]> {
    const rows = await db
      .select({
        id: vhosts.id,
        serviceId: services.id,
        appId: services.appId,
        serviceHandle: services.handle,
      })
      .from(vhosts)
      .innerJoin(services, eq(vhosts.serviceId, services.id))
      .innerJoin(environments, eq(services.environmentId, environments.id))
      .innerJoin(stacks, eq(environments.stackId, stacks.id))
      .where(and(eq(stacks.runtime, runtimeName), isNotNull(services.appId)));
    const names = new Map<number, string[]>();
    for (const row of recorded)
      names.set(row.serviceId, [...(names.get(row.serviceId) ?? []), row.dockerName]);
    return rows.map((row) => ({
      id: row.id,
      appId: row.appId ?? 0,
      serviceHandle: row.serviceHandle,
      recordedContainers: names.get(row.serviceId) ?? [],
    }));
  }

  /** Services whose app or self has a queued or running operation. */
  async function busyServices(rows: { serviceId: number; appId: number | null }[]): Promise<Set<number>> {
    const appIds = rows.flatMap((row) => (row.appId === null ? [] : [row.appId]));
    const unfinished = await db
      .select({ resourceType: operations.resourceType, resourceId: operations.resourceId })
      .from(operations)
      .where(
        and(
          inArray(operations.status, ['queued', 'running']),
          or(
            and(
              eq(operations.resourceType, 'service'),
              inArray(
                operations.resourceId,
                rows.map((row) => row.serviceId),
              ),
            ),
            appIds.length
              ? and(eq(operations.resourceType, 'app'), inArray(operations.resourceId, appIds))
              : undefined,
          ),
        ),
      );
    const busy = new Set<number>();
    for (const row of rows) {
      if (
        unfinished.some(
          (op) =>
            (op.resourceType === 'service' && op.resourceId === row.serviceId) ||
            (op.resourceType === 'app' && op.resourceId === row.appId),
        )
      )
        busy.add(row.serviceId);
    }
    return busy;
  }

  const task = periodic(() => reconcileOnce(), deps.onError);

  return {
    reconcileOnce,
    start(intervalMs = RECONCILE_INTERVAL_MS) {
      // Nothing to watch on a server whose runtimes cannot lose containers.
      if (!Object.values(runtimes).some((runtime) => runtime.runningContainers)) return;
      task.start(intervalMs, { immediately: true });
    },
    stop: task.stop,
  };
}
export type ContainerReconciler = ReturnType<typeof createContainerReconciler>;
