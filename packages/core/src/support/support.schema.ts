import { z } from 'zod';
import { emailSchema, requiredText } from '../identity/identity.schema.ts';
import { requiredMessage } from '../identity/identity-rules.ts';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';

// spec 3 §2 Support and §3 "Support ticket": email, name, subject, description, attachments (upload
// tokens), priority. Submit needs a subject and a message (spec 3 §5).

/** spec 3 §9: support priorities, `normal` by default. */
export const SUPPORT_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type SupportPriority = (typeof SUPPORT_PRIORITIES)[number];
export const DEFAULT_SUPPORT_PRIORITY: SupportPriority = 'normal';

/** The longest subject: it travels as a mail's subject line. */
export const SUPPORT_SUBJECT_MAX_LENGTH = 200;
export const SUPPORT_DESCRIPTION_MAX_LENGTH = 20_000;
/** Attachments one ticket takes, and the largest one. */
export const SUPPORT_ATTACHMENTS_MAX = 5;
export const SUPPORT_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/** The longest attachment file name kept (file systems stop at 255 bytes). */
export const SUPPORT_FILE_NAME_MAX_LENGTH = 255;

/** spec 3 §8: what the console says when an upload or a ticket fails. */
export const supportMessages = {
  uploadFailed: 'File upload failed. Please try again.',
  createFailed: (message: string) => `Error! Unable to create the support ticket: ${message}`,
  tooManyAttachments: `A ticket takes at most ${SUPPORT_ATTACHMENTS_MAX} attachments`,
  tooLarge: `An attachment must be at most ${SUPPORT_ATTACHMENT_MAX_BYTES / (1024 * 1024)} MB`,
  empty: 'The file is empty',
  unknownAttachment: 'An attachment was not found: upload it again',
  notAFile: 'Send the attachment as a file in the field "file" of a multipart/form-data body',
  priority: `Priority must be one of ${SUPPORT_PRIORITIES.join(', ')}`,
} as const;

/**
 * The ticket form (contract §5.13 `POST /support/create`). The subject becomes a mail's subject line, so
 * it is plain one-line text: a line break (header injection) or an invisible character is refused.
 */
export const supportTicketSchema = z.object({
  subject: requiredText('Subject', SUPPORT_SUBJECT_MAX_LENGTH),
  description: z
    .string({ error: requiredMessage('Message') })
    .max(SUPPORT_DESCRIPTION_MAX_LENGTH, {
      error: tooLongMessage('Message', SUPPORT_DESCRIPTION_MAX_LENGTH),
      abort: true,
    })
    .trim()
    .min(1, requiredMessage('Message')),
  email: emailSchema,
  name: requiredText('Name', 120),
  priority: z
    .enum(SUPPORT_PRIORITIES, { error: supportMessages.priority })
    .optional()
    .default(DEFAULT_SUPPORT_PRIORITY),
  attachments: z
    .array(z.string().max(MAX_LENGTH.code, { error: supportMessages.unknownAttachment, abort: true }), {
      error: supportMessages.unknownAttachment,
    })
    .max(SUPPORT_ATTACHMENTS_MAX, { error: supportMessages.tooManyAttachments, abort: true })
    .optional()
    .default([]),
});
export type SupportTicketInput = z.input<typeof supportTicketSchema>;
export type SupportTicket = z.output<typeof supportTicketSchema>;

/** spec 3 §5: Submit is disabled unless both subject and message are non-empty. */
export function canSubmitSupportTicket(values: { subject: string; description: string }): boolean {
  return values.subject.trim() !== '' && values.description.trim() !== '';
}
