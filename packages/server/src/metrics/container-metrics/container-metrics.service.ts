import { type MetricQuery, metricTicks } from '@berth/core';
import { eq } from 'drizzle-orm';
import { assertAllowed, createAccess, isVisible } from '../../api/access/access.ts';
import type { CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { containers, environments, releases, services, stacks } from '../../db/schema.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { metricsContainerOf, type Runtime } from '../../runtimes/runtime.ts';

/** contract §4.4: a column-major table, `time_0` first, then one column per labelled series. */
export interface MetricColumns {
  columns: (string | number | null)[][];
}

export function createContainerMetricsService(deps: { db: Db; runtimes: Record<string, Runtime> }) {
  const { db, runtimes } = deps;
  const access = createAccess(db);

  return {
    /**
     * One metric of one container over a horizon ending now. A container of another organization, or
     * of an environment the caller cannot see, is 404; without read access it is 403.
     */
    async query(ref: CallerRef, containerId: number | null, query: MetricQuery): Promise<MetricColumns> {
      const [found] =
        containerId === null
          ? []
          : await db
              .select({ container: containers, environment: environments, runtime: stacks.runtime })
              .from(containers)
              .innerJoin(releases, eq(containers.releaseId, releases.id))
              .innerJoin(services, eq(releases.serviceId, services.id))
              .innerJoin(environments, eq(services.environmentId, environments.id))
              .innerJoin(stacks, eq(environments.stackId, stacks.id))
              .where(eq(containers.id, containerId));
      const caller = await access.caller(ref);
      if (!found || !isVisible(caller, found.environment)) throw notFound('Container');
      // contract §5.14: charts need at least the caller's read access to the container's environment.
      assertAllowed(caller, found.environment, 'metrics.read');

      const runtime = runtimes[found.runtime];
      if (!runtime) {
        throw new ApiError(503, 'unavailable', `Metrics are not available on the ${found.runtime} runtime`);
      }
      const { container } = found;
      const ticks = metricTicks(new Date(), query.horizon, query.requestedTicks);
      const series = await runtime.containerMetrics(metricsContainerOf(container), query.metric, ticks);
      return {
        columns: [
          ['time_0', ...ticks.map((tick) => tick.toISOString())],
          ...series.map((item) => [item.label, ...item.values]),
        ],
      };
    },
  };
}
export type ContainerMetricsService = ReturnType<typeof createContainerMetricsService>;
