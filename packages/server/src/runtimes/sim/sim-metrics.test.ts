import { CONTAINER_METRICS, metricTicks } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { simContainerMetrics } from './sim-metrics.ts';

const now = new Date('2026-03-01T12:00:00Z');
const container = (id: number, layer = 'app', memoryLimitMb = 512) => ({
  id,
  dockerName: `shop-web-${id}`,
  layer,
  instanceClass: 'm5',
  memoryLimitMb,
  startedAt: new Date(now.getTime() - 30 * 86400_000),
  stoppedAt: null,
});

describe('simContainerMetrics', () => {
  it('keeps every series in its plausible range over a week, for many containers', () => {
    const ticks = metricTicks(now, '1w', 1000);
    for (let id = 1; id <= 40; id++) {
      const subject = container(id, id % 2 ? 'app' : 'database', 512 * id);
      const [usage, limit] = simContainerMetrics(subject, 'memory_all', ticks);
      expect(limit?.values.every((value) => value === subject.memoryLimitMb)).toBe(true);
      const range = (metric: 'memory_all' | 'cpu_pct' | 'la') => {
        const numbers = (simContainerMetrics(subject, metric, ticks)[0]?.values ?? []).map(Number);
        return [Math.min(...numbers), Math.max(...numbers)];
      };
      expect(usage?.values).toHaveLength(1000);
      const [memoryLow = 0, memoryHigh = 0] = range('memory_all');
      expect(memoryLow).toBeGreaterThan(0);
      expect(memoryHigh).toBeLessThan(subject.memoryLimitMb);
      const [cpuLow = 0, cpuHigh = 0] = range('cpu_pct');
      expect(cpuLow).toBeGreaterThanOrEqual(0);
      expect(cpuHigh).toBeLessThanOrEqual(100);
      const [loadLow = 0, loadHigh = 0] = range('la');
      expect(loadLow).toBeGreaterThanOrEqual(0);
      expect(loadHigh).toBeLessThan(200);
    }
  });

  it('varies between containers and over time, and agrees with itself at the same instants', () => {
    const ticks = metricTicks(now, '1h', 300);
    const a = simContainerMetrics(container(1), 'cpu_pct', ticks)[0]?.values ?? [];
    const b = simContainerMetrics(container(2), 'cpu_pct', ticks)[0]?.values ?? [];
    expect(a).not.toEqual(b);
    expect(new Set(a).size).toBeGreaterThan(100);
    // A different tick set that shares the last instant gives the same value there.
    const other = simContainerMetrics(container(1), 'cpu_pct', metricTicks(now, '1d', 7))[0]?.values ?? [];
    expect(other.at(-1)).toBe(a.at(-1));
  });

  it('answers every metric for databases and no disk series for apps', () => {
    const ticks = metricTicks(now, '1h', 5);
    for (const metric of CONTAINER_METRICS) {
      expect(simContainerMetrics(container(3, 'database'), metric, ticks).length).toBeGreaterThan(0);
    }
    expect(simContainerMetrics(container(3), 'fs', ticks)).toEqual([]);
    expect(simContainerMetrics(container(3), 'iops', ticks)).toEqual([]);
  });
});
