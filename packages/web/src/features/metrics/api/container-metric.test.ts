import { describe, expect, it } from 'vitest';
import { parseMetricTable } from './container-metric.ts';

describe('parseMetricTable (contract §4.4)', () => {
  it('reads time_0 as UTC ticks, ignores time_1 and keeps gaps', () => {
    const table = parseMetricTable('7', {
      columns: [
        ['usage', 1, null, 3],
        ['time_1', '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z', '2026-01-01T00:02:00Z'],
        ['time_0', '2026-01-01T10:00:00Z', '2026-01-01T10:00:12Z', '2026-01-01T10:00:24Z'],
        ['limit', 512, 512],
      ],
    });
    expect(table.times).toEqual([
      Date.UTC(2026, 0, 1, 10, 0, 0),
      Date.UTC(2026, 0, 1, 10, 0, 12),
      Date.UTC(2026, 0, 1, 10, 0, 24),
    ]);
    expect(table.series).toEqual([
      { label: 'usage', values: [1, null, 3] },
      { label: 'limit', values: [512, 512, null] },
    ]);
  });

  it('refuses a table without time_0', () => {
    expect(() => parseMetricTable('7', { columns: [['usage', 1]] })).toThrow(
      'The metric response has no time_0 column',
    );
  });
});
