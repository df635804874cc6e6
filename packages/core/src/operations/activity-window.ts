// No schema library here: the console's entry sends its first Activity page with this (app/early-requests.ts).

/** spec 3 §9: Activity shows the last 2 weeks. */
export const ACTIVITY_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;

/**
 * The start of the Activity window as the console sends it: rounded down to the minute, so a list polled
 * every 10 s keeps one query key (and one cache entry) for a minute instead of one per poll.
 */
export function activitySince(now: number): string {
  const minute = 60_000;
  return new Date(Math.floor(now / minute) * minute - ACTIVITY_WINDOW_MS).toISOString();
}
