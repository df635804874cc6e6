import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { organizations, roles } from './organizations.ts';

export const stacks = pgTable('stacks', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  name: text('name').notNull().unique(),
  region: text('region').notNull(),
  runtime: text('runtime').notNull().default('sim'),
  /** null → a shared stack; set → a dedicated stack owned by that organization. */
  organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
  public: boolean('public').notNull().default(false),
  isDefault: boolean('is_default').notNull().default(false),
  selfHosted: boolean('self_hosted').notNull().default(false),
  awsAccountId: text('aws_account_id').notNull().default(''),
  internalDomain: text('internal_domain').notNull().default('berth.internal'),
  defaultDomain: text('default_domain').notNull().default('on-berth.localhost'),
  outboundIpAddresses: jsonb('outbound_ip_addresses').$type<string[]>().notNull().default([]),
  memoryLimits: boolean('memory_limits').notNull().default(true),
  cpuLimits: boolean('cpu_limits').notNull().default(false),
  intrusionDetection: boolean('intrusion_detection').notNull().default(false),
  exposeIntrusionDetectionReports: boolean('expose_intrusion_detection_reports').notNull().default(false),
  allowCInstanceProfile: boolean('allow_c_instance_profile').notNull().default(true),
  allowMInstanceProfile: boolean('allow_m_instance_profile').notNull().default(true),
  allowRInstanceProfile: boolean('allow_r_instance_profile').notNull().default(true),
  allowTInstanceProfile: boolean('allow_t_instance_profile').notNull().default(false),
  allowGranularContainerSizes: boolean('allow_granular_container_sizes').notNull().default(true),
  verticalAutoscaling: boolean('vertical_autoscaling').notNull().default(false),
  horizontalAutoscaling: boolean('horizontal_autoscaling').notNull().default(false),
  ...timestamps,
});

/** Environments; "accounts" on the wire. */
export const environments = pgTable(
  'environments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    stackId: integer('stack_id')
      .notNull()
      .references(() => stacks.id),
    handle: text('handle').notNull(),
    type: text('type').notNull().default('development'),
    activated: boolean('activated').notNull().default(true),
    onboardingStatus: text('onboarding_status').notNull().default('unknown'),
    ...timestamps,
  },
  (table) => [uniqueIndex('environments_org_handle_unique').on(table.organizationId, table.handle)],
);

export const permissions = pgTable(
  'permissions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    scope: text('scope').notNull(),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('permissions_env_role_scope_unique').on(table.environmentId, table.roleId, table.scope),
    index('permissions_role_idx').on(table.roleId),
  ],
);
