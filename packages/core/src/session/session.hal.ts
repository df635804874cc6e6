import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp, isoTimestampOrNull } from '../hal/hal.ts';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';

/**
 * One live token of a user as `GET /users/:id/sessions` lists it (Berth addition to contract §5.2): never
 * the token itself, only what lets its owner recognise and revoke it (`DELETE /tokens/:id`).
 */
export const sessionResource = z
  .strictObject({
    id: halId,
    _type: z.literal('session'),
    scope: z.string(),
    created_at: isoTimestamp,
    expires_at: isoTimestamp,
    last_used_at: isoTimestampOrNull,
    user_agent: z.string().nullable(),
    ip_address: z.string().nullable(),
    /** The token of the request that lists it (or its browser session). */
    current: z.boolean(),
    /** Someone else (staff) acting as the user. */
    impersonated: z.boolean(),
    _links: halLinks(['self', 'token', 'user'], ['actor']),
  })
  .meta({ id: 'Session' });
export type SessionResource = z.infer<typeof sessionResource>;

export const sessionCollection = halCollection('sessions', sessionResource).meta({ id: 'SessionCollection' });
export type SessionCollection = z.infer<typeof sessionCollection>;

/** Spec 1 §6/§5: a superuser may ask for write access; otherwise (and with SSO simulation) it is read-only. */
export const impersonationMessages = {
  subjectRequired: 'Enter the email address of the user to impersonate',
  notStaff: 'Only staff (superusers or read-only impersonators) may impersonate other users',
  readOnlyOnly: 'You may only impersonate with read-only access',
  noChaining: 'Stop impersonating before impersonating someone else',
  ssoSession:
    'Log in with your password to impersonate: a single sign-on session acts in its organization only',
  readOnlySession: 'This impersonation session is read-only: changes are not allowed',
  banner: (name: string, email: string) => `You are impersonating ${name} (${email})`,
} as const;

export const impersonationInput = z.object({
  email: z
    .string()
    .max(MAX_LENGTH.email, { error: tooLongMessage('Email', MAX_LENGTH.email), abort: true })
    .trim()
    .min(1, impersonationMessages.subjectRequired),
  write: z.boolean(),
});
export type ImpersonationInput = z.infer<typeof impersonationInput>;
