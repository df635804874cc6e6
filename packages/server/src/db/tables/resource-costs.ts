import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * What each app, database, service and environment is priced by, kept up to date by triggers in the same
 * transaction as the change (migration 0039): a costs page reads one indexed table instead of adding up
 * services, endpoints, disks and backups (issue 40). The rows hold quantities, not dollars: the cost
 * model and its rates stay in `@berth/core` (estimateMonthlyCost), applied when a page is read.
 *
 * An owner's row sums its own resources; an environment's row sums every priced resource living in it
 * (its apps', its databases' and the backups of databases that are gone).
 */
export const resourceCosts = pgTable(
  'resource_costs',
  {
    ownerType: text('owner_type').notNull(),
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    organizationId: uuid('organization_id'),
    environmentId: integer('environment_id').notNull(),
    /** Containers × memory per container (MB), by instance class family (an unknown class counts as m). */
    mClassMemoryMb: bigint('m_class_memory_mb', { mode: 'number' }).notNull().default(0),
    cClassMemoryMb: bigint('c_class_memory_mb', { mode: 'number' }).notNull().default(0),
    rClassMemoryMb: bigint('r_class_memory_mb', { mode: 'number' }).notNull().default(0),
    /** Endpoints with a load balancer (an external host), dedicated and shared. */
    endpoints: integer('endpoints').notNull().default(0),
    sharedEndpoints: integer('shared_endpoints').notNull().default(0),
    diskGb: bigint('disk_gb', { mode: 'number' }).notNull().default(0),
    /** Provisioned IOPS above the included baseline, summed over the disks. */
    extraIops: bigint('extra_iops', { mode: 'number' }).notNull().default(0),
    /** Exact decimal, so a backup added then removed leaves no rounding residue behind. */
    backupGb: numeric('backup_gb', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.ownerType, table.ownerId] }),
    // A page of one kind of owner in the caller's readable environments, by id, and its count.
    index('resource_costs_type_env_owner_idx').on(table.ownerType, table.environmentId, table.ownerId),
    index('resource_costs_org_idx').on(table.organizationId),
    check(
      'resource_costs_owner_type_check',
      sql`${table.ownerType} in ('app', 'database', 'environment', 'service')`,
    ),
  ],
);
