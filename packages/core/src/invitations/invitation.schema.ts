import { z } from 'zod';
import { emailSchema } from '../identity/identity.schema.ts';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';

// spec 1 §5 "Invite: email format; a role is required", §8 the invitation messages (its toasts are in
// messages/toast-messages.ts).

export const invitationMessages = {
  roleRequired: 'A role is required',
  /** spec 1 §8: the two spaces are the spec's. */
  notFound: 'We could not find this invitation.  So either it never existed or was later revoked.',
  mismatch: (invitedEmail: string, ownEmail: string) =>
    `This invitation (${invitedEmail}) is not associated with your account (${ownEmail}). Please log in with the correct account.`,
  expired: (organizationName: string, inviterName: string) =>
    `This invitation to join ${organizationName} has expired. Please request a new invite from ${inviterName}.`,
} as const;

/** The Invite form (spec 1 §2 /settings/team/invite): an address and the role it joins. */
export const inviteFormSchema = z.object({
  email: emailSchema,
  roleId: z
    .string({ error: invitationMessages.roleRequired })
    .max(MAX_LENGTH.reference, { error: tooLongMessage('Role', MAX_LENGTH.reference), abort: true })
    .trim()
    .min(1, invitationMessages.roleRequired),
});
export type InviteFormInput = z.input<typeof inviteFormSchema>;
export type InviteFormValues = z.output<typeof inviteFormSchema>;

/** `POST /roles/:id/invitations` (contract §5.3): the role is in the path; `origin` picks the mail's links. */
export const createInvitationSchema = z.object({
  email: emailSchema,
  origin: z
    .string()
    .max(MAX_LENGTH.reference, { error: tooLongMessage('origin', MAX_LENGTH.reference), abort: true })
    .optional(),
});
export type CreateInvitationInput = z.infer<typeof createInvitationSchema>;

/**
 * spec 1 §3: an invitation's expired flag derives from its verification code's expiry date (contract §4.1
 * `verification_code_expires_at`, past means expired). A missing or unreadable date never expires.
 */
export function isInvitationExpired(
  verificationCodeExpiresAt: string | null | undefined,
  now: Date,
): boolean {
  const expiresAt = Date.parse(verificationCodeExpiresAt ?? '');
  return Number.isFinite(expiresAt) && expiresAt <= now.getTime();
}

/** spec 1 §4 "Invitation page": emails compare case-insensitively, as the server stores them lower-cased. */
export function invitationMatchesEmail(invitedEmail: string, ownEmail: string): boolean {
  return invitedEmail.trim().toLowerCase() === ownEmail.trim().toLowerCase();
}
