import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { users } from './identity.ts';
import { organizations } from './organization.ts';

export { organizations };

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
  (table) => [
    index('roles_org_idx').on(table.organizationId),
    // A SCIM group's displayName is unique in its organization without regard to case (409 uniqueness).
    uniqueIndex('roles_scim_name_unique')
      .on(table.organizationId, sql`lower(${table.name})`)
      .where(sql`${table.scimCreated}`),
  ],
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
    /** Wrong codes tried for the current code; at the limit the link is dead until the invitation is resent. */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    ...timestamps,
  },
  (table) => [
    index('invitations_role_idx').on(table.roleId),
    uniqueIndex('invitations_role_email_unique').on(table.roleId, table.email),
  ],
);
