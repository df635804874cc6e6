import { and, desc, eq, isNull, lte } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** The outbox, newest first (the dev mailbox reads it while SMTP is not configured). */
  recent(limit?: number): Promise<(typeof mailOutbox.$inferSelect)[]>;
  transport: 'outbox' | 'smtp';
  /** Tries again the mail whose delivery failed and is due (backoff); how many went. */
  retryDue(now?: Date): Promise<number>;
  /** Whether the last delivery through SMTP failed (what /readyz reports as `mail`). */
  failing(): boolean;
}

/** Deliveries of one message at most, and the wait after the first failure (doubling, at most an hour). */
export const MAIL_ATTEMPTS = 8;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 60 * 60_000;
const BATCH = 50;

export function mailRetryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}

/** Where SMTP_URL points, without its credentials. */
function smtpHost(url: string): string {
  if (!URL.canParse(url)) return 'SMTP_URL';
  const parsed = new URL(url);
  return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}`;
}

/**
 * Every mail is written to the outbox; with SMTP_URL it is also delivered and marked sent. A failed
 * delivery stays in the outbox with its reason and is tried again after 30 s, 1 min, 2 min, … (at most
 * an hour apart, MAIL_ATTEMPTS in all) by `retryDue`; the first failure after a success is said once,
 * in plain words, through `onNotice`. Without SMTP, `onKept` hears of each message (the server prints
 * its links for people on other machines).
 */
export function createMailer(options: {
  db: Db;
  smtpUrl?: string | undefined;
  from: string;
  onKept?: ((mail: Mail) => void) | undefined;
  /** A line for the operator (mail stopped or started going out again). */
  onNotice?: ((line: string) => void) | undefined;
  /** Deliveries (tests replace SMTP with their own). */
  deliver?: ((mail: Mail) => Promise<unknown>) | undefined;
}): Mailer {
  const { smtpUrl } = options;
  // nodemailer (some 3 MB of heap) is imported with the first delivery: a server without SMTP never needs it.
  let smtp: Promise<import('nodemailer').Transporter> | null = null;
  const smtpTransport = (url: string) => {
    smtp ??= import('nodemailer')
      .then(({ default: nodemailer }) => nodemailer.createTransport(url))
      .catch((error: unknown) => {
        // Not kept: the delivery records the reason, and the next try loads it again.
        smtp = null;
        throw error;
      });
    return smtp;
  };
  const deliver =
    options.deliver ??
    (smtpUrl
      ? async (mail: Mail) => (await smtpTransport(smtpUrl)).sendMail({ from: options.from, ...mail })
      : null);
  const where = smtpUrl ? smtpHost(smtpUrl) : '';
  let failing = false;

  /** Delivers one outbox row; records success, or the reason and when to try again. */
  async function attempt(id: number, mail: Mail, attempts: number, now: Date): Promise<boolean> {
    if (!deliver) return false;
    try {
      await deliver(mail);
      await options.db
        .update(mailOutbox)
        .set({ sentAt: new Date(), attempts: attempts + 1, retryAt: null, error: null })
        .where(eqId(id));
      if (failing) options.onNotice?.(`Mail is going out again through ${where}.`);
      failing = false;
      return true;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const tried = attempts + 1;
      // The outbox keeps the message and the reason, so a failed delivery is never silent or lost.
      await options.db
        .update(mailOutbox)
        .set({
          error: reason.slice(0, 1000),
          attempts: tried,
          retryAt: tried < MAIL_ATTEMPTS ? new Date(now.getTime() + mailRetryDelayMs(tried)) : null,
        })
        .where(eqId(id));
      if (!failing) {
        options.onNotice?.(
          `Mail could not be sent through ${where} (SMTP_URL): ${reason.slice(0, 200)}. Berth keeps it and tries again, up to ${MAIL_ATTEMPTS} times.`,
        );
      }
      failing = true;
      throw error;
    }
  }

  return {
    transport: smtpUrl || options.deliver ? 'smtp' : 'outbox',
    async send(mail) {
      const [row] = await options.db.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id });
      if (!deliver) options.onKept?.(mail);
      if (!deliver || !row) return;
      await attempt(row.id, mail, 0, new Date());
    },
    async retryDue(now = new Date()) {
      if (!deliver) return 0;
      const due = await options.db
        .select()
        .from(mailOutbox)
        .where(and(isNull(mailOutbox.sentAt), lte(mailOutbox.retryAt, now)))
        .orderBy(mailOutbox.retryAt)
        .limit(BATCH);
      let sent = 0;
      for (const row of due) {
        try {
          const mail = { to: row.to, subject: row.subject, text: row.text, html: row.html };
          if (await attempt(row.id, mail, row.attempts, now)) sent++;
        } catch {
          // Recorded on the row; the next is tried all the same (one bad address blocks nothing).
        }
      }
      return sent;
    },
    failing: () => failing,
    recent(limit = 100) {
      return options.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(limit);
    },
  };
}

function eqId(id: number) {
  return eq(mailOutbox.id, id);
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function verificationMail(to: string, name: string, link: string): Mail {
  return {
    to,
    subject: 'Verify your email for Berth',
    text: `Hi ${name},\n\nConfirm your email address for Berth by opening this link:\n\n${link}\n\nThe link expires in 24 hours. If you did not sign up, ignore this message.\n`,
    html: `<p>Hi ${escapeHtml(name)},</p><p>Confirm your email address for Berth by opening this link:</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>The link expires in 24 hours. If you did not sign up, ignore this message.</p>`,
  };
}

export { escapeHtml };

/** The http(s) links of a message's text, in order, each once. */
export function mailLinks(mail: Pick<Mail, 'text'>): string[] {
  const links = mail.text.match(/https?:\/\/[^\s<>"']+/g) ?? [];
  return [...new Set(links)];
}

/** A kept message as the server prints it: who it is for, what it is about, and its links. */
export function describeKeptMail(mail: Mail): string {
  const links = mailLinks(mail).map((link) => `\n    ${link}`);
  return `Mail to ${mail.to}: ${mail.subject}${links.join('')}`;
}

export function invitationMail(
  to: string,
  details: { inviterName: string; organizationName: string; roleName: string; validForDays: number },
  link: string,
): Mail {
  const { inviterName, organizationName, roleName, validForDays } = details;
  const expiry = `The link expires in ${validForDays} day${validForDays === 1 ? '' : 's'}.`;
  return {
    to,
    subject: `${inviterName} invited you to ${organizationName} on Berth`,
    text: `${inviterName} invited you to join ${organizationName} on Berth as a member of ${roleName}.\n\nAccept the invitation by opening this link:\n\n${link}\n\n${expiry} If you did not expect this invitation, ignore this message.\n`,
    html: `<p>${escapeHtml(inviterName)} invited you to join <strong>${escapeHtml(organizationName)}</strong> on Berth as a member of ${escapeHtml(roleName)}.</p><p>Accept the invitation by opening this link:</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>${expiry} If you did not expect this invitation, ignore this message.</p>`,
  };
}

export function passwordResetMail(to: string, name: string, link: string, validForMinutes: number): Mail {
  const expiry = `The link expires in ${validForMinutes} minutes and works once.`;
  return {
    to,
    subject: 'Reset your Berth password',
    text: `Hi ${name},\n\nSomeone asked to reset the password of your Berth account. Choose a new password by opening this link:\n\n${link}\n\n${expiry} Every session and access token of your account ends when the password changes. If you did not ask for this, ignore this message: your password stays as it is.\n`,
    html: `<p>Hi ${escapeHtml(name)},</p><p>Someone asked to reset the password of your Berth account. Choose a new password by opening this link:</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>${expiry} Every session and access token of your account ends when the password changes. If you did not ask for this, ignore this message: your password stays as it is.</p>`,
  };
}

/** Told to the old address once the account has moved to a new one. */
export function emailChangedMail(to: string, name: string, newEmail: string): Mail {
  return {
    to,
    subject: 'Your Berth email address was changed',
    text: `Hi ${name},\n\nThe email address of your Berth account was changed to ${newEmail}. Mail for the account now goes there, its other sessions were logged out and its access tokens revoked.\n\nIf you did not make this change, contact support right away.\n`,
    html: `<p>Hi ${escapeHtml(name)},</p><p>The email address of your Berth account was changed to ${escapeHtml(newEmail)}. Mail for the account now goes there, its other sessions were logged out and its access tokens revoked.</p><p>If you did not make this change, contact support right away.</p>`,
  };
}
