import { describe, expect, it } from 'vitest';
import { failureReason, MAX_FAILURE_REASON_CHARS } from './failure-reason.ts';

describe('failureReason (issue 41)', () => {
  it('is the first error line without its time stamp and level', () => {
    const log = [
      '2026-01-01 12:00:00 +0000 INFO -- : Fetching main',
      "2026-01-01 12:00:01 +0000 ERROR -- : fatal: couldn't find remote ref simfail-v2",
      '2026-01-01 12:00:02 +0000 ERROR -- : Deploy failed',
    ].join('\n');
    expect(failureReason(log)).toBe("fatal: couldn't find remote ref simfail-v2");
  });

  it('reads the level where the line has it, never " ERROR " inside a message', () => {
    const log = [
      '2026-01-01 12:00:00 +0000 INFO -- : step 3 ERROR -- : looks like an error, is build output',
      '2026-01-01 12:00:01 +0000 ERROR -- : the real reason',
    ].join('\n');
    expect(failureReason(log)).toBe('the real reason');
    expect(failureReason('2026-01-01 12:00:00 +0000 INFO -- : x ERROR y', 'its note')).toBe('its note');
  });

  it('falls back to the note, else nothing', () => {
    expect(failureReason('2026-01-01 12:00:00 +0000 INFO -- : ok', ' Out of memory ')).toBe('Out of memory');
    expect(failureReason('', '')).toBeNull();
    // An error mark with nothing after it is no reason.
    expect(failureReason('2026-01-01 12:00:00 +0000 ERROR -- : ')).toBeNull();
  });

  it('clips a long reason', () => {
    const reason = failureReason(
      `2026-01-01 12:00:00 +0000 ERROR -- : ${'a'.repeat(MAX_FAILURE_REASON_CHARS + 50)}`,
    );
    expect(reason).toHaveLength(MAX_FAILURE_REASON_CHARS + 1);
    expect(reason?.endsWith('…')).toBe(true);
  });
});
