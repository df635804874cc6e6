// Weekly activity reports (spec 2 §3 "Weekly report", contract §4.3 activity_report): an environment's
// operations of one window, as a CSV file. Written once for the server that makes them and the console
// that lists them.

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/** A report's window: from `startsAt` (included) to `endsAt` (excluded). */
export interface ReportWindow {
  startsAt: Date;
  endsAt: Date;
}

/**
 * The last whole week before `at`, Monday 00:00 UTC to the next Monday: the weekly report's window.
 * Every process computes the same one, so their reports meet on the database's unique index.
 */
export function lastWholeWeek(at: Date): ReportWindow {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  // getUTCDay: Sunday 0 … Saturday 6; days since this week's Monday.
  const sinceMonday = (new Date(midnight).getUTCDay() + 6) % 7;
  const thisMonday = midnight - sinceMonday * DAY_MS;
  return { startsAt: new Date(thisMonday - WEEK_MS), endsAt: new Date(thisMonday) };
}

/** An on-demand report: the 7 days up to `at`, so it holds what was done the moment before it was asked. */
export function lastSevenDays(at: Date): ReportWindow {
  return { startsAt: new Date(at.getTime() - WEEK_MS), endsAt: new Date(at.getTime()) };
}

/** The file's name: the environment's handle and the window's days, safe in any file system. */
export function activityReportFilename(environmentHandle: string, window: ReportWindow): string {
  const day = (date: Date) => date.toISOString().slice(0, 10);
  // Handles are lower-case letters, digits, dots, dashes and underscores; anything else is dropped.
  const handle = environmentHandle.replace(/[^a-z0-9._-]/gi, '').slice(0, 64) || 'environment';
  // The last day the window covers is the day before its (excluded) end, unless it ends mid-day.
  const lastMoment = new Date(window.endsAt.getTime() - 1);
  return `activity-${handle}-${day(window.startsAt)}-to-${day(lastMoment)}.csv`;
}

/** The report's columns (issue 38: who, what, when, outcome), one row per operation, oldest first. */
export const ACTIVITY_REPORT_COLUMNS = [
  'operation_id',
  'requested_at',
  'finished_at',
  'user_name',
  'user_email',
  'automated',
  'type',
  'resource_type',
  'resource_id',
  'resource_handle',
  'status',
  'note',
] as const;

/** What a report row is made of: an operation as the server keeps it. */
export interface ReportedOperation {
  id: number | string;
  createdAt: Date;
  finishedAt: Date | null;
  userName: string;
  userEmail: string;
  automated: boolean;
  type: string;
  resourceType: string;
  resourceId: number | string;
  resourceHandle: string;
  status: string;
  note: string;
}

/** One operation as a report row, in ACTIVITY_REPORT_COLUMNS order. */
export function activityReportRow(operation: ReportedOperation): (string | boolean)[] {
  return [
    String(operation.id),
    operation.createdAt.toISOString(),
    operation.finishedAt ? operation.finishedAt.toISOString() : '',
    operation.userName,
    operation.userEmail,
    operation.automated,
    operation.type,
    operation.resourceType,
    String(operation.resourceId),
    operation.resourceHandle,
    operation.status,
    operation.note,
  ];
}

export const ACTIVITY_REPORT_KINDS = ['weekly', 'on_demand'] as const;
export type ActivityReportKind = (typeof ACTIVITY_REPORT_KINDS)[number];

/** `failed`: making the file failed ACTIVITY_REPORT_MAX_ATTEMPTS times; it is not tried again. */
export const ACTIVITY_REPORT_STATUSES = ['pending', 'ready', 'failed'] as const;
export type ActivityReportStatus = (typeof ACTIVITY_REPORT_STATUSES)[number];

/**
 * A report's bounds, so one busy environment cannot make a file that fills memory or the database: at
 * most this many operations, and at most this many bytes of CSV (the line saying it was cut aside).
 */
export const ACTIVITY_REPORT_MAX_ROWS = 100_000;
export const ACTIVITY_REPORT_MAX_BYTES = 32 * 1024 * 1024;

export const activityReportMessages = {
  notReady: 'This activity report is still being prepared. Try again in a minute.',
  failed: 'This activity report could not be made. Make a new report, or contact support if it fails again.',
  /** The last line of a report cut at its bounds. */
  cut: (listed: number, lastListedAt: string) =>
    `This report was cut at its limit (${ACTIVITY_REPORT_MAX_ROWS.toLocaleString('en-US')} operations or ${ACTIVITY_REPORT_MAX_BYTES / 1024 / 1024} MB): it lists the first ${listed.toLocaleString('en-US')}, up to ${lastListedAt}; the later ones are not listed.`,
  invalidLink: 'This report link is invalid or has expired',
} as const;
/**
 * On-demand reports an environment keeps (its newest; weekly ones are kept apart): a member can ask for
 * one a minute, each up to ACTIVITY_REPORT_MAX_BYTES, so without a bound they would fill the database.
 */
export const ACTIVITY_REPORT_ON_DEMAND_KEPT = 10;
