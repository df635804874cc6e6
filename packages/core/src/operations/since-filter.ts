import { z } from 'zod';
import { MAX_LENGTH } from '../text/limits.ts';

/** A `since` a little ahead of the server's clock is the browser's clock skew, not a mistake. */
const CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

export const sinceMessages = {
  invalid: 'since must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T00:00:00Z',
  outOfRange: 'since must lie between 1970-01-01T00:00:00Z and now',
} as const;

const isoDateTime = z.iso.datetime({ offset: true });

/**
 * The `since` filter of the operation lists: the start of the window, as a Date, or the message to answer
 * with. The length is checked before the pattern (README: every string is bounded first).
 */
export function parseSince(value: string, now: number): { since: Date } | { problem: string } {
  if (value.length > MAX_LENGTH.keyword || !isoDateTime.safeParse(value).success) {
    return { problem: sinceMessages.invalid };
  }
  const time = Date.parse(value);
  if (!Number.isFinite(time)) return { problem: sinceMessages.invalid };
  if (time < 0 || time > now + CLOCK_SKEW_MS) return { problem: sinceMessages.outOfRange };
  return { since: new Date(time) };
}
