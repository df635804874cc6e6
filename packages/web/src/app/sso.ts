import { getRuntimeConfig } from '../lib/config.ts';
import { paths } from '../lib/paths.ts';

/** spec 1 §7: the SSO redirect goes to the auth host, with the console's failure page as redirect_uri. */
export function ssoLoginUrl(organizationId: string): string {
  const { authUrl, appUrl } = getRuntimeConfig();
  const redirect = new URLSearchParams({ redirect_uri: `${appUrl}${paths.ssoFailure}` });
  return `${authUrl}/organizations/${encodeURIComponent(organizationId)}/saml/login?${redirect}`;
}

/**
 * Where a session goes for an organization it may not use (spec 3 §6): an organization enforcing SSO to
 * its SSO login; any other (this session signed in through another organization's SSO) to a new login.
 */
export function signInAgainTo(
  organization: { id: string; ssoEnforced: boolean },
  navigate: (path: string) => unknown,
): void {
  if (organization.ssoEnforced) window.location.assign(ssoLoginUrl(organization.id));
  else void navigate(paths.logout);
}

/**
 * spec 3 "CLI token": the SSO login that ends on the console's token page (/sso/cli/read) instead of the
 * console, for a token of `durationSeconds`. Failures come back to that page too (`?message=`).
 */
export function cliTokenLoginUrl(organizationIdOrHandle: string, durationSeconds: number): string {
  const { authUrl, appUrl } = getRuntimeConfig();
  const query = new URLSearchParams({
    landing_page: 'clitoken',
    duration: String(durationSeconds),
    redirect_uri: `${appUrl}${paths.ssoCliRead}`,
  });
  return `${authUrl}/organizations/${encodeURIComponent(organizationIdOrHandle)}/saml/login?${query}`;
}
