import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { databases } from './databases.ts';
import { environments } from './environments.ts';

/**
 * Log drains (contract §4.3 log_drain): where an environment's log lines are shipped. The destination's
 * secrets (its URL, which often holds a key, and its token) are sealed with the server's key. The
 * shipper's progress lives on the row: the time it has shipped up to, what it sent and dropped, its
 * last error and when it may try again.
 */
export const logDrains = pgTable(
  'log_drains',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    handle: text('handle').notNull(),
    /** What the console offered (datadog, insightops, …); `drainType` is what it is stored as. */
    serviceType: text('service_type').notNull(),
    drainType: text('drain_type').notNull(),
    drainHost: text('drain_host').notNull().default(''),
    drainPort: integer('drain_port'),
    urlSealed: text('url_sealed'),
    loggingTokenSealed: text('logging_token_sealed'),
    databaseId: integer('database_id').references(() => databases.id, { onDelete: 'set null' }),
    drainApps: boolean('drain_apps').notNull().default(true),
    drainDatabases: boolean('drain_databases').notNull().default(true),
    drainEphemeralSessions: boolean('drain_ephemeral_sessions').notNull().default(true),
    drainProxies: boolean('drain_proxies').notNull().default(false),
    status: text('status').notNull().default('pending'),
    /** Lines up to this time have been delivered (at least once). */
    shippedUntil: timestamp('shipped_until', { withTimezone: true, precision: 3 }),
    linesSent: bigint('lines_sent', { mode: 'number' }).notNull().default(0),
    linesDropped: bigint('lines_dropped', { mode: 'number' }).notNull().default(0),
    lastError: text('last_error').notNull().default(''),
    lastShippedAt: timestamp('last_shipped_at', { withTimezone: true, precision: 3 }),
    /** After a failed delivery: not before this time, and how many failures in a row. */
    retryAt: timestamp('retry_at', { withTimezone: true, precision: 3 }),
    failures: integer('failures').notNull().default(0),
    /** The process shipping it now, until its lease ends (one shipper per drain across processes). */
    shipperId: text('shipper_id'),
    shipperLeaseUntil: timestamp('shipper_lease_until', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [
    index('log_drains_env_idx').on(table.environmentId),
    uniqueIndex('log_drains_env_handle_idx').on(table.environmentId, sql`lower(${table.handle})`),
    index('log_drains_status_idx').on(table.status),
  ],
);

/**
 * Metric drains (contract §4.3 metric_drain): where an environment's container metrics are sent every
 * minute. The destination's configuration (with its password, token or API key) is sealed; its address
 * is kept apart, for the provision's check and for display.
 */
export const metricDrains = pgTable(
  'metric_drains',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    handle: text('handle').notNull(),
    drainType: text('drain_type').notNull(),
    address: text('address').notNull().default(''),
    configurationSealed: text('configuration_sealed'),
    databaseId: integer('database_id').references(() => databases.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('pending'),
    pointsSent: bigint('points_sent', { mode: 'number' }).notNull().default(0),
    lastError: text('last_error').notNull().default(''),
    lastShippedAt: timestamp('last_shipped_at', { withTimezone: true, precision: 3 }),
    retryAt: timestamp('retry_at', { withTimezone: true, precision: 3 }),
    failures: integer('failures').notNull().default(0),
    shipperId: text('shipper_id'),
    shipperLeaseUntil: timestamp('shipper_lease_until', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [
    index('metric_drains_env_idx').on(table.environmentId),
    uniqueIndex('metric_drains_env_handle_idx').on(table.environmentId, sql`lower(${table.handle})`),
    index('metric_drains_status_idx').on(table.status),
  ],
);
