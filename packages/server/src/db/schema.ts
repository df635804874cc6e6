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

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
};

/** Secrets the server generates on first start (JWT signing key) so every process shares them. */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamps.createdAt,
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    verified: boolean('verified').notNull().default(false),
    otpEnabled: boolean('otp_enabled').notNull().default(false),
    superuser: boolean('superuser').notNull().default(false),
    readOnlyImpersonate: boolean('read_only_impersonate').notNull().default(false),
    externalId: text('external_id'),
    selectedOrganizationId: uuid('selected_organization_id'),
    ...timestamps,
  },
  (table) => [uniqueIndex('users_email_unique').on(sql`lower(${table.email})`)],
);

export const tokens = pgTable(
  'tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'cascade' }),
    scope: text('scope').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
    /** sha256 of the secret half of the session cookie; null for tokens without a session. */
    sessionSecretHash: text('session_secret_hash'),
    createdAt: timestamps.createdAt,
  },
  (table) => [index('tokens_user_idx').on(table.userId)],
);

export const emailVerificationChallenges = pgTable(
  'email_verification_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [index('email_challenges_user_idx').on(table.userId)],
);

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  ssoEnforced: boolean('sso_enforced').notNull().default(false),
  address: text('address'),
  city: text('city'),
  state: text('state'),
  zip: text('zip'),
  primaryPhone: text('primary_phone'),
  emergencyPhone: text('emergency_phone'),
  opsAlertEmail: text('ops_alert_email'),
  securityAlertEmail: text('security_alert_email'),
  ...timestamps,
});

export const roles = pgTable(
  'roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').notNull().default('platform_user'),
    scimCreated: boolean('scim_created').notNull().default(false),
    ...timestamps,
  },
  (table) => [index('roles_org_idx').on(table.organizationId)],
);

export const memberships = pgTable(
  'memberships',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    privileged: boolean('privileged').notNull().default(false),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('memberships_user_role_unique').on(table.userId, table.roleId),
    index('memberships_role_idx').on(table.roleId),
  ],
);

export const mailOutbox = pgTable('mail_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }),
  error: text('error'),
  createdAt: timestamps.createdAt,
});

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

// Apps and databases are fleshed out by the control-plane work; they exist now so environment counts are real.
export const apps = pgTable(
  'apps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    handle: text('handle').notNull(),
    status: text('status').notNull().default('pending'),
    ...timestamps,
  },
  (table) => [uniqueIndex('apps_env_handle_unique').on(table.environmentId, table.handle)],
);

export const databases = pgTable(
  'databases',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    handle: text('handle').notNull(),
    type: text('type').notNull(),
    status: text('status').notNull().default('pending'),
    ...timestamps,
  },
  (table) => [uniqueIndex('databases_env_handle_unique').on(table.environmentId, table.handle)],
);

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** "email:<address>" or "ip:<address>" */
    key: text('key').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [index('login_attempts_key_idx').on(table.key, table.attemptedAt)],
);
