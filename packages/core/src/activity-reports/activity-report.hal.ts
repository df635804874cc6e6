import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp, isoTimestampOrNull } from '../hal/hal.ts';
import { ACTIVITY_REPORT_KINDS, ACTIVITY_REPORT_STATUSES } from './activity-report.ts';

/**
 * Contract §4.3 activity_report. `status`, `kind`, `operation_count` and `ready_at` are Berth's additions:
 * an on-demand report is listed while it is being made, and only a ready one downloads.
 */
export const activityReportResource = z
  .strictObject({
    id: halId,
    _type: z.literal('activity_report'),
    starts_at: isoTimestamp,
    ends_at: isoTimestamp,
    filename: z.string(),
    status: z.enum(ACTIVITY_REPORT_STATUSES),
    kind: z.enum(ACTIVITY_REPORT_KINDS),
    operation_count: z.number().int(),
    ready_at: isoTimestampOrNull,
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'account', 'download']),
  })
  .meta({ id: 'ActivityReport' });
export type ActivityReportResource = z.infer<typeof activityReportResource>;

export const activityReportCollection = halCollection('activity_reports', activityReportResource).meta({
  id: 'ActivityReportCollection',
});
export type ActivityReportCollection = z.infer<typeof activityReportCollection>;

/** A report's file, as its signed link answers it (a route's response entry). */
export const activityReportFileAnswer = { content: { 'text/csv': { schema: z.string() } } };
