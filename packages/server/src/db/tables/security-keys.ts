import { bigint, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { users } from './identity.ts';

/**
 * WebAuthn challenges (contract §4.1 u2f_challenge): random, bound to one user and one purpose, single
 * use (`used_at`) and short-lived (`expires_at`).
 */
export const u2fChallenges = pgTable(
  'u2f_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `registration` (adding a key) or `authentication` (login or elevation). */
    purpose: text('purpose').notNull(),
    /** Base64url, as the browser echoes it in clientDataJSON. */
    challenge: text('challenge').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [
    index('u2f_challenges_user_idx').on(table.userId),
    uniqueIndex('u2f_challenges_challenge_unique').on(table.challenge),
  ],
);

/** A user's security keys (contract §4.1 u2f device): the credential and its public key (COSE). */
export const u2fDevices = pgTable(
  'u2f_devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    version: text('version').notNull().default('WEBAUTHN'),
    /** The credential id, base64url (`key_handle`). */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter, which must increase with each assertion. */
    signCount: bigint('sign_count', { mode: 'number' }).notNull().default(0),
    /** Comma-separated transports the browser reported. */
    transports: text('transports'),
    ...timestamps,
  },
  (table) => [
    index('u2f_devices_user_idx').on(table.userId),
    uniqueIndex('u2f_devices_credential_unique').on(table.credentialId),
  ],
);
