import { randomBytes } from 'node:crypto';
import type { ContainerMetric } from '@berth/core';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { databaseCredentials, environments, metricDrains } from '../db/schema.ts';
import { periodic } from '../operations/periodic.ts';
import { type MetricsContainer, metricsContainerOf, type Runtime } from '../runtimes/runtime.ts';
import type { SecretBox } from '../security/secret-box.ts';
import { DRAIN_CONCURRENCY, eachLimited, holdDrain, leaseFor, retryAfter } from './drain-lease.ts';
import { type EnvironmentContainer, environmentContainers } from './environment-containers.ts';
import { deliverDatadog, deliverInfluxV1, deliverInfluxV2, type MetricPoint } from './metric-delivery.ts';
import { DeliveryError, type DeliveryTls } from './post.ts';

/** Metric drains receive one point per container every minute (issue 13). */
export const METRIC_SHIPPING_INTERVAL_MS = 60_000;

type DrainRow = typeof metricDrains.$inferSelect;

/**
 * Sends each provisioned metric drain its environment's container figures every minute: memory (and
 * its limit), CPU and, for databases, disk use, from the runtime that runs each container (the
 * simulator's figures on `sim`, the engine's on `docker`). A failed delivery is tried again with a
 * growing wait and recorded on the drain; the minute it missed is not sent again (metrics are a
 * sample, not a log). One process ships a drain at a time.
 */
export function createMetricShipper(deps: {
  db: Db;
  runtimes: Record<string, Runtime>;
  box: SecretBox;
  databaseSecrets: SecretBox;
  tls?: DeliveryTls;
  onError?: (error: unknown) => void;
}) {
  const { db } = deps;
  const tls = deps.tls ?? {};
  const shipperId = `metrics-${process.pid}-${randomBytes(3).toString('hex')}`;

  /** One figure of one container at a minute, or null. */
  async function figure(runtime: Runtime, container: MetricsContainer, metric: ContainerMetric, tick: Date) {
    const series = await runtime.containerMetrics(container, metric, [tick]);
    const value = series[0]?.values[0];
    return typeof value === 'number' ? value : null;
  }

  /** One container's figures at the tick. */
  async function pointOf(
    runtime: Runtime,
    row: EnvironmentContainer,
    layer: 'app' | 'database',
    environment: string,
    tick: Date,
  ): Promise<MetricPoint> {
    const container = metricsContainerOf(row.container);
    const memory = await runtime.containerMetrics(container, 'memory_all', [tick]);
    return {
      time: tick,
      environment,
      resource: row.resource,
      layer,
      service: row.processType,
      container: row.container.dockerName,
      memoryMb: numberOrNull(memory[0]?.values[0]),
      memoryLimitMb: numberOrNull(memory[1]?.values[0]),
      cpuPct: await figure(runtime, container, 'cpu_pct', tick),
      diskGb: layer === 'database' ? await figure(runtime, container, 'fs', tick) : null,
    };
  }

  async function collect(drain: DrainRow, environment: string, tick: Date): Promise<MetricPoint[]> {
    const points: MetricPoint[] = [];
    for (const layer of ['app', 'database'] as const) {
      for (const row of await environmentContainers(db, drain.environmentId, layer)) {
        const runtime = deps.runtimes[row.runtime];
        if (!runtime) continue;
        try {
          points.push(await pointOf(runtime, row, layer, environment, tick));
        } catch (error) {
          // One container the runtime cannot measure (gone meanwhile) does not cost the others theirs.
          deps.onError?.(error);
        }
      }
    }
    return points;
  }

  async function deliver(drain: DrainRow, points: MetricPoint[]) {
    const configuration = drain.configurationSealed
      ? (JSON.parse(deps.box.open(drain.configurationSealed)) as Record<string, string>)
      : {};
    switch (drain.drainType) {
      case 'influxdb':
        return deliverInfluxV1(
          configuration.address ?? '',
          {
            username: configuration.username ?? '',
            password: configuration.password ?? '',
            database: configuration.database ?? '',
          },
          points,
          tls,
        );
      case 'influxdb2':
        return deliverInfluxV2(
          configuration.address ?? '',
          {
            org: configuration.org ?? '',
            authToken: configuration.authToken ?? '',
            bucket: configuration.bucket ?? '',
          },
          points,
          tls,
        );
      case 'datadog':
        return deliverDatadog(configuration.series_url ?? '', configuration.api_key ?? '', points, tls);
      case 'influxdb_database': {
        // The database's own connection URL: its account, and its database as the URL's path.
        const [credential] = drain.databaseId
          ? await db
              .select()
              .from(databaseCredentials)
              .where(eq(databaseCredentials.databaseId, drain.databaseId))
              .limit(1)
          : [];
        if (!credential) throw new DeliveryError('The InfluxDB database of this drain has no credentials');
        const url = new URL(deps.databaseSecrets.open(credential.connectionUrlSealed));
        return deliverInfluxV1(
          url.origin,
          {
            username: decodeURIComponent(url.username),
            password: decodeURIComponent(url.password),
            database: decodeURIComponent(url.pathname.slice(1)),
          },
          points,
          tls,
        );
      }
      default:
        throw new DeliveryError(`Metric drains of type ${drain.drainType} cannot ship`);
    }
  }

  /** One pass: every provisioned drain this process holds gets this minute's points (tests move `now`). */
  async function shipOnce(now = new Date()): Promise<void> {
    const drains = await db
      .select({ drain: metricDrains, environment: environments.handle })
      .from(metricDrains)
      .innerJoin(environments, eq(metricDrains.environmentId, environments.id))
      .where(eq(metricDrains.status, 'provisioned'));
    // The figures of this moment (a container that started within the minute has some already).
    const tick = now;
    await eachLimited(drains, DRAIN_CONCURRENCY, async ({ drain, environment }) => {
      try {
        if (!(await holdDrain(db, metricDrains, drain.id, shipperId, leaseMs))) return;
        if (drain.retryAt && drain.retryAt > now) return;
        // A container without any figure yet (just started) has nothing to send.
        const points = (await collect(drain, environment, tick)).filter(
          (point) => point.memoryMb !== null || point.cpuPct !== null || point.diskGb !== null,
        );
        let error = '';
        if (points.length) {
          try {
            await deliver(drain, points);
          } catch (problem) {
            error =
              problem instanceof DeliveryError
                ? problem.message
                : `Delivery failed: ${(problem as Error).message}`;
          }
        }
        const failures = error ? drain.failures + 1 : 0;
        await db
          .update(metricDrains)
          .set(
            error
              ? { lastError: error.slice(0, 500), failures, retryAt: retryAfter(now, failures) }
              : {
                  pointsSent: sql`${metricDrains.pointsSent} + ${points.length}`,
                  ...(points.length ? { lastShippedAt: now } : {}),
                  lastError: '',
                  failures: 0,
                  retryAt: null,
                },
          )
          .where(and(eq(metricDrains.id, drain.id), eq(metricDrains.shipperId, shipperId)));
      } catch (error) {
        deps.onError?.(error);
      }
    });
  }

  let leaseMs = leaseFor(METRIC_SHIPPING_INTERVAL_MS);
  const task = periodic(() => shipOnce(), deps.onError);
  return {
    shipOnce,
    start(intervalMs = METRIC_SHIPPING_INTERVAL_MS) {
      leaseMs = leaseFor(intervalMs);
      task.start(intervalMs);
    },
    stop: task.stop,
  };
}
export type MetricShipper = ReturnType<typeof createMetricShipper>;

function numberOrNull(value: number | null | undefined): number | null {
  return typeof value === 'number' ? value : null;
}
