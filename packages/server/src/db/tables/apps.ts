import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
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
import { timestamps } from './common.ts';
import { databases } from './databases.ts';
import { environments } from './environments.ts';
import { organizations } from './organizations.ts';
import { handlePrefixIndex, searchText, trigramIndex } from './search-text.ts';

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
  (table) => [
    uniqueIndex('apps_env_handle_unique').on(table.environmentId, table.handle),
    // The apps of an environment by the source they run, and what they run, read from the index alone:
    // home's apps count and top source with its live commits, and the sources' figures (issue 38: an
    // organization of 50,000 apps).
    index('apps_env_source_idx').on(table.environmentId, table.currentSourceId, table.currentDeploymentId),
    // Global search (issue 38): by handle, exactly, by its start and anywhere in it, per environment.
    handlePrefixIndex(index('apps_env_handle_prefix_idx'), table.environmentId, table.handle),
    trigramIndex(index('apps_env_search_trgm_idx'), table.environmentId, searchText(table.handle)),
  ],
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

/**
 * Names of an app's variables marked sensitive (issue 41): the console never shows their values again
 * and only lets them be replaced or removed. A name leaves when a configure operation removes its variable.
 */
export const sensitiveEnvKeys = pgTable(
  'sensitive_env_keys',
  {
    appId: integer('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [primaryKey({ columns: [table.appId, table.key] })],
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
    /** The service's own sizing policy (service_sizing_policies), when it has one. */
    sizingPolicyId: integer('sizing_policy_id'),
    ...timestamps,
  },
  (table) => [
    // An environment's services by their cost inputs: the environments' costs sum them from the index
    // alone (issue 19: an organization of 50,000 apps).
    index('services_env_cost_idx').on(
      table.environmentId,
      table.instanceClass,
      table.containerCount,
      table.containerMemoryLimitMb,
    ),
    index('services_app_idx').on(table.appId),
    index('services_database_idx').on(table.databaseId),
    // One service per process type of an app (database services have no app).
    uniqueIndex('services_app_handle_unique')
      .on(table.appId, table.handle)
      .where(sql`${table.appId} is not null`),
    // Global search (issue 38): by handle and by image, per environment.
    handlePrefixIndex(index('services_env_handle_prefix_idx'), table.environmentId, table.handle),
    trigramIndex(
      index('services_env_search_trgm_idx'),
      table.environmentId,
      searchText(table.handle, table.dockerRepo),
    ),
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
  (table) => [
    uniqueIndex('sources_org_url_unique').on(table.organizationId, table.url),
    // Global search (issue 38): by name and repository address, per organization.
    trigramIndex(
      index('sources_org_search_trgm_idx'),
      table.organizationId,
      searchText(table.displayName, table.url),
    ),
  ],
);

export const deployments = pgTable(
  'deployments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: integer('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    /**
     * Its app's environment (apps never move), kept on the row so that global search's trigram index
     * can be led by it: a search reads the caller's deployments only (issue 38).
     */
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
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
  (table) => [
    index('deployments_app_idx').on(table.appId),
    // Global search (issue 38): by git ref, commit and image, per environment.
    trigramIndex(
      index('deployments_env_search_trgm_idx'),
      table.environmentId,
      searchText(table.gitRef, table.gitCommitSha, table.dockerImage),
    ),
  ],
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
