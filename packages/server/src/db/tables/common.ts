import { integer, text, timestamp } from 'drizzle-orm/pg-core';

/** The creation and last-change times most tables carry. */
export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
};

/**
 * The columns of a mailed single-use link (email verification, password reset, 2FA reset): its code is
 * stored hashed, and it dies when used, when it expires, or after too many wrong codes.
 */
export function mailedLinkColumns() {
  return {
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true, precision: 3 }),
    /** Wrong codes tried for this link; at the limit it is dead and a new link must be asked for. */
    failedAttempts: integer('failed_attempts').notNull().default(0),
  };
}
