import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { environments } from './environments.ts';
import { users } from './identity.ts';
import { organizations } from './organization.ts';

/**
 * Activity reports (contract §4.3 activity_report): an environment's operations of one window, made
 * weekly by the worker and on demand. Made `pending`; `ready` once its file is written, `failed` when
 * making it failed ACTIVITY_REPORT_MAX_ATTEMPTS times.
 */
export const activityReports = pgTable(
  'activity_reports',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    startsAt: timestamp('starts_at', { withTimezone: true, precision: 3 }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true, precision: 3 }).notNull(),
    filename: text('filename').notNull(),
    /** `weekly` or `on_demand`. */
    kind: text('kind').notNull(),
    status: text('status').notNull().default('pending'),
    requestedById: uuid('requested_by_id').references(() => users.id, { onDelete: 'set null' }),
    operationCount: integer('operation_count').notNull().default(0),
    /** Times making its file failed; `failed` after ACTIVITY_REPORT_MAX_ATTEMPTS, so it is not picked forever. */
    attempts: integer('attempts').notNull().default(0),
    readyAt: timestamp('ready_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [
    // One report per environment and window, however many processes make them or users ask at once.
    uniqueIndex('activity_reports_env_window_unique').on(table.environmentId, table.startsAt, table.endsAt),
    // One on-demand report in the making per environment: asking again meanwhile answers that one.
    uniqueIndex('activity_reports_env_on_demand_pending_unique')
      .on(table.environmentId)
      .where(sql`kind = 'on_demand' and status = 'pending'`),
    // The environment's list, newest first.
    index('activity_reports_env_idx').on(table.environmentId, table.endsAt, table.id),
    // Reports waiting to be made, taken one per organization at a time.
    index('activity_reports_pending_idx').on(table.organizationId, table.id).where(sql`status = 'pending'`),
  ],
);

/** A ready report's CSV, apart from its row so that lists never read it. */
export const activityReportFiles = pgTable('activity_report_files', {
  reportId: bigint('report_id', { mode: 'number' })
    .primaryKey()
    .references(() => activityReports.id, { onDelete: 'cascade' }),
  csv: text('csv').notNull(),
  createdAt: timestamps.createdAt,
});
