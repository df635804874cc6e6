import { z } from 'zod';
import { requiredText } from '../identity/identity.schema.ts';

// Personal access tokens (design: "personal access tokens for git and the API"; the spec names no
// screen for them, so this is Berth's own, modelled on GitHub's and GitLab's): a named token with a
// scope and an expiry, made with the password entered again, shown once, listed with its last use
// and revocable.

/** `manage` reads and writes (git pushes too); `read` only reads, as a read-only session does. */
export const PERSONAL_ACCESS_TOKEN_SCOPES = ['manage', 'read'] as const;
export type PersonalAccessTokenScope = (typeof PERSONAL_ACCESS_TOKEN_SCOPES)[number];

/** The expiries the console offers, in days; the API takes any whole number up to the maximum. */
export const PERSONAL_ACCESS_TOKEN_EXPIRY_DAYS = [7, 30, 60, 90, 365] as const;
export const DEFAULT_PERSONAL_ACCESS_TOKEN_EXPIRY_DAYS = 30;
/** A year at most: a token that never expires outlives the reason it was made. */
export const MAX_PERSONAL_ACCESS_TOKEN_EXPIRY_DAYS = 365;
export const PERSONAL_ACCESS_TOKEN_NAME_MAX_LENGTH = 100;
/** Live tokens one account may hold, so the list stays one short page. */
export const MAX_PERSONAL_ACCESS_TOKENS = 50;
/** How long an expired token stays listed (marked expired) before it drops off the list. */
export const EXPIRED_PERSONAL_ACCESS_TOKEN_LISTED_DAYS = 30;

export const personalAccessTokenMessages = {
  scope: 'Scope must be manage (read and write) or read (read only)',
  expiry: `Expiry must be a whole number of days from 1 to ${MAX_PERSONAL_ACCESS_TOKEN_EXPIRY_DAYS}`,
  tooMany: `You have ${MAX_PERSONAL_ACCESS_TOKENS} access tokens, the most an account may have: revoke one you no longer use first`,
  /** spec 1 §8's success toast for a generated token. */
  created: 'Token generated successfully!',
  revoked: 'Access token revoked',
  shownOnce:
    'Copy the token now: it is shown only once. Keep it in a password manager or in your CI’s secrets, never in code.',
  /** A token of scope read asked to write. */
  readOnly: 'This access token is read-only: writes need a token with scope manage',
  /** Tokens of their own: no exchange turns one into a session or another token. */
  notExchangeable: 'A personal access token cannot be exchanged for another token',
  empty: 'No access tokens yet',
} as const;

const expiryIssue = { error: personalAccessTokenMessages.expiry };

/** `POST /users/:id/personal_access_tokens` (Berth's addition to contract §5.2). */
export const personalAccessTokenInput = z.object({
  name: requiredText('Name', PERSONAL_ACCESS_TOKEN_NAME_MAX_LENGTH),
  scope: z.enum(PERSONAL_ACCESS_TOKEN_SCOPES, { error: personalAccessTokenMessages.scope }),
  expires_in_days: z
    .number(expiryIssue)
    .int(expiryIssue)
    .min(1, expiryIssue)
    .max(MAX_PERSONAL_ACCESS_TOKEN_EXPIRY_DAYS, expiryIssue),
});
export type PersonalAccessTokenInput = z.infer<typeof personalAccessTokenInput>;

/** The name the CI/CD tab gives the token it makes for an app. */
export function ciTokenName(environmentHandle: string, appHandle: string): string {
  return `ci: ${environmentHandle}/${appHandle}`.slice(0, PERSONAL_ACCESS_TOKEN_NAME_MAX_LENGTH);
}
