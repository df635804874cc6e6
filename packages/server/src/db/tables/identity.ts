import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigserial,
  boolean,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { mailedLinkColumns, timestamps } from './common.ts';
import { organizations } from './organization.ts';

/** Secrets the server generates on first start (JWT signing key) so every process shares them. */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamps.createdAt,
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    verified: boolean('verified').notNull().default(false),
    otpEnabled: boolean('otp_enabled').notNull().default(false),
    /** The OTP configuration in force while `otp_enabled` (see tables/two-factor.ts). */
    currentOtpConfigurationId: uuid('current_otp_configuration_id'),
    superuser: boolean('superuser').notNull().default(false),
    readOnlyImpersonate: boolean('read_only_impersonate').notNull().default(false),
    externalId: text('external_id'),
    selectedOrganizationId: uuid('selected_organization_id'),
    ...timestamps,
  },
  (table) => [uniqueIndex('users_email_unique').on(sql`lower(${table.email})`)],
);

export const tokens = pgTable(
  'tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'cascade' }),
    scope: text('scope').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
    /** sha256 of the secret half of the session cookie; null for tokens without a session. */
    sessionSecretHash: text('session_secret_hash'),
    /** The token this one was exchanged from: it never outlives it and is revoked with it. */
    parentId: uuid('parent_id').references((): AnyPgColumn => tokens.id, { onDelete: 'cascade' }),
    /** The browser or client that signed in (User-Agent, shortened), shown in the sessions list. */
    userAgent: text('user_agent'),
    /** The address the token was issued to. */
    ipAddress: text('ip_address'),
    /** When the token last authenticated a request (updated at most once a minute). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, precision: 3 }),
    /**
     * The name its owner gave a personal access token (for git and the API); null for every other
     * token (sessions, elevations, exchanges). Such a token has no session, parent or children.
     */
    name: text('name'),
    /**
     * An organization (SSO) token's organization (contract §3.3: `sub` the organization, `act` the user):
     * made by a SAML login, it acts only there. Null for every other token.
     */
    ssoOrganizationId: uuid('sso_organization_id').references(() => organizations.id, {
      onDelete: 'cascade',
    }),
    /**
     * A browser session's sudo window (issue 41): until then the session may get an elevated token
     * without credentials (grant `session_elevation`). Set only by an elevation with credentials made
     * with this session's bearer; never extended by use. Null for every other token.
     */
    elevatedUntil: timestamp('elevated_until', { withTimezone: true, precision: 3 }),
    createdAt: timestamps.createdAt,
  },
  (table) => [index('tokens_user_idx').on(table.userId), index('tokens_parent_idx').on(table.parentId)],
);

export const emailVerificationChallenges = pgTable(
  'email_verification_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    ...mailedLinkColumns(),
    ...timestamps,
  },
  (table) => [index('email_challenges_user_idx').on(table.userId)],
);

/**
 * Forgotten-password links: a single-use code, stored hashed, mailed to the account's address. Using it
 * sets a new password; it dies when used, when it expires, or after too many wrong codes.
 */
export const passwordResetChallenges = pgTable(
  'password_reset_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the link was mailed to: once the account moves to another one, the link is dead. */
    email: text('email').notNull(),
    ...mailedLinkColumns(),
    ...timestamps,
  },
  (table) => [index('password_resets_user_idx').on(table.userId)],
);

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** "email:<address>" or "ip:<address>" */
    key: text('key').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [index('login_attempts_key_idx').on(table.key, table.attemptedAt)],
);

/**
 * Requests counted by the abuse limits (sign-ups per address, wrong verification codes per address):
 * one row per counted request, alive until `expires_at`, so a key's live rows are its sliding window.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** "<limit>:<subject>", for example "signup:ip:203.0.113.7" */
    key: text('key').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    index('rate_limit_hits_key_idx').on(table.key, table.expiresAt),
    index('rate_limit_hits_expires_idx').on(table.expiresAt),
  ],
);
