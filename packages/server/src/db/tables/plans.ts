import { bigint, bigserial, boolean, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { organizations } from './organization.ts';

/**
 * The plans (contract §4.2 plan), one per name, seeded by migration 0025 with spec 1 §9's figures and
 * changed only by the operator (`npm run admin -- plans set`). Sizes: memory in MB, disk in GB.
 */
export const plans = pgTable('plans', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  name: text('name').notNull().unique(),
  costCents: integer('cost_cents').notNull(),
  containerMemoryLimit: integer('container_memory_limit').notNull(),
  includedContainerMb: integer('included_container_mb').notNull(),
  diskLimit: integer('disk_limit').notNull(),
  includedDiskGb: integer('included_disk_gb').notNull(),
  vhostLimit: integer('vhost_limit').notNull(),
  includedVhosts: integer('included_vhosts').notNull(),
  /** null: no limit. */
  environmentLimit: integer('environment_limit'),
  ephemeralSessionLimit: integer('ephemeral_session_limit').notNull(),
  manualBackupLimitPerDb: integer('manual_backup_limit_per_db').notNull(),
  automatedBackupLimitPerDb: integer('automated_backup_limit_per_db').notNull(),
  /** A bit per container profile family (core CPU_PROFILE_FLAGS). */
  cpuAllowedProfiles: integer('cpu_allowed_profiles').notNull(),
  horizontalAutoscaling: boolean('horizontal_autoscaling').notNull(),
  verticalAutoscaling: boolean('vertical_autoscaling').notNull(),
  complianceDashboardAccess: boolean('compliance_dashboard_access').notNull(),
  discountPercent: integer('discount_percent').notNull().default(0),
  ...timestamps,
});

/**
 * The plan an organization is on (contract §4.2 active_plan), and the plans its owners may move it to.
 * An organization without one is on the legacy plan the console assumes (enterprise's figures).
 */
export const activePlans = pgTable(
  'active_plans',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    // A plan in use cannot be removed from under its organizations.
    planId: bigint('plan_id', { mode: 'number' })
      .notNull()
      .references(() => plans.id, { onDelete: 'restrict' }),
    /** Plan names an owner may choose here (the operator sets them: `npm run admin -- plans available`). */
    availablePlans: text('available_plans').array().notNull(),
    ...timestamps,
  },
  (table) => [uniqueIndex('active_plans_organization_unique').on(table.organizationId)],
);
