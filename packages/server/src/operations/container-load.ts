import type { MetricsContainer, Runtime } from '../runtimes/runtime.ts';

/** One container's measured use at each tick: null where it did not run or was not measured. */
export interface ContainerSamples {
  container: MetricsContainer;
  /** CPU use as a share of the container's CPU allowance (1 = all of it). */
  cpu: (number | null)[];
  /** Memory in use, MB. */
  memoryMb: (number | null)[];
}

/** `count` evenly spaced moments after `from` up to `to`, at least `minStepMs` apart. */
export function ticksBetween(from: Date, to: Date, count: number, minStepMs: number): Date[] {
  const span = to.getTime() - from.getTime();
  if (span <= 0) return [to];
  const step = Math.max(minStepMs, Math.ceil(span / count));
  const ticks: Date[] = [];
  for (let at = to.getTime(); at > from.getTime() && ticks.length < count; at -= step)
    ticks.push(new Date(at));
  return ticks.reverse();
}

/** CPU and memory of containers at the ticks, from their runtime's metrics (the charts' own figures). */
export async function sampleContainers(
  runtime: Runtime,
  containers: readonly MetricsContainer[],
  ticks: readonly Date[],
): Promise<ContainerSamples[]> {
  const samples: ContainerSamples[] = [];
  for (const container of containers) {
    const [cpuSeries] = await runtime.containerMetrics(container, 'cpu_pct', ticks);
    const memorySeries = await runtime.containerMetrics(container, 'memory_all', ticks);
    const usage = memorySeries.find((series) => series.label === 'usage') ?? memorySeries[0];
    samples.push({
      container,
      cpu: ticks.map((_, index) => {
        const percent = cpuSeries?.values[index];
        return typeof percent === 'number' ? percent / 100 : null;
      }),
      memoryMb: ticks.map((_, index) => {
        const used = usage?.values[index];
        return typeof used === 'number' ? used : null;
      }),
    });
  }
  return samples;
}
