import { type ContainerMetric, cpuShare } from '@berth/core';
import type Docker from 'dockerode';
import type { MetricSeries, MetricsContainer } from '../runtime.ts';
import { LABELS, logLines } from './engine.ts';

// The metric charts of containers on the docker runtime: the engine gives only the present (one-shot
// stats), so a recorder samples every running container of Berth's and keeps two tiers in memory: every
// sample for the last hour, and one-minute averages for the last week (the longest horizon). History
// starts when the server starts.

const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR;
const MINUTE = 60_000;
/** Disk use is measured every this many samples. */
const DISK_EVERY = 6;

/** A fixed-size ring of timed samples, each a few numbers (channels); NaN where one was not measured. */
class SampleRing {
  private readonly times: Float64Array;
  private readonly values: Float32Array[];
  private next = 0;
  private size = 0;

  constructor(
    readonly capacity: number,
    channels: number,
  ) {
    this.times = new Float64Array(capacity);
    this.values = Array.from({ length: channels }, () => new Float32Array(capacity));
  }

  push(time: number, sample: readonly number[]) {
    this.times[this.next] = time;
    this.values.forEach((channel, index) => {
      channel[this.next] = sample[index] ?? Number.NaN;
    });
    this.next = (this.next + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
  }

  /** The latest sample in (from, to], or undefined. */
  latestIn(from: number, to: number): number[] | undefined {
    for (let k = 1; k <= this.size; k++) {
      const index = (this.next - k + this.capacity) % this.capacity;
      const time = this.times[index] ?? 0;
      if (time <= from) return undefined;
      if (time <= to) return this.values.map((channel) => channel[index] ?? Number.NaN);
    }
    return undefined;
  }
}

/** The channels of a stats sample: CPU cores, memory MB, and (databases) read and write operations a second. */
const CPU = 0;
const MEMORY = 1;
const READS = 2;
const WRITES = 3;
const CHANNELS = 4;

interface History {
  recent: SampleRing;
  minutes: SampleRing;
  /** The minute being averaged into the week's tier. */
  minute: { start: number; sums: number[]; count: number };
  /** The last cumulative CPU counters, to turn the next sample into a rate. */
  lastCpu?: { total: number; system: number; cpus: number };
  /** The last cumulative I/O operation counts, to turn the next sample into a rate. */
  lastIo?: { time: number; reads: number; writes: number };
  /** A database's disk use in GB, measured every sixth sample (one week of them at the default). */
  disk?: SampleRing;
  lastDiskAt?: number;
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
        recent: new SampleRing(recentCapacity, CHANNELS),
        minutes: new SampleRing(WEEK / MINUTE + 1, CHANNELS),
        minute: { start: 0, sums: new Array(CHANNELS).fill(0), count: 0 },
      };
      histories.set(name, history);
    }
    return history;
  }

  function record(history: History, time: number, sample: number[]) {
    history.recent.push(time, sample);
    const start = Math.floor(time / MINUTE) * MINUTE;
    const minute = history.minute;
    if (minute.count > 0 && minute.start !== start) {
      history.minutes.push(
        minute.start + MINUTE - 1,
        minute.sums.map((sum) => sum / minute.count),
      );
      minute.count = 0;
      minute.sums.fill(0);
    }
    minute.start = start;
    // A channel not measured (NaN) stays NaN in the minute's average.
    sample.forEach((value, index) => {
      minute.sums[index] = (minute.sums[index] ?? 0) + value;
    });
    minute.count += 1;
  }

  /** Operations a second since the last sample, from the cumulative counts (cgroup v1 reports them). */
  function ioRates(
    history: History,
    now: number,
    serviced: { op?: string; value?: number }[] | null | undefined,
  ): [number, number] {
    if (!serviced?.length) return [Number.NaN, Number.NaN];
    const count = (op: string) =>
      serviced
        .filter((entry) => entry.op?.toLowerCase() === op)
        .reduce((sum, entry) => sum + (entry.value ?? 0), 0);
    const io = { time: now, reads: count('read'), writes: count('write') };
    const last = history.lastIo;
    history.lastIo = io;
    if (!last || now <= last.time) return [Number.NaN, Number.NaN];
    const seconds = (now - last.time) / 1000;
    return [Math.max(0, (io.reads - last.reads) / seconds), Math.max(0, (io.writes - last.writes) / seconds)];
  }

  /** A database's disk use: what its data directory holds, measured inside its container every sixth sample. */
  async function sampleDisk(id: string, history: History, dataPath: string, now: number) {
    // Every sixth sample (a minute at the default ten seconds): du reads the whole data directory.
    if (history.lastDiskAt !== undefined && now - history.lastDiskAt < DISK_EVERY * options.intervalMs)
      return;
    history.lastDiskAt = now;
    const exec = await docker.getContainer(id).exec({
      Cmd: ['du', '-sk', dataPath],
      AttachStdout: true,
      AttachStderr: false,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      // A measure that hangs must not stop the sampling of every container.
      const timer = setTimeout(() => {
        stream.destroy();
        reject(new Error('du did not finish in 10 s'));
      }, 10_000);
      const settle = () => {
        clearTimeout(timer);
        resolve();
      };
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.once('end', settle);
      stream.once('close', settle);
      stream.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    const lines = logLines(Buffer.concat(chunks));
    const kilobytes = Number.parseInt(lines[0]?.line ?? '', 10);
    if (!Number.isFinite(kilobytes)) return;
    history.disk ??= new SampleRing(WEEK / MINUTE + 1, 1);
    history.disk.push(now, [kilobytes / (1024 * 1024)]);
  }

  async function sampleContainer(id: string, name: string, dataPath: string | undefined) {
    const stats = (await docker
      .getContainer(id)
      .stats({ stream: false, 'one-shot': true } as never)) as unknown as {
      cpu_stats?: { cpu_usage?: { total_usage?: number }; system_cpu_usage?: number; online_cpus?: number };
      memory_stats?: { usage?: number; stats?: Record<string, number> };
      blkio_stats?: { io_serviced_recursive?: { op?: string; value?: number }[] | null };
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
    const [reads, writes] = dataPath
      ? ioRates(history, now, stats.blkio_stats?.io_serviced_recursive)
      : [Number.NaN, Number.NaN];
    record(history, now, [Math.max(0, cores), memoryMb, reads, writes]);
    if (dataPath) await sampleDisk(id, history, dataPath, now);
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
            sampleContainer(
              container.Id,
              container.Names[0]?.replace(/^\//, '') ?? container.Id,
              container.Labels[LABELS.data],
            ).catch(() => undefined),
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
      const history = histories.get(container.dockerName);
      const spacing = ticks.length > 1 ? (ticks[1]?.getTime() ?? 0) - (ticks[0]?.getTime() ?? 0) : MINUTE;
      // Ticks closer than a minute read the recent samples; wider ones the minute averages.
      const ring = spacing < MINUTE ? history?.recent : history?.minutes;
      const window = Math.max(spacing, spacing < MINUTE ? options.intervalMs : MINUTE);
      const at = (tick: Date) => {
        const sample = ring?.latestIn(tick.getTime() - window, tick.getTime());
        return (
          sample && {
            cpu: sample[CPU] ?? 0,
            memory: sample[MEMORY] ?? 0,
            reads: sample[READS],
            writes: sample[WRITES],
          }
        );
      };
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
        case 'fs': {
          // Measured once a minute: each tick takes the latest measure of the minute (or the window) before it.
          if (container.layer !== 'database' || !history?.disk) return [];
          const disk = history.disk;
          const span = Math.max(spacing, 2 * MINUTE);
          return [
            {
              label: label('used'),
              values: ticks.map((tick) =>
                nullable(disk.latestIn(tick.getTime() - span, tick.getTime()), (s) => round(s[0] ?? 0, 3)),
              ),
            },
          ];
        }
        case 'iops': {
          if (container.layer !== 'database') return [];
          const known = (value: number | undefined) =>
            value === undefined || Number.isNaN(value) ? null : value;
          const values = (pick: (s: NonNullable<ReturnType<typeof at>>) => number | undefined) =>
            ticks.map((tick) => {
              const sample = at(tick);
              const value = sample ? known(pick(sample)) : null;
              return value === null ? null : round(value, 0);
            });
          const reads = values((s) => s.reads);
          // The engine reports no operation counts (cgroup v2): no series rather than zeros.
          if (reads.every((value) => value === null)) return [];
          return [
            { label: label('read'), values: reads },
            { label: label('write'), values: values((s) => s.writes) },
          ];
        }
        default:
          return [];
      }
    },
  };
}

function nullable<T>(value: T | undefined, map: (value: T) => number): number | null {
  return value === undefined ? null : map(value);
}
