import { describe, expect, it } from 'vitest';
import {
  chartedContainers,
  inBatches,
  metricLegend,
  metricQuerySchema,
  metricsForLayer,
  metricTicks,
} from './container-metrics.ts';

describe('metricQuerySchema (contract §5.14)', () => {
  it('defaults the horizon to 1h and the ticks to 300 (spec 2 §9)', () => {
    expect(metricQuerySchema.parse({ metric: 'cpu_pct', ts: '123' })).toEqual({
      horizon: '1h',
      metric: 'cpu_pct',
      requestedTicks: 300,
    });
    expect(metricQuerySchema.parse({ metric: 'la', horizon: '1w', requestedTicks: '12' })).toEqual({
      horizon: '1w',
      metric: 'la',
      requestedTicks: 12,
    });
  });

  it.each([
    [{ metric: 'disk' }, 'Metric must be one of: memory_all, cpu_pct, la, fs, iops'],
    [{}, 'Metric must be one of: memory_all, cpu_pct, la, fs, iops'],
    [{ metric: 'la', horizon: '2h' }, 'Horizon must be one of: 1h, 1d, 1w'],
    [{ metric: 'la', requestedTicks: '0' }, 'Requested ticks must be a whole number between 1 and 1000'],
    [{ metric: 'la', requestedTicks: '1001' }, 'Requested ticks must be a whole number between 1 and 1000'],
    [{ metric: 'la', requestedTicks: '2.5' }, 'Requested ticks must be a whole number between 1 and 1000'],
  ])('refuses %j', (query, message) => {
    const result = metricQuerySchema.safeParse(query);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});

describe('metricTicks', () => {
  it('spreads the ticks evenly across the horizon, ending now', () => {
    const end = new Date('2026-01-01T12:00:00.000Z');
    const ticks = metricTicks(end, '1h', 301);
    expect(ticks).toHaveLength(301);
    expect(ticks[0]?.toISOString()).toBe('2026-01-01T11:00:00.000Z');
    expect(ticks[1]?.toISOString()).toBe('2026-01-01T11:00:12.000Z');
    expect(ticks.at(-1)?.toISOString()).toBe('2026-01-01T12:00:00.000Z');
    expect(metricTicks(end, '1d', 1).map((tick) => tick.toISOString())).toEqual([end.toISOString()]);
  });
});

describe('chartedContainers (contract §4.4)', () => {
  const now = new Date('2026-01-10T12:00:00Z');
  const releases = [
    { id: 'current', createdAt: '2025-12-01T00:00:00Z', current: true },
    { id: 'recent', createdAt: '2026-01-09T00:00:00Z', current: false },
    { id: 'old', createdAt: '2026-01-01T00:00:00Z', current: false },
  ];
  const container = (
    id: string,
    releaseId: string,
    status = 'running',
    updatedAt = '2026-01-10T11:30:00Z',
  ) => ({
    id,
    releaseId,
    layer: 'app',
    status,
    updatedAt,
  });

  it('keeps the current release and the releases of the last 7 days, workload layers only', () => {
    const containers = [
      container('a', 'current', 'running', '2025-12-01T00:00:00Z'),
      container('b', 'recent', 'stopped', '2026-01-10T11:30:00Z'),
      container('c', 'recent', 'stopped', '2026-01-09T12:00:00Z'),
      container('d', 'old', 'stopped', '2026-01-10T11:59:00Z'),
      { ...container('e', 'current'), layer: 'proxy' },
      { ...container('f', 'current'), layer: 'database' },
    ];
    expect(chartedContainers(releases, containers, '1h', now).map((c) => c.id)).toEqual(['a', 'b', 'f']);
    expect(chartedContainers(releases, containers, '1d', now).map((c) => c.id)).toEqual(['a', 'b', 'c', 'f']);
  });
});

describe('helpers', () => {
  it('charts disks for databases only, legends as "<metric> - <label>", batches of 20', () => {
    expect(metricsForLayer('app')).toEqual(['memory_all', 'cpu_pct', 'la']);
    expect(metricsForLayer('database')).toEqual(['memory_all', 'cpu_pct', 'la', 'fs', 'iops']);
    expect(metricLegend('memory_all', 'web-1 usage')).toBe('memory_all - web-1 usage');
    expect(inBatches(Array.from({ length: 45 }, (_, i) => i)).map((batch) => batch.length)).toEqual([
      20, 20, 5,
    ]);
  });
});
