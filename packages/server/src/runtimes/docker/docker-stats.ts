import { type ContainerMetric, cpuShare } from '@berth/core';
import type Docker from 'dockerode';
import type { MetricSeries, MetricsContainer } from '../runtime.ts';
import { LABELS } from './engine.ts';

// The metric charts of containers on the docker runtime: the engine gives only the present (one-shot
// stats), so a recorder samples every running container of Berth's and keeps two tiers in memory: every
// sample for the last hour, and one-minute averages for the last week (the longest horizon). History
// starts when the server starts.

const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR;
const MINUTE = 60_000;

/** A fixed-size ring of (time, cpu cores, memory MB) samples. */
class SampleRing {
  private readonly times: Float64Array;
  private readonly cpu: Float32Array;
  private readonly memory: Float32Array;
  private next = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    this.times = new Float64Array(capacity);
    this.cpu = new Float32Array(capacity);
    this.memory = new Float32Array(capacity);
  }

  push(time: number, cpu: number, memory: number) {
    this.times[this.next] = time;
    this.cpu[this.next] = cpu;
    this.memory[this.next] = memory;
    this.next = (this.next + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
  }

  /** The latest sample in (from, to], or undefined. */
  latestIn(from: number, to: number): { cpu: number; memory: number } | undefined {
    for (let k = 1; k <= this.size; k++) {
      const index = (this.next - k + this.capacity) % this.capacity;
      const time = this.times[index] ?? 0;
      if (time <= from) return undefined;
      if (time <= to) return { cpu: this.cpu[index] ?? 0, memory: this.memory[index] ?? 0 };
    }
    return undefined;
  }
}

interface History {
  recent: SampleRing;
  minutes: SampleRing;
  /** The minute being averaged into the week's tier. */
  minute: { start: number; cpu: number; memory: number; count: number };
  /** The last cumulative CPU counters, to turn the next sample into a rate. */
  lastCpu?: { total: number; system: number; cpus: number };
}

export interface DockerStatsRecorder {
  /** Takes one sample of every running container (the timer calls it; tests call it directly). */
  sample(): Promise<void>;
  series(container: MetricsContainer, metric: ContainerMetric, ticks: readonly Date[]): MetricSeries[];
  /** Drops a removed container's history. */
  forget(dockerName: string): void;
  close(): void;
}

export function createDockerStatsRecorder(
  docker: Docker,
  options: { intervalMs: number; installation: string },
): DockerStatsRecorder {
  const histories = new Map<string, History>();
  const recentCapacity = Math.ceil(HOUR / options.intervalMs) + 1;

  function historyOf(name: string): History {
    let history = histories.get(name);
    if (!history) {
      history = {
        recent: new SampleRing(recentCapacity),
        minutes: new SampleRing(WEEK / MINUTE + 1),
        minute: { start: 0, cpu: 0, memory: 0, count: 0 },
      };
      histories.set(name, history);
    }
    return history;
  }

  function record(history: History, time: number, cpu: number, memory: number) {
    history.recent.push(time, cpu, memory);
    const start = Math.floor(time / MINUTE) * MINUTE;
    const minute = history.minute;
    if (minute.count > 0 && minute.start !== start) {
      history.minutes.push(
        minute.start + MINUTE - 1,
        minute.cpu / minute.count,
        minute.memory / minute.count,
      );
      minute.count = 0;
      minute.cpu = 0;
      minute.memory = 0;
    }
    minute.start = start;
    minute.cpu += cpu;
    minute.memory += memory;
    minute.count += 1;
  }

  async function sampleContainer(id: string, name: string) {
    const stats = (await docker
      .getContainer(id)
      .stats({ stream: false, 'one-shot': true } as never)) as unknown as {
      cpu_stats?: { cpu_usage?: { total_usage?: number }; system_cpu_usage?: number; online_cpus?: number };
      memory_stats?: { usage?: number; stats?: Record<string, number> };
    };
    const now = Date.now();
    const history = historyOf(name);
    const total = stats.cpu_stats?.cpu_usage?.total_usage ?? 0;
    const system = stats.cpu_stats?.system_cpu_usage ?? 0;
    const cpus = stats.cpu_stats?.online_cpus ?? 1;
    let cores = 0;
    if (history.lastCpu && system > history.lastCpu.system) {
      cores = ((total - history.lastCpu.total) / (system - history.lastCpu.system)) * cpus;
    }
    history.lastCpu = { total, system, cpus };
    // The page cache the kernel can drop is not the process's memory (as `docker stats` counts it).
    const cache =
      stats.memory_stats?.stats?.inactive_file ?? stats.memory_stats?.stats?.total_inactive_file ?? 0;
    const memoryMb = Math.max(0, (stats.memory_stats?.usage ?? 0) - cache) / (1024 * 1024);
    record(history, now, Math.max(0, cores), memoryMb);
  }

  let busy = false;
  async function sample() {
    const running = await docker.listContainers({
      filters: { label: [`${LABELS.managed}=true`, `${LABELS.installation}=${options.installation}`] },
    });
    for (let index = 0; index < running.length; index += 8) {
      await Promise.all(
        running
          .slice(index, index + 8)
          .map((container) =>
            sampleContainer(container.Id, container.Names[0]?.replace(/^\//, '') ?? container.Id).catch(
              () => undefined,
            ),
          ),
      );
    }
  }

  const timer = setInterval(() => {
    // One sampling at a time: a slow engine skips a beat rather than piling up.
    if (busy) return;
    busy = true;
    sample()
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  }, options.intervalMs);
  timer.unref();

  return {
    sample,
    forget(name) {
      histories.delete(name);
    },
    close() {
      clearInterval(timer);
    },
    series(container, metric, ticks) {
      if (metric === 'fs' || metric === 'iops') return [];
      const history = histories.get(container.dockerName);
      const spacing = ticks.length > 1 ? (ticks[1]?.getTime() ?? 0) - (ticks[0]?.getTime() ?? 0) : MINUTE;
      // Ticks closer than a minute read the recent samples; wider ones the minute averages.
      const ring = spacing < MINUTE ? history?.recent : history?.minutes;
      const window = Math.max(spacing, spacing < MINUTE ? options.intervalMs : MINUTE);
      const at = (tick: Date) => ring?.latestIn(tick.getTime() - window, tick.getTime());
      const label = (text: string) => `${container.dockerName} ${text}`.trim();
      const share = Math.max(cpuShare(container.instanceClass, container.memoryLimitMb) ?? 0.125, 0.125);
      const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
      switch (metric) {
        case 'memory_all':
          return [
            {
              label: label('usage'),
              values: ticks.map((tick) => nullable(at(tick), (s) => round(s.memory, 1))),
            },
            {
              label: label('limit'),
              values: ticks.map((tick) => nullable(at(tick), () => container.memoryLimitMb)),
            },
          ];
        case 'cpu_pct':
          return [
            {
              label: label(''),
              values: ticks.map((tick) => nullable(at(tick), (s) => round((s.cpu / share) * 100, 2))),
            },
          ];
        case 'la':
          // The engine reports no load average per container: the cores its processes kept busy is
          // the nearest measure.
          return [
            { label: label(''), values: ticks.map((tick) => nullable(at(tick), (s) => round(s.cpu, 2))) },
          ];
        default:
          return [];
      }
    },
  };
}

function nullable<T>(value: T | undefined, map: (value: T) => number): number | null {
  return value === undefined ? null : map(value);
}
