import { bigserial, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { users } from './identity.ts';
import { organizations } from './organizations.ts';

/**
 * Changes that are not operations (issue 41): who created an app, invited or removed whom, changed a
 * role, a permission, a token or single sign-on. Each row is written in the transaction of its change.
 * Names are kept as they were, so an event still reads after its actor or resource is gone.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /**
     * The environment the change belongs to, which decides who reads it; null for the organization's own
     * changes. No foreign key: an environment's deletion is itself an event and stays.
     */
    environmentId: integer('environment_id'),
    action: text('action').notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull().default(''),
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id').notNull(),
    resourceName: text('resource_name').notNull().default(''),
    parentType: text('parent_type'),
    parentId: text('parent_id'),
    parentName: text('parent_name'),
    detail: text('detail').notNull().default(''),
    /** The address the request came from (the proxy-aware request IP); null for the platform's own changes. */
    ipAddress: text('ip_address'),
    createdAt: timestamps.createdAt,
  },
  // Activity pages an organization's events newest first, the id breaking ties (a next link's cursor);
  // a reader of some environments only pages those, and the filters by action and actor keep the order.
  (table) => [
    index('audit_events_org_idx').on(table.organizationId, table.createdAt, table.id),
    index('audit_events_env_idx').on(table.environmentId, table.createdAt, table.id),
    index('audit_events_org_action_idx').on(table.organizationId, table.action, table.createdAt, table.id),
    index('audit_events_org_actor_idx').on(table.organizationId, table.actorEmail, table.createdAt, table.id),
  ],
);
