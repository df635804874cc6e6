import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { users } from './identity.ts';

/** Support tickets (spec 3 §2 Support): what the requester sent, mailed to support and back to them. */
export const supportTickets = pgTable(
  'support_tickets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    description: text('description').notNull(),
    /** The contact address and name the form sent (the copy goes to the account's own address). */
    email: text('email').notNull(),
    name: text('name').notNull(),
    priority: text('priority').notNull().default('normal'),
    ...timestamps,
  },
  // The requester's list, newest first.
  (table) => [index('support_tickets_user_idx').on(table.userId, table.id)],
);

/**
 * Files uploaded for a ticket (contract §5.13 `POST /support/upload`), kept under the data directory as
 * `support/<stored name>`. `ticket_id` is null from the upload until a ticket names its token.
 */
export const supportAttachments = pgTable(
  'support_attachments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ticketId: bigint('ticket_id', { mode: 'number' }).references(() => supportTickets.id, {
      onDelete: 'cascade',
    }),
    /** What the ticket names the upload by: random, and good for its uploader only. */
    token: text('token').notNull(),
    fileName: text('file_name').notNull(),
    /** Found from the content, not the name (core's checkAttachment). */
    mediaType: text('media_type').notNull(),
    size: integer('size').notNull(),
    /** The file's name in the support directory: random, never the uploaded name. */
    storedName: text('stored_name').notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [
    uniqueIndex('support_attachments_token_unique').on(table.token),
    // The sweep of files whose row is gone looks them up by name.
    uniqueIndex('support_attachments_stored_name_unique').on(table.storedName),
    // Each user's uploads of the quota's window, taken or not.
    index('support_attachments_user_created_idx').on(table.userId, table.createdAt),
    index('support_attachments_ticket_idx').on(table.ticketId),
    // Each user's uploads no ticket has taken yet (bounded, and cleared after a day).
    index('support_attachments_pending_idx').on(table.userId, table.createdAt).where(sql`ticket_id is null`),
  ],
);
