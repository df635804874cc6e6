import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  checkAttachment,
  SUPPORT_ATTACHMENT_MAX_BYTES,
  supportMessages,
  supportTicketSchema,
} from '@berth/core';
import { and, asc, count, desc, eq, inArray, isNull, lt } from 'drizzle-orm';
import { accessOf, type CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { supportAttachments, supportTickets, users } from '../../db/schema.ts';
import { selectPage } from '../../db/select-page.ts';
import { ApiError, notFound, parseBody, unprocessable } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { SupportAttachmentRow, SupportTicketRow } from './support.hal.ts';
import { requesterCopyMail, supportTicketMail } from './support-mail.ts';

/** Uploads a user may hold that no ticket has taken yet; each goes after a day. */
export const SUPPORT_PENDING_UPLOADS_MAX = 20;
const PENDING_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/** The subset of a rate limiter the service counts tickets with (auth/rate-limit.ts). */
interface TicketLimiter {
  hit(subject: string): Promise<{ forgive(): Promise<void> }>;
}

/**
 * Support tickets (spec 3 §2 Support, contract §5.13): each user's own. Attachments are uploaded first,
 * checked by name and content, and kept under `dir` (0700, files 0600), outside the console's files; a
 * ticket takes the uploads its requester names by token. A ticket is mailed to support (BERTH_SUPPORT_EMAIL,
 * else every superuser) and a copy to the requester's own address. The requester and superusers read a
 * ticket and its files; nobody else learns they exist (404).
 */
export function createSupportService(deps: {
  db: Db;
  mailer: Mailer;
  /** The console's origin: the mails link to the ticket's page there. */
  appUrl: string;
  dir: string;
  /** BERTH_SUPPORT_EMAIL; null: the superusers. */
  supportEmails: string[] | null;
  tickets: TicketLimiter;
  onMailError: (error: unknown) => void;
  /** A line for the operator (a ticket nobody was mailed). */
  onNotice: (line: string) => void;
}) {
  const { db, dir } = deps;

  async function isSuperuser(userId: string): Promise<boolean> {
    const [row] = await db.select({ superuser: users.superuser }).from(users).where(eq(users.id, userId));
    return row?.superuser === true;
  }

  /** The ticket, when the caller asked for it or is a superuser (404 otherwise, and when absent). */
  async function readableTicket(ref: CallerRef, id: number | null): Promise<SupportTicketRow> {
    const { user } = await accessOf(db, ref);
    const [ticket] =
      id === null ? [] : await db.select().from(supportTickets).where(eq(supportTickets.id, id));
    if (!ticket || (ticket.userId !== user.id && !(await isSuperuser(user.id))))
      throw notFound('Support ticket');
    return ticket;
  }

  async function attachmentsOf(ticketIds: number[]): Promise<Map<number, SupportAttachmentRow[]>> {
    const byTicket = new Map<number, SupportAttachmentRow[]>(ticketIds.map((id) => [id, []]));
    if (ticketIds.length === 0) return byTicket;
    const rows = await db
      .select()
      .from(supportAttachments)
      .where(inArray(supportAttachments.ticketId, ticketIds))
      .orderBy(asc(supportAttachments.id));
    for (const row of rows) if (row.ticketId !== null) byTicket.get(row.ticketId)?.push(row);
    return byTicket;
  }

  /** Removes uploads no ticket took within a day, files first (a file without its row is never served). */
  async function dropStaleUploads(now: Date): Promise<void> {
    const stale = await db
      .select()
      .from(supportAttachments)
      .where(
        and(
          isNull(supportAttachments.ticketId),
          lt(supportAttachments.createdAt, new Date(now.getTime() - PENDING_UPLOAD_TTL_MS)),
        ),
      )
      .limit(100);
    for (const row of stale) await fs.rm(path.join(dir, row.storedName), { force: true });
    if (stale.length) {
      await db.delete(supportAttachments).where(
        inArray(
          supportAttachments.id,
          stale.map((row) => row.id),
        ),
      );
    }
  }

  /** Where support's mail goes: BERTH_SUPPORT_EMAIL, else every superuser. */
  async function supportRecipients(): Promise<string[]> {
    if (deps.supportEmails) return deps.supportEmails;
    const rows = await db.select({ email: users.email }).from(users).where(eq(users.superuser, true));
    return rows.map((row) => row.email);
  }

  return {
    /** contract §5.13 `POST /support/upload`: keeps one checked file for the caller's next ticket. */
    async upload(ref: CallerRef, file: { fileName: string; bytes: Buffer }, now = new Date()) {
      const { user } = await accessOf(db, ref);
      const checked = checkAttachment(file.fileName, file.bytes);
      if ('problem' in checked) {
        const status = file.bytes.length > SUPPORT_ATTACHMENT_MAX_BYTES ? 413 : 422;
        throw status === 413
          ? new ApiError(413, 'payload_too_large', checked.problem)
          : unprocessable(checked.problem, { file: [checked.problem] });
      }
      await dropStaleUploads(now);
      const [pending] = await db
        .select({ value: count() })
        .from(supportAttachments)
        .where(and(eq(supportAttachments.userId, user.id), isNull(supportAttachments.ticketId)));
      if ((pending?.value ?? 0) >= SUPPORT_PENDING_UPLOADS_MAX) {
        throw new ApiError(
          429,
          'rate_limited',
          `You have ${SUPPORT_PENDING_UPLOADS_MAX} uploaded files no ticket has taken: send a ticket with them, or wait a day`,
        );
      }
      // Never the uploaded name: a random one, in a directory only this server's user can enter.
      const storedName = randomBytes(16).toString('hex');
      const token = randomBytes(24).toString('base64url');
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      await fs.chmod(dir, 0o700);
      const filePath = path.join(dir, storedName);
      await fs.writeFile(filePath, file.bytes, { mode: 0o600, flag: 'wx' });
      try {
        await db.insert(supportAttachments).values({
          userId: user.id,
          token,
          fileName: file.fileName,
          mediaType: checked.mediaType,
          size: file.bytes.length,
          storedName,
        });
      } catch (error) {
        await fs.rm(filePath, { force: true });
        throw error;
      }
      const kilobytes = Math.max(1, Math.round(file.bytes.length / 1024));
      return { token, message: `Uploaded ${file.fileName} (${kilobytes} KB)` };
    },

    /** contract §5.13 `POST /support/create`: stores the ticket with its uploads, then mails it. */
    async create(ref: CallerRef, body: unknown): Promise<SupportTicketRow> {
      const { user } = await accessOf(db, ref);
      const input = parseBody(supportTicketSchema, body);
      const tokens = [...new Set(input.attachments)];
      const counted = await deps.tickets.hit(user.id);
      const stored = db.transaction(async (tx) => {
        const [created] = await tx
          .insert(supportTickets)
          .values({
            userId: user.id,
            subject: input.subject,
            description: input.description,
            email: input.email,
            name: input.name,
            priority: input.priority,
          })
          .returning();
        if (!created) throw new Error('Support ticket insert returned nothing');
        if (tokens.length) {
          // Only the caller's own uploads that no ticket has taken yet.
          const taken = await tx
            .update(supportAttachments)
            .set({ ticketId: created.id })
            .where(
              and(
                inArray(supportAttachments.token, tokens),
                eq(supportAttachments.userId, user.id),
                isNull(supportAttachments.ticketId),
              ),
            )
            .returning({ id: supportAttachments.id });
          if (taken.length !== tokens.length) {
            throw unprocessable(supportMessages.unknownAttachment, {
              attachments: [supportMessages.unknownAttachment],
            });
          }
        }
        return created;
      });
      // A ticket refused for its attachments is not counted against the requester.
      const ticket = await stored.catch(async (error: unknown) => {
        await counted.forgive();
        throw error;
      });
      const files = (await attachmentsOf([ticket.id])).get(ticket.id) ?? [];
      const [account] = await db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
      const recipients = await supportRecipients();
      if (recipients.length === 0) {
        deps.onNotice(
          `Support ticket ${ticket.id} was stored but mailed to nobody: set BERTH_SUPPORT_EMAIL, or make a superuser (npm run admin -- make-superuser EMAIL).`,
        );
      }
      const link = `${deps.appUrl}/support?ticket=${ticket.id}`;
      const mails = recipients.map((to) =>
        supportTicketMail(to, { ticket, accountEmail: account?.email ?? user.email, files, link }),
      );
      if (account) mails.push(requesterCopyMail(account.email, { ticket, files, link }));
      // The ticket is kept whatever the mail does: a failed delivery stays in the outbox and is retried.
      for (const mail of mails) await deps.mailer.send(mail).catch(deps.onMailError);
      return ticket;
    },

    /** The caller's own tickets, newest first. */
    async list(ref: CallerRef, paging: Paging | null) {
      const { user } = await accessOf(db, ref);
      const page = await selectPage(db, supportTickets, {
        where: eq(supportTickets.userId, user.id),
        orderBy: [desc(supportTickets.id)],
        paging,
      });
      return { ...page, attachments: await attachmentsOf(page.items.map((ticket) => ticket.id)) };
    },

    async get(ref: CallerRef, id: number | null) {
      const ticket = await readableTicket(ref, id);
      return { ticket, attachments: (await attachmentsOf([ticket.id])).get(ticket.id) ?? [] };
    },

    /** A ticket's file and where it is kept, for its requester and superusers only. */
    async attachment(ref: CallerRef, id: number | null) {
      const { user } = await accessOf(db, ref);
      const [row] =
        id === null ? [] : await db.select().from(supportAttachments).where(eq(supportAttachments.id, id));
      // An upload no ticket has taken is its uploader's alone.
      const allowed =
        row && (row.userId === user.id || (row.ticketId !== null && (await isSuperuser(user.id))));
      if (!row || !allowed) throw notFound('Attachment');
      return { attachment: row, filePath: path.join(dir, row.storedName) };
    },
  };
}
export type SupportService = ReturnType<typeof createSupportService>;
