import { bigserial, boolean, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { environments } from './environments.ts';

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
