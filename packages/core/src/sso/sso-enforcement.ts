import { z } from 'zod';
import { boundedString } from '../text/bounded-string.ts';
import { MAX_LENGTH } from '../text/limits.ts';

/**
 * spec 1 §6/§8 and spec 3 §8: SSO enforcement, its bypass list (the "SSO exception list") and the CLI
 * token, each text written once; where the spec shows none, Berth's own wording.
 */
export const ssoEnforcementMessages = {
  requiredTitle: 'SSO Login Required',
  required: (organizationName: string) => `Organization ${organizationName} requires SSO!`,
  /** An SSO session acts only in the organization it signed in through (contract §3.3 `sub`). */
  otherOrganization: (organizationName: string) =>
    `This session signed in through another organization's SSO. Log in again to use ${organizationName}.`,
  configurationRequired: 'Configure Single Sign-On before enforcing it',
  bypassUserRequired: 'SSO bypass: a user must be chosen',
  bypassOwner: 'Account Owners are exempt from SSO enforcement and cannot be added to the exception list',
  bypassNotMember: 'Only members of the organization can be added to the SSO exception list',
  bypassDuplicate: 'This user is already on the SSO exception list',
  cliTokenFailed: 'Failed to fetch token, try again.',
} as const;

/** The error codes of the 403s above (contract §1.3 `error`). */
export const SSO_REQUIRED_ERROR = 'sso_required';
export const REAUTHENTICATION_REQUIRED_ERROR = 'reauthentication_required';

/** `POST /organizations/:id/whitelist_memberships` (contract §5.4): the member to exempt. */
export const whitelistMembershipCreateInput = z.looseObject({
  user_id: boundedString(MAX_LENGTH.id, { required: ssoEnforcementMessages.bypassUserRequired })
    .trim()
    .min(1, ssoEnforcementMessages.bypassUserRequired),
});
export type WhitelistMembershipCreateInput = z.infer<typeof whitelistMembershipCreateInput>;

/** spec 3 §9: the lifetimes the CLI token screen offers, in seconds; a week is the default. */
export const CLI_TOKEN_DURATIONS = [
  { seconds: 3600, label: '1 hour' },
  { seconds: 14400, label: '4 hours' },
  { seconds: 43200, label: '12 hours' },
  { seconds: 86400, label: '24 hours' },
  { seconds: 432000, label: '5 days' },
  { seconds: 604800, label: '1 week' },
] as const;
export const CLI_TOKEN_DEFAULT_SECONDS = 604800;
/** The longest lifetime a CLI token gets, whatever a client asks. */
export const CLI_TOKEN_MAX_SECONDS = 604800;

/**
 * The `duration` of an SSO login with `landing_page=clitoken`, in whole seconds (1 to a week), or null
 * when it is not one. Absent means the default. Other clients than the console may ask for any lifetime
 * within the bound, so the list above is not enforced.
 */
export function parseCliTokenDuration(raw: string | null | undefined): number | null {
  if (raw == null || raw === '') return CLI_TOKEN_DEFAULT_SECONDS;
  if (raw.length > 7 || !/^[0-9]+$/.test(raw)) return null;
  const seconds = Number(raw);
  return seconds >= 1 && seconds <= CLI_TOKEN_MAX_SECONDS ? seconds : null;
}

/**
 * The CLI token screen's form (spec 3 "CLI token"): the organization to sign in through, by id or SSO
 * login ID, and one of the offered lifetimes.
 */
export const cliTokenRequestForm = z.object({
  organization: boundedString(MAX_LENGTH.text).trim().min(1, 'Organization must not be empty'),
  duration: boundedString(MAX_LENGTH.keyword).refine(
    (value) => CLI_TOKEN_DURATIONS.some((option) => String(option.seconds) === value),
    'Choose how long the token lasts',
  ),
});
export type CliTokenRequestFormInput = z.input<typeof cliTokenRequestForm>;
