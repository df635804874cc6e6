import {
  type AnyPgColumn,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { environments } from './environments.ts';
import { handlePrefixIndex, searchText, trigramIndex } from './search-text.ts';

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
    provisioned: boolean('provisioned').notNull().default(false),
    enableBackups: boolean('enable_backups').notNull().default(true),
    enablePitr: boolean('enable_pitr').notNull().default(false),
    dockerRepo: text('docker_repo').notNull().default(''),
    currentKmsArn: text('current_kms_arn').notNull().default(''),
    /** The port in the credential URL → the port an endpoint publishes it on. */
    portMapping: jsonb('port_mapping').$type<[number, number][]>().notNull().default([]),
    serviceId: integer('service_id'),
    /** The database this one was replicated or restored from (a replica depends on its source). */
    initializeFromId: integer('initialize_from_id').references((): AnyPgColumn => databases.id, {
      onDelete: 'set null',
    }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('databases_env_handle_unique').on(table.environmentId, table.handle),
    index('databases_initialize_from_idx').on(table.initializeFromId),
    // Global search (issue 38): by handle, engine and image, per environment.
    handlePrefixIndex(index('databases_env_handle_prefix_idx'), table.environmentId, table.handle),
    trigramIndex(
      index('databases_env_search_trgm_idx'),
      table.environmentId,
      searchText(table.handle, table.type, table.dockerRepo),
    ),
  ],
);

/** A database's volume (contract §4.3 disk). */
export const disks = pgTable(
  'disks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    databaseId: integer('database_id')
      .notNull()
      .references(() => databases.id, { onDelete: 'cascade' }),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    size: integer('size').notNull().default(10),
    provisionedIops: integer('provisioned_iops').notNull().default(3000),
    baselineIops: integer('baseline_iops').notNull().default(3000),
    handle: text('handle').notNull(),
    device: text('device').notNull().default(''),
    filesystem: text('filesystem').notNull().default('ext4'),
    host: text('host').notNull().default(''),
    availabilityZone: text('availability_zone').notNull().default(''),
    ebsVolumeId: text('ebs_volume_id').notNull().default(''),
    ebsVolumeType: text('ebs_volume_type').notNull().default('gp3'),
    instanceId: text('instance_id').notNull().default(''),
    currentKmsArn: text('current_kms_arn').notNull().default(''),
    attached: boolean('attached').notNull().default(false),
    keyBytes: integer('key_bytes').notNull().default(32),
    /** When the size last grew: a disk grows at most once a day (spec 2 §5). */
    resizedAt: timestamp('resized_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('disks_database_unique').on(table.databaseId),
    // Environments' costs sum their disks by environment (issue 19).
    index('disks_env_idx').on(table.environmentId),
  ],
);

/**
 * A database's credentials: the connection URL holds the password, so it is kept sealed (AES-GCM under a
 * key derived from the server secret) and opened only to answer a caller with `sensitive`.
 */
export const databaseCredentials = pgTable(
  'database_credentials',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    databaseId: integer('database_id')
      .notNull()
      .references(() => databases.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    isDefault: boolean('is_default').notNull().default(true),
    connectionUrlSealed: text('connection_url_sealed').notNull(),
    ...timestamps,
  },
  (table) => [uniqueIndex('database_credentials_database_type_unique').on(table.databaseId, table.type)],
);

/** contract §4.3 backup: kept after its database is gone (then `database_id` is null). */
export const backups = pgTable(
  'backups',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    databaseId: integer('database_id').references(() => databases.id, { onDelete: 'set null' }),
    databaseHandle: text('database_handle').notNull(),
    databaseType: text('database_type').notNull(),
    databaseImageId: integer('database_image_id'),
    /** `manual`, `auto` or `final` (spec 2 §2: labelled Manual, Auto or Final). */
    kind: text('kind').notNull(),
    sizeGb: doublePrecision('size_gb').notNull().default(0),
    /** The disk size it was taken from: a restore gets at least this much. */
    diskSizeGb: integer('disk_size_gb').notNull().default(10),
    awsRegion: text('aws_region').notNull().default(''),
    createdByEmail: text('created_by_email').notNull().default(''),
    createdFromOperationId: integer('created_from_operation_id'),
    copiedFromId: integer('copied_from_id'),
    /** Where the runtime keeps the backup's data (a snapshot name, a dump file), for restores. */
    storageRef: text('storage_ref').notNull().default(''),
    ...timestamps,
  },
  (table) => [
    index('backups_database_idx').on(table.databaseId, table.createdAt),
    index('backups_environment_idx').on(table.environmentId, table.createdAt),
  ],
);

/** contract §4.3 backup_retention_policy: the newest of an environment is the one in force. */
export const backupRetentionPolicies = pgTable(
  'backup_retention_policies',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    daily: integer('daily').notNull(),
    monthly: integer('monthly').notNull(),
    yearly: integer('yearly').notNull(),
    pitrDays: integer('pitr_days').notNull().default(0),
    makeCopy: boolean('make_copy').notNull().default(true),
    keepFinal: boolean('keep_final').notNull().default(true),
    ...timestamps,
  },
  (table) => [index('backup_retention_policies_environment_idx').on(table.environmentId, table.id)],
);

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
