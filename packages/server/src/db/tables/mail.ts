import { bigserial, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';

export const mailOutbox = pgTable('mail_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }),
  error: text('error'),
  createdAt: timestamps.createdAt,
});
