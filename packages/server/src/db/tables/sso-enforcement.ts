import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { users } from './identity.ts';
import { organizations } from './organizations.ts';

/**
 * The SSO bypass list (contract §4.1 whitelist_membership): members who may keep using a password
 * session in an organization that enforces SSO. An entry lasts while its user is a member: a trigger
 * (migration 0024_sso_enforcement) removes it when their last role there goes, however that happens (member removal,
 * role deletion, provisioning), so someone who comes back is not exempt again unasked.
 */
export const whitelistMemberships = pgTable(
  'whitelist_memberships',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('whitelist_memberships_organization_user_unique').on(table.organizationId, table.userId),
    index('whitelist_memberships_user_idx').on(table.userId),
  ],
);

/**
 * A CLI token owed to the browser that just signed in through SSO with `landing_page=clitoken` (spec 3
 * "CLI token"): the login sends the browser to the console's /sso/cli/read with a one-time code in the
 * URL's fragment (never sent to a server, so never in a log), and the page trades the code for the token
 * once, within a few minutes. The token is made then, so one nobody collects never exists.
 */
export const cliTokenPickups = pgTable(
  'cli_token_pickups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** sha256 of the code (256 random bits): the code itself is never stored. */
    codeHash: text('code_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The organization the user signed in through: the token is its organization (SSO) token. */
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The lifetime the CLI asked for. */
    durationSeconds: integer('duration_seconds').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [
    uniqueIndex('cli_token_pickups_code_unique').on(table.codeHash),
    index('cli_token_pickups_expires_idx').on(table.expiresAt),
  ],
);
