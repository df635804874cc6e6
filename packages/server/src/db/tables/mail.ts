import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }),
    error: text('error'),
    /** Deliveries tried through SMTP, and when the next may be (a failed one is tried again later). */
    attempts: integer('attempts').notNull().default(0),
    retryAt: timestamp('retry_at', { withTimezone: true, precision: 3 }),
    createdAt: timestamps.createdAt,
  },
  // The retrier looks for unsent mail that failed and is due.
  (table) => [
    index('mail_outbox_retry_idx').on(table.retryAt).where(sql`sent_at is null and retry_at is not null`),
  ],
);
