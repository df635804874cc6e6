import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { environments } from './environments.ts';
import { users } from './identity.ts';
import { organizations } from './organizations.ts';

/** Every change to a resource; the table is also the work queue (claimed with FOR UPDATE SKIP LOCKED). */
export const operations = pgTable(
  'operations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    environmentId: integer('environment_id').references(() => environments.id, { onDelete: 'set null' }),
    resourceType: text('resource_type').notNull(),
    resourceId: integer('resource_id').notNull(),
    resourceHandle: text('resource_handle').notNull().default(''),
    type: text('type').notNull(),
    status: text('status').notNull().default('queued'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name').notNull().default(''),
    userEmail: text('user_email').notNull().default(''),
    gitRef: text('git_ref'),
    dockerRef: text('docker_ref'),
    containerCount: integer('container_count'),
    containerSize: integer('container_size'),
    diskSize: integer('disk_size'),
    /**
     * Container memory (MB) a deploy's new services will take: held against the plan's memory limit while
     * the deploy is queued or running, so parallel first deploys never pass it together (billing/plans).
     */
    reservedMemoryMb: integer('reserved_memory_mb'),
    instanceProfile: text('instance_profile'),
    /** What a scale changed from, recorded when it runs (null for other types and older scales). */
    previousContainerCount: integer('previous_container_count'),
    previousContainerSize: integer('previous_container_size'),
    previousInstanceProfile: text('previous_instance_profile'),
    provisionedIops: integer('provisioned_iops').notNull().default(0),
    env: jsonb('env').$type<Record<string, string | null>>(),
    /**
     * What a type's request asked for beyond the columns above (a new database's handle, a recovery
     * target, the environment a backup is restored into). Internal: never sent on the wire.
     */
    parameters: jsonb('parameters').$type<Record<string, string | number | boolean | null>>(),
    note: text('note').notNull().default(''),
    automated: boolean('automated').notNull().default(false),
    cancelled: boolean('cancelled').notNull().default(false),
    aborted: boolean('aborted').notNull().default(false),
    immediate: boolean('immediate').notNull().default(false),
    /** Queue bookkeeping: how often a worker picked it up, who holds it and until when. */
    attempts: integer('attempts').notNull().default(0),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true, precision: 3 }),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [
    index('operations_queue_idx').on(table.status, table.id),
    // The lists page newest first on these, with the id breaking ties (a next link's cursor).
    index('operations_org_idx').on(table.organizationId, table.updatedAt, table.id),
    index('operations_env_idx').on(table.environmentId, table.updatedAt, table.id),
    // An environment's operations of a window, oldest first (its activity reports).
    index('operations_env_created_idx').on(table.environmentId, table.createdAt, table.id),
    // With the id: a resource's newest operation is one probe (`newest_per_resource`'s "no later one").
    index('operations_resource_idx').on(table.resourceType, table.resourceId, table.id),
    // An organization's, and an environment's, failed operations newest first (issue 41: the lists'
    // "last operation failed"), however many operations it has run; callers scoped to some environments
    // read the second.
    index('operations_org_failed_idx')
      .on(table.organizationId, table.updatedAt, table.id)
      .where(sql`status = 'failed'`),
    index('operations_env_failed_idx')
      .on(table.environmentId, table.updatedAt, table.id)
      .where(sql`status = 'failed'`),
    // The per-organization cap counts queued operations; the per-user limit counts recent ones.
    index('operations_org_queued_idx').on(table.organizationId).where(sql`status = 'queued'`),
    // The plan's limits count an organization's unfinished operations under its lock (billing/plans).
    index('operations_org_unfinished_idx')
      .on(table.organizationId)
      .where(sql`status in ('queued', 'running')`),
    index('operations_user_created_idx').on(table.userId, table.createdAt),
    // At most one unfinished operation of each type that the platform starts itself (automatic backups
    // and their pruning) per resource, however many workers schedule them.
    uniqueIndex('operations_automated_unfinished_unique')
      .on(table.resourceType, table.resourceId, table.type)
      .where(sql`automated and status in ('queued', 'running')`),
  ],
);

export const operationLogs = pgTable(
  'operation_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    operationId: integer('operation_id')
      .notNull()
      .references(() => operations.id, { onDelete: 'cascade' }),
    line: text('line').notNull(),
    /** The attempt that wrote the line (0: written outside any attempt), so a retry reads as one. */
    attempt: integer('attempt').notNull().default(0),
    createdAt: timestamps.createdAt,
  },
  (table) => [index('operation_logs_operation_idx').on(table.operationId, table.id)],
);
