import { bigint, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { mailedLinkColumns, timestamps } from './common.ts';
import { users } from './identity.ts';

/**
 * A TOTP configuration (contract §4.1 otp_configuration). Created pending; the user's
 * `current_otp_configuration_id` names the one in force once a valid code enabled it.
 */
export const otpConfigurations = pgTable(
  'otp_configurations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The base32 secret, sealed with the server's secret box. */
    secretSealed: text('secret_sealed').notNull(),
    /** The TOTP counter (time step) of the last accepted code: a code is never accepted twice. */
    lastUsedCounter: bigint('last_used_counter', { mode: 'number' }),
    enabledAt: timestamp('enabled_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [index('otp_configurations_user_idx').on(table.userId)],
);

/** Single-use recovery codes of a configuration: sha256 to find and spend them, sealed to show them. */
export const otpRecoveryCodes = pgTable(
  'otp_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    configurationId: uuid('configuration_id')
      .notNull()
      .references(() => otpConfigurations.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    codeHash: text('code_hash').notNull(),
    valueSealed: text('value_sealed').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [index('otp_recovery_codes_configuration_idx').on(table.configurationId, table.codeHash)],
);

/** An owner's request to turn a member's 2FA off, completed by the member through the mailed link. */
export const otpResetChallenges = pgTable(
  'otp_reset_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestedById: uuid('requested_by_id').references(() => users.id, { onDelete: 'set null' }),
    ...mailedLinkColumns(),
    ...timestamps,
  },
  (table) => [index('otp_reset_challenges_user_idx').on(table.userId)],
);
