import type { SupportAttachmentResource, SupportPriority, SupportTicketResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { supportAttachments, supportTickets } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type SupportTicketRow = typeof supportTickets.$inferSelect;
export type SupportAttachmentRow = typeof supportAttachments.$inferSelect;

export function toSupportAttachmentHal(
  row: SupportAttachmentRow,
  urls: FamilyUrls,
): SupportAttachmentResource {
  return {
    id: String(row.id),
    file_name: row.fileName,
    media_type: row.mediaType,
    size: row.size,
    created_at: iso(row.createdAt),
    _links: links({ download: `${urls.api}/support/attachments/${row.id}` }),
  };
}

export function toSupportTicketHal(
  ticket: SupportTicketRow,
  attachments: SupportAttachmentRow[],
  urls: FamilyUrls,
): SupportTicketResource {
  return {
    id: String(ticket.id),
    _type: 'support_ticket' as const,
    subject: ticket.subject,
    description: ticket.description,
    email: ticket.email,
    name: ticket.name,
    priority: ticket.priority as SupportPriority,
    attachments: attachments.map((row) => toSupportAttachmentHal(row, urls)),
    created_at: iso(ticket.createdAt),
    updated_at: iso(ticket.updatedAt),
    _links: links({
      self: `${urls.api}/support/tickets/${ticket.id}`,
      user: `${urls.auth}/users/${ticket.userId}`,
    }),
  };
}
