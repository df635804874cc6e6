import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { organizations } from './organization.ts';

/** Custom resources (contract §4.3 custom_resource): an organization's own nodes of the diagnostics graph. */
export const customResources = pgTable(
  'custom_resources',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    handle: text('handle').notNull(),
    resourceType: text('resource_type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [index('custom_resources_organization_idx').on(table.organizationId, table.id)],
);
