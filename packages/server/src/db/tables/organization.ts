import { boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';

// The organizations table alone, apart from its roles and memberships: the tokens table (identity.ts)
// references it for SSO tokens, and roles reference users, so one file for both would be an import cycle.
export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  ssoEnforced: boolean('sso_enforced').notNull().default(false),
  address: text('address'),
  city: text('city'),
  state: text('state'),
  zip: text('zip'),
  primaryPhone: text('primary_phone'),
  emergencyPhone: text('emergency_phone'),
  opsAlertEmail: text('ops_alert_email'),
  securityAlertEmail: text('security_alert_email'),
  /** When a worker last claimed one of its operations: the longest-waiting organization goes next. */
  queueTurnAt: timestamp('queue_turn_at', { withTimezone: true, precision: 3 }),
  ...timestamps,
});
