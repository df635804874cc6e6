import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
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
    /** The token this one was exchanged from: it never outlives it and is revoked with it. */
    parentId: uuid('parent_id').references((): AnyPgColumn => tokens.id, { onDelete: 'cascade' }),
    createdAt: timestamps.createdAt,
  },
  (table) => [index('tokens_user_idx').on(table.userId), index('tokens_parent_idx').on(table.parentId)],
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
  /** When a worker last claimed one of its operations: the longest-waiting organization goes next. */
  queueTurnAt: timestamp('queue_turn_at', { withTimezone: true, precision: 3 }),
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

/**
 * An invitation to join an organization through one role. The code mailed in the link is stored
 * hashed; a resend replaces it (and its expiry). Accepted invitations are deleted with the membership
 * made, so the table holds pending (possibly expired) ones only.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    inviterId: uuid('inviter_id').references(() => users.id, { onDelete: 'set null' }),
    inviterName: text('inviter_name').notNull(),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true, precision: 3 }).notNull(),
    ...timestamps,
  },
  (table) => [
    index('invitations_role_idx').on(table.roleId),
    uniqueIndex('invitations_role_email_unique').on(table.roleId, table.email),
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

export const apps = pgTable(
  'apps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    handle: text('handle').notNull(),
    status: text('status').notNull().default('pending'),
    deploymentMethod: text('deployment_method').notNull().default(''),
    currentConfigurationId: integer('current_configuration_id'),
    currentDeploymentId: integer('current_deployment_id'),
    currentImageId: integer('current_image_id'),
    currentSourceId: integer('current_source_id'),
    ...timestamps,
  },
  (table) => [uniqueIndex('apps_env_handle_unique').on(table.environmentId, table.handle)],
);

/** Environment variables of an app; every configure operation writes a new row. */
export const configurations = pgTable(
  'configurations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: integer('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    env: jsonb('env').$type<Record<string, string | null>>().notNull().default({}),
    ...timestamps,
  },
  (table) => [index('configurations_app_idx').on(table.appId)],
);

export const serviceDefinitions = pgTable('service_definitions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  appId: integer('app_id')
    .notNull()
    .references(() => apps.id, { onDelete: 'cascade' }),
  processType: text('process_type').notNull(),
  command: text('command').notNull().default(''),
  ...timestamps,
});

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
    databaseImageId: integer('database_image_id'),
    ...timestamps,
  },
  (table) => [uniqueIndex('databases_env_handle_unique').on(table.environmentId, table.handle)],
);

export const services = pgTable(
  'services',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    appId: integer('app_id').references(() => apps.id, { onDelete: 'cascade' }),
    databaseId: integer('database_id').references(() => databases.id, { onDelete: 'cascade' }),
    handle: text('handle').notNull(),
    processType: text('process_type').notNull().default('cmd'),
    command: text('command'),
    dockerRepo: text('docker_repo').notNull().default(''),
    dockerRef: text('docker_ref').notNull().default(''),
    containerCount: integer('container_count').notNull().default(1),
    containerMemoryLimitMb: integer('container_memory_limit_mb').notNull().default(512),
    instanceClass: text('instance_class').notNull().default('m5'),
    forceZeroDowntime: boolean('force_zero_downtime').notNull().default(false),
    naiveHealthCheck: boolean('naive_health_check').notNull().default(false),
    stopTimeout: integer('stop_timeout'),
    currentReleaseId: integer('current_release_id'),
    ...timestamps,
  },
  (table) => [
    index('services_env_idx').on(table.environmentId),
    index('services_app_idx').on(table.appId),
    // One service per process type of an app (database services have no app).
    uniqueIndex('services_app_handle_unique')
      .on(table.appId, table.handle)
      .where(sql`${table.appId} is not null`),
  ],
);

export const releases = pgTable(
  'releases',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    serviceId: integer('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    dockerRepo: text('docker_repo').notNull().default(''),
    dockerRef: text('docker_ref').notNull().default(''),
    /** Set when a newer release replaced this one (listed with with_deleted=true). */
    retiredAt: timestamp('retired_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [index('releases_service_idx').on(table.serviceId)],
);

export const containers = pgTable(
  'containers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    releaseId: integer('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    dockerName: text('docker_name').notNull(),
    host: text('host').notNull(),
    awsInstanceId: text('aws_instance_id').notNull().default(''),
    instanceClass: text('instance_class').notNull().default('m5'),
    status: text('status').notNull().default('starting'),
    layer: text('layer').notNull().default('app'),
    memoryLimit: integer('memory_limit').notNull(),
    port: integer('port').notNull().default(0),
    portMapping: jsonb('port_mapping').$type<number[][]>().notNull().default([]),
    /** Stopped containers stay listed with with_deleted=true. */
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [index('containers_release_idx').on(table.releaseId)],
);

export const images = pgTable('images', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  appId: integer('app_id')
    .notNull()
    .references(() => apps.id, { onDelete: 'cascade' }),
  dockerRepo: text('docker_repo'),
  dockerRef: text('docker_ref'),
  gitRepo: text('git_repo'),
  gitRef: text('git_ref'),
  exposedPorts: jsonb('exposed_ports').$type<number[]>().notNull().default([]),
  ...timestamps,
});

/** A repository apps are deployed from. */
export const sources = pgTable(
  'sources',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    displayName: text('display_name'),
    url: text('url').notNull(),
    ...timestamps,
  },
  (table) => [uniqueIndex('sources_org_url_unique').on(table.organizationId, table.url)],
);

export const deployments = pgTable(
  'deployments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: integer('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    operationId: integer('operation_id').notNull(),
    configurationId: integer('configuration_id'),
    imageId: integer('image_id'),
    sourceId: integer('source_id'),
    status: text('status').notNull().default('queued'),
    dockerImage: text('docker_image'),
    dockerRepositoryUrl: text('docker_repository_url'),
    gitRepositoryUrl: text('git_repository_url'),
    gitRef: text('git_ref'),
    gitCommitSha: text('git_commit_sha'),
    gitCommitUrl: text('git_commit_url'),
    gitCommitMessage: text('git_commit_message'),
    gitCommitTimestamp: timestamp('git_commit_timestamp', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [index('deployments_app_idx').on(table.appId)],
);

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
    instanceProfile: text('instance_profile'),
    provisionedIops: integer('provisioned_iops').notNull().default(0),
    env: jsonb('env').$type<Record<string, string | null>>(),
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
    index('operations_org_idx').on(table.organizationId, table.updatedAt),
    index('operations_env_idx').on(table.environmentId, table.updatedAt),
    index('operations_resource_idx').on(table.resourceType, table.resourceId),
    // The per-organization cap counts queued operations; the per-user limit counts recent ones.
    index('operations_org_queued_idx').on(table.organizationId).where(sql`status = 'queued'`),
    index('operations_user_created_idx').on(table.userId, table.createdAt),
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
    createdAt: timestamps.createdAt,
  },
  (table) => [index('operation_logs_operation_idx').on(table.operationId, table.id)],
);

/** What a scan_code operation found in the app's repository at a git ref. */
export const codeScanResults = pgTable('code_scan_results', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  appId: integer('app_id')
    .notNull()
    .references(() => apps.id, { onDelete: 'cascade' }),
  operationId: integer('operation_id').notNull(),
  dockerfilePresent: boolean('dockerfile_present').notNull().default(false),
  procfilePresent: boolean('procfile_present').notNull().default(false),
  berthYmlPresent: boolean('berth_yml_present').notNull().default(false),
  dockerfileData: text('dockerfile_data'),
  procfileData: text('procfile_data'),
  berthYmlData: text('berth_yml_data'),
  languagesDetected: jsonb('languages_detected').$type<string[]>(),
  ...timestamps,
});

/** The catalog of database engines and versions a database can be created from. */
export const databaseImages = pgTable(
  'database_images',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type').notNull(),
    version: text('version').notNull(),
    description: text('description').notNull(),
    dockerRepo: text('docker_repo').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    discoverable: boolean('discoverable').notNull().default(true),
    visible: boolean('visible').notNull().default(true),
    eolAt: timestamp('eol_at', { withTimezone: true, precision: 3 }),
    pitrSupported: boolean('pitr_supported').notNull().default(false),
    ...timestamps,
  },
  (table) => [uniqueIndex('database_images_type_version_unique').on(table.type, table.version)],
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

/** A TLS certificate uploaded for custom HTTPS endpoints (or issued for managed ones), parsed on upload. */
export const certificates = pgTable(
  'certificates',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    commonName: text('common_name').notNull().default(''),
    certificateBody: text('certificate_body').notNull(),
    leafCertificate: text('leaf_certificate').notNull(),
    certificateChain: text('certificate_chain').notNull().default(''),
    privateKey: text('private_key').notNull(),
    privateKeyAlgorithm: text('private_key_algorithm').notNull().default(''),
    notBefore: timestamp('not_before', { withTimezone: true, precision: 3 }).notNull(),
    notAfter: timestamp('not_after', { withTimezone: true, precision: 3 }).notNull(),
    issuerOrganization: text('issuer_organization').notNull().default(''),
    issuerCommonName: text('issuer_common_name').notNull().default(''),
    issuerCountry: text('issuer_country').notNull().default(''),
    issuerWebsite: text('issuer_website').notNull().default(''),
    subjectCountry: text('subject_country').notNull().default(''),
    subjectState: text('subject_state').notNull().default(''),
    subjectLocale: text('subject_locale').notNull().default(''),
    subjectOrganization: text('subject_organization').notNull().default(''),
    subjectAlternativeNames: jsonb('subject_alternative_names').$type<string[]>().notNull().default([]),
    sha256Fingerprint: text('sha256_fingerprint').notNull(),
    acme: boolean('acme').notNull().default(false),
    trusted: boolean('trusted').notNull().default(false),
    selfSigned: boolean('self_signed').notNull().default(false),
    ...timestamps,
  },
  (table) => [index('certificates_env_idx').on(table.environmentId)],
);

/** Endpoints ("vhosts" on the wire): how traffic reaches a service. Removed once deprovisioned. */
export const vhosts = pgTable(
  'vhosts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    serviceId: integer('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    // Deleting a certificate in use is refused by the API; the reference never blocks cascades.
    certificateId: integer('certificate_id').references(() => certificates.id, { onDelete: 'set null' }),
    type: text('type').notNull().default('http'),
    platform: text('platform').notNull().default('elb'),
    status: text('status').notNull().default('pending'),
    acme: boolean('acme').notNull().default(false),
    acmeStatus: text('acme_status').notNull().default(''),
    acmeConfiguration: jsonb('acme_configuration').$type<AcmeConfiguration>(),
    acmeDnsChallengeHost: text('acme_dns_challenge_host').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    internal: boolean('internal').notNull().default(false),
    shared: boolean('shared').notNull().default(false),
    ipWhitelist: jsonb('ip_whitelist').$type<string[]>().notNull().default([]),
    containerPort: integer('container_port'),
    containerPorts: jsonb('container_ports').$type<number[]>().notNull().default([]),
    tokenHeader: text('token_header'),
    loadBalancingAlgorithm: text('load_balancing_algorithm').notNull().default('round_robin'),
    userDomain: text('user_domain').notNull().default(''),
    virtualDomain: text('virtual_domain').notNull().default(''),
    externalHost: text('external_host'),
    internalHost: text('internal_host'),
    dockerName: text('docker_name'),
    ...timestamps,
  },
  (table) => [
    index('vhosts_env_idx').on(table.environmentId),
    index('vhosts_service_idx').on(table.serviceId),
    index('vhosts_certificate_idx').on(table.certificateId),
  ],
);

/** The DNS records a managed HTTPS endpoint needs before its certificate can be issued (contract §4.3). */
export interface AcmeConfiguration {
  names: string[];
  challenges: { method: string; from: { name: string }; to: { name: string; legacy: boolean }[] }[];
}
