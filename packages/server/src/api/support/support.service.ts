import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  checkAttachment,
  SUPPORT_ATTACHMENT_MAX_BYTES,
  supportMessages,
  supportTicketSchema,
} from '@berth/core';
import { and, asc, count, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { accessOf, type CallerRef } from '../../auth/caller-access.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
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
/** Bytes of files a user may upload in any 30 days, taken by a ticket or not: what one user adds to the disk. */
export const SUPPORT_UPLOAD_QUOTA_BYTES = 100 * 1024 * 1024;
const UPLOAD_QUOTA_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
export const supportQuotaMessage = `You have uploaded ${SUPPORT_UPLOAD_QUOTA_BYTES / 1024 / 1024} MB of support files in the last 30 days: send your ticket without more files, or wait until older uploads leave that window`;
/** A file is written just before its row: one younger than this may still be getting its row. */
const ORPHAN_FILE_GRACE_MS = 60 * 60 * 1000;
/** The support folder's file names (randomBytes(16) as hex); anything else there is left alone. */
const STORED_NAME = /^[0-9a-f]{32}$/;
const SWEEP_BATCH = 500;

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

  /**
   * Removes uploads no ticket took within a day. One statement re-checks `ticket_id is null` as it deletes,
   * so an upload a ticket takes at that moment stays; only the files of the rows deleted go.
   */
  async function dropStaleUploads(now: Date): Promise<number> {
    const stale = db
      .select({ id: supportAttachments.id })
      .from(supportAttachments)
      .where(
        and(
          isNull(supportAttachments.ticketId),
          lt(supportAttachments.createdAt, new Date(now.getTime() - PENDING_UPLOAD_TTL_MS)),
        ),
      )
      .limit(100);
    const dropped = await db
      .delete(supportAttachments)
      .where(and(inArray(supportAttachments.id, stale), isNull(supportAttachments.ticketId)))
      .returning({ storedName: supportAttachments.storedName });
    for (const row of dropped) await fs.rm(path.join(dir, row.storedName), { force: true });
    return dropped.length;
  }

  /**
   * Removes the files whose row is gone (a user's or ticket's rows go by cascade, which cannot reach the
   * disk). Files younger than ORPHAN_FILE_GRACE_MS are kept: an upload writes its file before its row.
   */
  async function sweepOrphanFiles(now = new Date()): Promise<number> {
    const names = await fs.readdir(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const candidates = names.filter((name) => STORED_NAME.test(name));
    let removed = 0;
    for (let start = 0; start < candidates.length; start += SWEEP_BATCH) {
      const batch = candidates.slice(start, start + SWEEP_BATCH);
      const kept = await db
        .select({ storedName: supportAttachments.storedName })
        .from(supportAttachments)
        .where(inArray(supportAttachments.storedName, batch));
      const live = new Set(kept.map((row) => row.storedName));
      for (const name of batch) {
        if (live.has(name)) continue;
        const filePath = path.join(dir, name);
        const stat = await fs.stat(filePath).catch(() => null);
        if (!stat || now.getTime() - stat.mtimeMs < ORPHAN_FILE_GRACE_MS) continue;
        await fs.rm(filePath, { force: true });
        removed++;
      }
    }
    return removed;
  }

  /** 429 when the user holds too many uploads no ticket took, or would pass their byte quota with `size`. */
  async function assertWithinLimits(q: DbOrTx, userId: string, size: number, now: Date): Promise<void> {
    const [pending] = await q
      .select({ value: count() })
      .from(supportAttachments)
      .where(and(eq(supportAttachments.userId, userId), isNull(supportAttachments.ticketId)));
    if ((pending?.value ?? 0) >= SUPPORT_PENDING_UPLOADS_MAX) {
      throw new ApiError(
        429,
        'rate_limited',
        `You have ${SUPPORT_PENDING_UPLOADS_MAX} uploaded files no ticket has taken: send a ticket with them, or wait a day`,
      );
    }
    const [uploaded] = await q
      .select({ bytes: sql<string>`coalesce(sum(${supportAttachments.size}), 0)::bigint` })
      .from(supportAttachments)
      .where(
        and(
          eq(supportAttachments.userId, userId),
          gt(supportAttachments.createdAt, new Date(now.getTime() - UPLOAD_QUOTA_WINDOW_MS)),
        ),
      );
    if (Number(uploaded?.bytes ?? 0) + size > SUPPORT_UPLOAD_QUOTA_BYTES) {
      throw new ApiError(429, 'rate_limited', supportQuotaMessage);
    }
  }

  /** Where support's mail goes: BERTH_SUPPORT_EMAIL, else every superuser. */
  async function supportRecipients(): Promise<string[]> {
    if (deps.supportEmails) return deps.supportEmails;
    const rows = await db.select({ email: users.email }).from(users).where(eq(users.superuser, true));
    return rows.map((row) => row.email);
  }

  return {
    dropStaleUploads,
    sweepOrphanFiles,

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
      // Refused early without touching the disk; the check that holds is the one under the lock below.
      await assertWithinLimits(db, user.id, file.bytes.length, now);
      // Never the uploaded name: a random one, in a directory only this server's user can enter.
      const storedName = randomBytes(16).toString('hex');
      const token = randomBytes(24).toString('base64url');
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      await fs.chmod(dir, 0o700);
      const filePath = path.join(dir, storedName);
      await fs.writeFile(filePath, file.bytes, { mode: 0o600, flag: 'wx' });
      try {
        await db.transaction(async (tx) => {
          // One upload of a user at a time (NO KEY UPDATE: rows merely referencing the user are not held
          // up), so the count and the sum below see every upload of theirs that came before this one.
          await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('no key update');
          await assertWithinLimits(tx, user.id, file.bytes.length, now);
          await tx.insert(supportAttachments).values({
            userId: user.id,
            token,
            fileName: file.fileName,
            mediaType: checked.mediaType,
            size: file.bytes.length,
            storedName,
          });
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
