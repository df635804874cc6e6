import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';
import { SUPPORT_PRIORITIES } from './support.schema.ts';

/** Contract §5.13 `POST /support/upload`: the token the ticket names the file by, and a line about it. */
export const supportUploadAnswer = z
  .strictObject({ token: z.string(), message: z.string() })
  .meta({ id: 'SupportUpload' });
export type SupportUploadAnswer = z.infer<typeof supportUploadAnswer>;

/** Contract §5.13 `POST /support/create` answers `{}`. */
export const supportCreateAnswer = z.strictObject({}).meta({ id: 'SupportTicketCreated' });

/** A file of a ticket; `download` answers it to the requester and to superusers only. */
export const supportAttachmentResource = z.strictObject({
  id: halId,
  file_name: z.string(),
  media_type: z.string(),
  /** Bytes. */
  size: z.number().int(),
  created_at: isoTimestamp,
  _links: halLinks(['download']),
});
export type SupportAttachmentResource = z.infer<typeof supportAttachmentResource>;

/**
 * Berth addition: a ticket as the requester (and superusers) read it back, so the Support page lists what
 * was sent. Not a type the contract's console ingests.
 */
export const supportTicketResource = z
  .strictObject({
    id: halId,
    _type: z.literal('support_ticket'),
    subject: z.string(),
    description: z.string(),
    email: z.string(),
    name: z.string(),
    priority: z.enum(SUPPORT_PRIORITIES),
    attachments: z.array(supportAttachmentResource),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'user']),
  })
  .meta({ id: 'SupportTicket' });
export type SupportTicketResource = z.infer<typeof supportTicketResource>;

export const supportTicketCollection = halCollection('support_tickets', supportTicketResource).meta({
  id: 'SupportTicketCollection',
});
export type SupportTicketCollection = z.infer<typeof supportTicketCollection>;
