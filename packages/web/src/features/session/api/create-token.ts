import { TOKEN_LIFETIME_SECONDS, type TokenResource } from '@berth/core';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromTokenResource, type SessionToken } from '../../../lib/session-store.ts';

export interface Credentials {
  email: string;
  password: string;
  otpToken?: string;
  /** A security key's WebAuthn assertion JSON, in place of the code (contract §3.2 `u2f`). */
  u2f?: unknown;
}

export type TokenGrant = 'session' | 'elevated';

/** contract §3.2: password grant for a session (scope manage) or an elevation (scope elevated). */
export async function createToken(credentials: Credentials, grant: TokenGrant): Promise<SessionToken> {
  const elevated = grant === 'elevated';
  const token = await apiRequest<TokenResource>('auth', '/tokens', {
    method: 'POST',
    // The elevated token must not replace the session cookie, so its request carries no cookies.
    credentials: elevated ? 'omit' : 'include',
    body: {
      username: credentials.email,
      password: credentials.password,
      otp_token: credentials.otpToken ?? '',
      ...(credentials.u2f ? { u2f: credentials.u2f } : {}),
      expires_in: elevated ? TOKEN_LIFETIME_SECONDS.elevated : TOKEN_LIFETIME_SECONDS.session,
      grant_type: 'password',
      scope: elevated ? 'elevated' : 'manage',
      _source: 'deploy',
    },
  });
  return fromTokenResource(token);
}
