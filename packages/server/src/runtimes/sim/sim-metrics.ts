import { type ContainerMetric, cpuShare } from '@berth/core';
import type { MetricSeries, MetricsContainer } from '../runtime.ts';

/**
 * Simulated container metrics. Every value is a pure function of the container, the metric and the
 * absolute time of the tick: reloads agree, two horizons agree where they overlap, and the chart moves
 * forward as time passes. The shapes are those of a real workload: a daily cycle, slow drift, short
 * noise and the odd CPU burst; memory warms up after a start and stays under the limit.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** spec 2 §9: provisioned disk and IOPS of a database by default. */
const DEFAULT_DISK_GB = 10;
const DEFAULT_IOPS = 3000;

/** A 32-bit hash of a string (FNV-1a), the seed of one series. */
function seedOf(value: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < value.length; index++) {
    hash ^= value.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A uniform number in [0, 1) from a seed and an integer (a murmur3 finaliser). */
export function unit(seed: number, k: number): number {
  let h = (seed ^ Math.imul(k | 0, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** Smooth noise in [0, 1): random values every `grain` ms, eased in between (continuous in time). */
function smoothNoise(seed: number, time: number, grain: number): number {
  const position = time / grain;
  const k = Math.floor(position);
  const f = position - k;
  const eased = f * f * (3 - 2 * f);
  return unit(seed, k) * (1 - eased) + unit(seed, k + 1) * eased;
}

/** A daily cycle in [-1, 1] with a phase of its own. */
function daily(seed: number, time: number): number {
  return Math.sin((2 * Math.PI * time) / DAY + unit(seed, -1) * 2 * Math.PI);
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
const round = (value: number, digits: number) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/** CPU use in percent of the container's CPU share. */
function cpuPercent(seed: number, time: number): number {
  const base = 8 + 25 * unit(seed, 1);
  const burst = smoothNoise(seed + 7, time, MINUTE) > 0.94 ? 35 * smoothNoise(seed + 8, time, 20_000) : 0;
  const value =
    base +
    10 * daily(seed, time) +
    18 * (smoothNoise(seed + 1, time, 5 * MINUTE) - 0.5) +
    6 * (smoothNoise(seed + 2, time, 20_000) - 0.5) +
    burst;
  return clamp(value, 0.5, 100);
}

export function simContainerMetrics(
  container: MetricsContainer,
  metric: ContainerMetric,
  ticks: readonly Date[],
): MetricSeries[] {
  const isDatabase = container.layer === 'database';
  // Disks belong to databases: an app container has no fs or iops series (an empty chart, not an error).
  if ((metric === 'fs' || metric === 'iops') && !isDatabase) return [];
  const started = container.startedAt.getTime();
  const stopped = container.stoppedAt?.getTime() ?? Number.POSITIVE_INFINITY;
  const seed = seedOf(`${container.id}:${metric}`);
  const series = (label: string, value: (time: number, age: number) => number): MetricSeries => ({
    label: `${container.dockerName} ${label}`.trim(),
    values: ticks.map((tick) => {
      const time = tick.getTime();
      return time < started || time > stopped ? null : value(time, time - started);
    }),
  });
  const limit = container.memoryLimitMb;

  switch (metric) {
    case 'memory_all': {
      // Databases keep more in memory (caches) than a typical app process.
      const base = (isDatabase ? 0.45 : 0.25) + 0.3 * unit(seed, 1);
      return [
        series('usage', (time, age) => {
          const warm = 1 - Math.exp(-age / (20 * MINUTE));
          const fraction =
            0.06 +
            (base - 0.06) * warm +
            0.05 * daily(seed, time) +
            0.06 * (smoothNoise(seed + 1, time, 15 * MINUTE) - 0.5) +
            0.02 * (smoothNoise(seed + 2, time, MINUTE) - 0.5);
          return round(clamp(fraction, 0.03, 0.92) * limit, 1);
        }),
        series('limit', () => limit),
      ];
    }
    case 'cpu_pct':
      return [series('', (time) => round(cpuPercent(seed, time), 2))];
    case 'la': {
      // Load follows CPU: a container using its whole share keeps about that many cores busy.
      const cores = Math.max(cpuShare(container.instanceClass, limit) ?? 0.125, 0.125);
      const cpuSeed = seedOf(`${container.id}:cpu_pct`);
      return [
        series('', (time) =>
          round(
            (cpuPercent(cpuSeed, time) / 100) * cores * 1.3 + 0.15 * smoothNoise(seed, time, 10 * MINUTE),
            2,
          ),
        ),
      ];
    }
    case 'fs': {
      const initial = 0.15 + 0.4 * unit(seed, 1);
      const perDay = 0.01 + 0.05 * unit(seed, 2);
      return [
        series('used', (time, age) =>
          round(
            clamp(
              initial + (perDay * age) / DAY + 0.01 * smoothNoise(seed, time, HOUR),
              0,
              DEFAULT_DISK_GB * 0.95,
            ),
            3,
          ),
        ),
      ];
    }
    case 'iops': {
      const reads = 40 + 200 * unit(seed, 1);
      const writes = 20 + 120 * unit(seed, 2);
      const level = (scale: number, offset: number, time: number) =>
        round(
          clamp(
            scale *
              (0.75 + 0.35 * daily(seed + offset, time)) *
              (0.6 + 0.8 * smoothNoise(seed + offset, time, 2 * MINUTE)),
            0,
            DEFAULT_IOPS,
          ),
          0,
        );
      return [
        series('read', (time) => level(reads, 1, time)),
        series('write', (time) => level(writes, 2, time)),
      ];
    }
    default: {
      const unknown: never = metric;
      throw new Error(`Unknown metric ${String(unknown)}`);
    }
  }
}
