import { bigserial, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { environments } from './environments.ts';
import { users } from './identity.ts';
import { organizations } from './organization.ts';

/**
 * Privileged changes of an organization (issue 38: role changes, impersonation, token revocations), as
 * the Security & Compliance dashboard lists them. Names and addresses are kept as they were, so an
 * entry outlives the people it names.
 */
export const privilegedActivities = pgTable(
  'privileged_activities',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Set for a change to one environment (a permission); null for the organization's changes. */
    environmentId: integer('environment_id').references(() => environments.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull().default(''),
    actorEmail: text('actor_email').notNull().default(''),
    subjectId: uuid('subject_id').references(() => users.id, { onDelete: 'set null' }),
    subjectName: text('subject_name').notNull().default(''),
    subjectEmail: text('subject_email').notNull().default(''),
    /** The role, scope or token concerned. */
    detail: text('detail').notNull().default(''),
    /** The type of the role concerned, when a role is: entries of roles hidden from a caller are too. */
    roleType: text('role_type'),
    createdAt: timestamps.createdAt,
  },
  // The dashboard reads an organization's newest first.
  (table) => [index('privileged_activities_org_idx').on(table.organizationId, table.createdAt, table.id)],
);
