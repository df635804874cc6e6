import { escapeHtml, type Mail } from '../../mail/mailer.ts';
import type { SupportAttachmentRow, SupportTicketRow } from './support.hal.ts';

/**
 * A subject line from the ticket's: one line whatever it holds. The ticket's schema already refuses line
 * breaks and control characters; this is the second lock on the header (no CR or LF can reach it).
 */
export function subjectLine(subject: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
  return subject.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g, ' ').trim();
}

/**
 * Who may download a ticket's files from its page: the requester and the installation's superusers. Support
 * mail may go to addresses of BERTH_SUPPORT_EMAIL that are neither, so its mail says so.
 */
const FOR_SUPPORT =
  "download them from the ticket's page, signed in as a superuser of this Berth installation";
const FOR_REQUESTER = "download them from the ticket's page";

function fileLines(files: SupportAttachmentRow[], where: string): string {
  if (files.length === 0) return 'Attachments: none';
  return `Attachments (${where}):\n${files
    .map((file) => `- ${file.fileName} (${file.mediaType}, ${file.size} bytes)`)
    .join('\n')}`;
}

function fileItems(files: SupportAttachmentRow[], where: string): string {
  if (files.length === 0) return '<p>Attachments: none</p>';
  const items = files
    .map(
      (file) => `<li>${escapeHtml(file.fileName)} (${escapeHtml(file.mediaType)}, ${file.size} bytes)</li>`,
    )
    .join('');
  return `<p>Attachments (${escapeHtml(where)}):</p><ul>${items}</ul>`;
}

/** The ticket as support receives it: who asked, how urgent, what, and the page with its files. */
export function supportTicketMail(
  to: string,
  details: { ticket: SupportTicketRow; accountEmail: string; files: SupportAttachmentRow[]; link: string },
): Mail {
  const { ticket, accountEmail, files, link } = details;
  const from = `${ticket.name} <${ticket.email}> (account ${accountEmail})`;
  return {
    to,
    subject: `Support ticket #${ticket.id} (${ticket.priority}): ${subjectLine(ticket.subject)}`,
    text: `${from} asks for support, priority ${ticket.priority}.\n\nSubject: ${ticket.subject}\n\n${ticket.description}\n\n${fileLines(files, FOR_SUPPORT)}\n\nThe ticket: ${link}\n`,
    html: `<p>${escapeHtml(from)} asks for support, priority <strong>${escapeHtml(ticket.priority)}</strong>.</p><p>Subject: ${escapeHtml(ticket.subject)}</p><pre>${escapeHtml(ticket.description)}</pre>${fileItems(files, FOR_SUPPORT)}<p>The ticket: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  };
}

/** The requester's copy, to their account's own address. */
export function requesterCopyMail(
  to: string,
  details: { ticket: SupportTicketRow; files: SupportAttachmentRow[]; link: string },
): Mail {
  const { ticket, files, link } = details;
  return {
    to,
    subject: `Your support ticket #${ticket.id}: ${subjectLine(ticket.subject)}`,
    text: `Hi ${ticket.name},\n\nWe received your support ticket, priority ${ticket.priority}, and will answer at ${ticket.email}.\n\nSubject: ${ticket.subject}\n\n${ticket.description}\n\n${fileLines(files, FOR_REQUESTER)}\n\nThe ticket: ${link}\n`,
    html: `<p>Hi ${escapeHtml(ticket.name)},</p><p>We received your support ticket, priority <strong>${escapeHtml(ticket.priority)}</strong>, and will answer at ${escapeHtml(ticket.email)}.</p><p>Subject: ${escapeHtml(ticket.subject)}</p><pre>${escapeHtml(ticket.description)}</pre>${fileItems(files, FOR_REQUESTER)}<p>The ticket: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  };
}
