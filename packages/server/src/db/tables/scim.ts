import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { users } from './identity.ts';
import { organizations, roles } from './organizations.ts';

/**
 * An organization's provisioning (spec 1 §3 SCIM configuration): the role new users get, and its bearer
 * token for /scim/v2, kept as a sha256 (a 256-bit random secret needs no slow hash). A new token
 * replaces the hash, so the old one stops at once.
 */
export const scimConfigurations = pgTable(
  'scim_configurations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** No action on delete: the roles route refuses to delete it with the spec's words first. */
    defaultRoleId: uuid('default_role_id')
      .notNull()
      .references(() => roles.id),
    /** spec 1 §9: always `email`. */
    uniqueIdentifier: text('unique_identifier').notNull().default('email'),
    /** The current token's id (contract `token_id`) and hash; null until one is generated. */
    tokenId: uuid('token_id'),
    tokenHash: text('token_hash'),
    tokenCreatedAt: timestamp('token_created_at', { withTimezone: true, precision: 3 }),
    tokenCreatedBy: uuid('token_created_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('scim_configurations_organization_unique').on(table.organizationId),
    uniqueIndex('scim_configurations_token_hash_unique').on(table.tokenHash),
  ],
);

/**
 * A user as an organization's identity provider provisioned them (a SCIM User): the Berth user, and what
 * the IdP sent that Berth keeps nowhere else. A user is managed by one organization at most (the unique
 * user id), so `users.external_id` says by whom. A deactivated user keeps this row and loses their
 * memberships; `created_by_provisioning` tells an account made for the IdP from a member's own account
 * the IdP linked (whose address the IdP may not change).
 */
export const scimUsers = pgTable(
  'scim_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    externalId: text('external_id'),
    givenName: text('given_name'),
    familyName: text('family_name'),
    active: boolean('active').notNull().default(true),
    createdByProvisioning: boolean('created_by_provisioning').notNull().default(false),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('scim_users_user_unique').on(table.userId),
    // A tenant's list pages in user id order, and its lookups by id, through this one index.
    uniqueIndex('scim_users_organization_user_unique').on(table.organizationId, table.userId),
    index('scim_users_organization_external_idx').on(table.organizationId, table.externalId),
  ],
);
