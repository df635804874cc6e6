import { pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './identity.ts';

/**
 * Who dismissed the home dashboard's beta feedback banner (spec 3 §2 "a dismissible beta feedback
 * banner"): kept on the server, so it stays dismissed in every browser the user signs in from.
 */
export const homeFeedbackDismissals = pgTable('home_feedback_dismissals', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  dismissedAt: timestamp('dismissed_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});
