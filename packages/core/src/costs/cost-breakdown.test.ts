import { describe, expect, it } from 'vitest';
import { costBreakdown, costShare } from './cost-breakdown.ts';

describe('costBreakdown (issue 41: the costs page)', () => {
  it('splits the environments into apps, databases and the backups of deleted databases, and adds stacks', () => {
    const breakdown = costBreakdown({
      environments: [100, 60.5],
      apps: [43.8, 29.2, 40],
      databases: [46],
      stacks: [0, 499],
    });
    expect(
      breakdown.rows.map(({ type, count, monthly }) => [type, count, Number(monthly.toFixed(2))]),
    ).toEqual([
      ['apps', 3, 113],
      ['databases', 1, 46],
      ['orphanedBackups', null, 1.5],
      ['stacks', 1, 499],
    ]);
    expect(breakdown.total).toBeCloseTo(659.5, 10);
  });

  it('leaves out leftover backups that are only rounding, and is zero for nothing', () => {
    const breakdown = costBreakdown({ environments: [29.2], apps: [29.2000001], databases: [], stacks: [] });
    expect(breakdown.rows.map((row) => row.type)).toEqual(['apps', 'databases', 'stacks']);
    expect(breakdown.total).toBeCloseTo(29.2, 5);
    expect(costBreakdown({ environments: [], apps: [], databases: [], stacks: [] }).total).toBe(0);
  });

  it('says a share in whole percent', () => {
    expect(costShare(113, 659.5)).toBe('17 %');
    expect(costShare(0, 0)).toBe('0 %');
  });
});
