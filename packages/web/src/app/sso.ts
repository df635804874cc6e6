import { getRuntimeConfig } from '../lib/config.ts';
import { paths } from '../lib/paths.ts';

/** spec 1 §7: the SSO redirect goes to the auth host, with the console's failure page as redirect_uri. */
export function ssoLoginUrl(organizationId: string): string {
  const { authUrl, appUrl } = getRuntimeConfig();
  const redirect = new URLSearchParams({ redirect_uri: `${appUrl}${paths.ssoFailure}` });
  return `${authUrl}/organizations/${encodeURIComponent(organizationId)}/saml/login?${redirect}`;
}
