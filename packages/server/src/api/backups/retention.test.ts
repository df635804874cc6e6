import { describe, expect, it } from 'vitest';
import { backupsToPrune } from './retention.ts';

const at = (iso: string, id: number) => ({ id, createdAt: new Date(iso) });

describe('backupsToPrune', () => {
  it('keeps the newest backup of each recent day, month and year, and prunes the rest', () => {
    const backups = [
      at('2026-11-25T02:00:00Z', 1),
      at('2026-11-25T01:00:00Z', 2), // same day as 1: not needed
      at('2026-11-24T02:00:00Z', 3),
      at('2026-11-23T02:00:00Z', 4), // beyond 2 days, same month as 1
      at('2026-10-31T02:00:00Z', 5), // newest of October
      at('2026-10-01T02:00:00Z', 6),
      at('2025-12-31T02:00:00Z', 7), // newest of 2025
      at('2024-06-01T02:00:00Z', 8), // beyond 2 years
    ];
    expect(backupsToPrune(backups, { daily: 2, monthly: 2, yearly: 2 }).sort()).toEqual([2, 4, 6, 8]);
  });

  it('keeps only the daily ones when months and years are 0, and nothing of nothing', () => {
    const backups = [
      at('2026-11-25T02:00:00Z', 1),
      at('2026-11-24T02:00:00Z', 2),
      at('2026-10-24T02:00:00Z', 3),
    ];
    expect(backupsToPrune(backups, { daily: 1, monthly: 0, yearly: 0 }).sort()).toEqual([2, 3]);
    expect(backupsToPrune([], { daily: 30, monthly: 12, yearly: 6 })).toEqual([]);
  });
});
