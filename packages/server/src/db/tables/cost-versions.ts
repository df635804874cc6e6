import { bigint, pgTable, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organization.ts';

/**
 * A number that moves whenever any of an organization's kept cost rows (`resource_costs`) changes: a
 * deferred trigger adds one at the commit of each transaction that changed them (migration 0045). The
 * costs lists keep their answers under it, so an unchanged organization's page is sent again without
 * being read, priced and compressed again, and a changed one is never served from before the change.
 */
export const costVersions = pgTable('cost_versions', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
