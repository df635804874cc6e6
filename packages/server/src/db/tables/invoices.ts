import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { organizations } from './organization.ts';

/**
 * Issue 37: what an organization had running, sampled once an hour by the usage meter. Each row is one
 * hour of use (quantities are what ran in that hour); an invoice adds up the rows of its period. Hours when
 * no meter ran are not billed. All whole numbers, so sums are exact on any database.
 */
export const usageHours = pgTable(
  'usage_hours',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The hour sampled (its first instant). */
    hour: timestamp('hour', { withTimezone: true, precision: 3 }).notNull(),
    mClassMb: bigint('m_class_mb', { mode: 'number' }).notNull().default(0),
    cClassMb: bigint('c_class_mb', { mode: 'number' }).notNull().default(0),
    rClassMb: bigint('r_class_mb', { mode: 'number' }).notNull().default(0),
    endpoints: integer('endpoints').notNull().default(0),
    sharedEndpoints: integer('shared_endpoints').notNull().default(0),
    diskGb: bigint('disk_gb', { mode: 'number' }).notNull().default(0),
    /** Provisioned IOPS above the included 3000, summed over disks. */
    extraIops: bigint('extra_iops', { mode: 'number' }).notNull().default(0),
    /** Backups in whole MB (each backup rounded once), so sums stay exact. */
    backupMb: bigint('backup_mb', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.hour] })],
);

/** Issue 37: an organization's invoice for a closed period, priced when it closed (amounts in cents). */
export const invoices = pgTable(
  'invoices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    periodStart: timestamp('period_start', { withTimezone: true, precision: 3 }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true, precision: 3 }).notNull(),
    planName: text('plan_name').notNull(),
    discountPercent: integer('discount_percent').notNull().default(0),
    /** core's InvoiceLine[]: what each meter used, what the plan included and what it cost. */
    lines: jsonb('lines').notNull().default(sql`'[]'::jsonb`),
    planCents: bigint('plan_cents', { mode: 'number' }).notNull(),
    usageCents: bigint('usage_cents', { mode: 'number' }).notNull(),
    includedCents: bigint('included_cents', { mode: 'number' }).notNull(),
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    // One invoice per period start: two closers racing make one invoice.
    uniqueIndex('invoices_organization_period_unique').on(table.organizationId, table.periodStart),
    index('invoices_organization_end_idx').on(table.organizationId, table.periodEnd),
  ],
);
