import { z } from 'zod';

// spec 2 §9 and contract §4.4: container metrics as the metric tunnel serves them and the console charts them.

export const CONTAINER_METRICS = ['memory_all', 'cpu_pct', 'la', 'fs', 'iops'] as const;
export type ContainerMetric = (typeof CONTAINER_METRICS)[number];

/** What each metric measures, for chart titles and axes (contract §4.4 units). */
export const CONTAINER_METRIC_INFO: Record<ContainerMetric, { title: string; unit: string }> = {
  memory_all: { title: 'Memory', unit: 'MB' },
  cpu_pct: { title: 'CPU', unit: '%' },
  la: { title: 'Load Average', unit: '' },
  fs: { title: 'Disk Usage', unit: 'GB' },
  iops: { title: 'IOPS', unit: '' },
};

export const METRIC_HORIZONS = ['1h', '1d', '1w'] as const;
export type MetricHorizon = (typeof METRIC_HORIZONS)[number];
export const METRIC_HORIZON_SECONDS: Record<MetricHorizon, number> = {
  '1h': 3600,
  '1d': 86400,
  '1w': 604800,
};
export const DEFAULT_METRIC_HORIZON: MetricHorizon = '1h';
export const METRIC_REQUESTED_TICKS = 300;
/** The metric tunnel answers at most this many ticks per series (a bound on one request's work). */
export const METRIC_MAX_TICKS = 1000;
export const METRIC_RELEASE_LOOKBACK_DAYS = 7;
export const METRIC_BATCH_SIZE = 20;
export const METRIC_BATCH_DELAY_MS = 250;

export function isMetricHorizon(value: unknown): value is MetricHorizon {
  return typeof value === 'string' && (METRIC_HORIZONS as readonly string[]).includes(value);
}

/** Metrics charted per layer: disks (fs, iops) belong to database containers only. */
export function metricsForLayer(layer: string): readonly ContainerMetric[] {
  return layer === 'database' ? CONTAINER_METRICS : ['memory_all', 'cpu_pct', 'la'];
}

/** contract §4.4: the chart legend of one series. */
export function metricLegend(metric: string, label: string): string {
  return `${metric} - ${label}`;
}

export const metricQueryMessages = {
  horizon: `Horizon must be one of: ${METRIC_HORIZONS.join(', ')}`,
  metric: `Metric must be one of: ${CONTAINER_METRICS.join(', ')}`,
  requestedTicks: `Requested ticks must be a whole number between 1 and ${METRIC_MAX_TICKS}`,
} as const;

const requestedTicks = z.preprocess(
  (value) => (typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value),
  z
    .number({ error: metricQueryMessages.requestedTicks })
    .int(metricQueryMessages.requestedTicks)
    .min(1, metricQueryMessages.requestedTicks)
    .max(METRIC_MAX_TICKS, metricQueryMessages.requestedTicks),
);

/** `GET /proxy/:containerId` query (contract §5.14); `ts` is a cache buster and ignored. */
export const metricQuerySchema = z.object({
  horizon: z.enum(METRIC_HORIZONS, { error: metricQueryMessages.horizon }).default(DEFAULT_METRIC_HORIZON),
  metric: z.enum(CONTAINER_METRICS, { error: metricQueryMessages.metric }),
  requestedTicks: requestedTicks.default(METRIC_REQUESTED_TICKS),
});
export type MetricQuery = z.infer<typeof metricQuerySchema>;

/**
 * `count` ticks evenly spaced across the horizon, the last one at `end` (contract §4.4 `time_0`).
 * One tick is just `end`.
 */
export function metricTicks(end: Date, horizon: MetricHorizon, count: number): Date[] {
  const span = METRIC_HORIZON_SECONDS[horizon] * 1000;
  const endMs = end.getTime();
  if (count <= 1) return [new Date(endMs)];
  const step = span / (count - 1);
  return Array.from({ length: count }, (_, index) => new Date(Math.round(endMs - span + index * step)));
}

export interface MetricRelease {
  id: string;
  createdAt: string;
  /** The service's current release (its `current_release` link). */
  current: boolean;
}

export interface MetricContainer {
  id: string;
  releaseId: string;
  layer: string;
  status: string;
  updatedAt: string;
}

const STOPPED_STATUSES = new Set(['stopped', 'deleted', 'exited']);

/**
 * contract §4.4: the containers a service's charts show: workload layers (app, database) of the
 * current release and of the releases of the last 7 days, as long as they are still inside the
 * horizon: running, or stopped (contract §4.3: `updated_at` then tells when) within it.
 */
export function chartedContainers<C extends MetricContainer>(
  releases: readonly MetricRelease[],
  containers: readonly C[],
  horizon: MetricHorizon,
  now: Date,
): C[] {
  const releaseSince = now.getTime() - METRIC_RELEASE_LOOKBACK_DAYS * 86400 * 1000;
  const horizonSince = now.getTime() - METRIC_HORIZON_SECONDS[horizon] * 1000;
  const kept = new Set(
    releases
      .filter((release) => release.current || Date.parse(release.createdAt) >= releaseSince)
      .map((release) => release.id),
  );
  return containers.filter((container) => {
    if (!kept.has(container.releaseId)) return false;
    if (container.layer !== 'app' && container.layer !== 'database') return false;
    if (!STOPPED_STATUSES.has(container.status)) return true;
    return Date.parse(container.updatedAt) >= horizonSince;
  });
}

/** Splits work into batches of `size` (spec 2 §9: 20 containers per batch). */
export function inBatches<T>(items: readonly T[], size = METRIC_BATCH_SIZE): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}
