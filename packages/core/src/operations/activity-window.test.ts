import { describe, expect, it } from 'vitest';
import { ACTIVITY_WINDOW_MS, activitySince } from './activity-window.ts';
import { parseSince, sinceMessages } from './since-filter.ts';

const NOW = Date.parse('2026-11-25T09:30:45.123Z');

describe('the activity window (spec 3 §9: 2 weeks)', () => {
  it('starts two weeks before the current minute', () => {
    expect(activitySince(NOW)).toBe('2026-11-11T09:30:00.000Z');
    expect(Date.parse(activitySince(NOW))).toBe(Date.parse('2026-11-25T09:30:00Z') - ACTIVITY_WINDOW_MS);
  });

  it.each([
    ['2026-11-11T09:30:00.000Z', '2026-11-11T09:30:00.000Z'],
    ['2026-11-11T10:30:00+01:00', '2026-11-11T09:30:00.000Z'],
    ['1970-01-01T00:00:00Z', '1970-01-01T00:00:00.000Z'],
  ])('accepts %s', (value, expected) => {
    const parsed = parseSince(value, NOW);
    expect('since' in parsed && parsed.since.toISOString()).toBe(expected);
  });

  it.each([
    ['yesterday', sinceMessages.invalid],
    ['2026-11-11', sinceMessages.invalid],
    ['2026-11-11T09:30:00', sinceMessages.invalid],
    ['1', sinceMessages.invalid],
    [`2026-11-11T09:30:00${'0'.repeat(200)}Z`, sinceMessages.invalid],
    ['1969-12-31T23:59:59Z', sinceMessages.outOfRange],
    ['2026-11-27T00:00:00Z', sinceMessages.outOfRange],
  ])('refuses %s', (value, problem) => {
    expect(parseSince(value, NOW)).toEqual({ problem });
  });
});
