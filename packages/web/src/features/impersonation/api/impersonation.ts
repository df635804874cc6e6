import { type ImpersonationInput, TOKEN_LIFETIME_SECONDS, type TokenResource } from '@berth/core';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { sessionStore } from '../../../lib/session-store.ts';

/** contract §3.2: Berth's console names its product `berth` in token types. */
const USER_EMAIL_TOKEN_TYPE = 'berth:user:email';

/** Starts the console over from the server's session cookie: every cached thing belongs to someone else now. */
export function reloadConsole(path = '/'): void {
  window.location.assign(path);
}

/**
 * contract §3.2 token exchange, use (b): a superuser or read-only impersonator asks for a token of the
 * user with that email, scope `manage` (write access, superusers only) or `read`. The new token is also
 * the browser's session now, so the console reloads into it.
 */
export async function impersonate(input: ImpersonationInput): Promise<TokenResource> {
  const current = sessionStore.getState().accessToken;
  if (!current) throw new Error('You are not logged in');
  return apiRequest<TokenResource>('auth', '/tokens', {
    method: 'POST',
    body: {
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      actor_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      actor_token: current.accessToken,
      subject_token_type: USER_EMAIL_TOKEN_TYPE,
      subject_token: input.email,
      scope: input.write ? 'manage' : 'read',
      sso_organization: '',
      expires_in: TOKEN_LIFETIME_SECONDS.exchange,
      _source: 'app-ui',
    },
  });
}

/**
 * Ends the impersonation: deleting its token gives the browser the impersonator's own session back
 * (the server restores its cookie), which the reload then picks up.
 */
export async function stopImpersonating(): Promise<void> {
  const current = sessionStore.getState().accessToken;
  if (current) {
    await apiRequest<EmptyResponse>('auth', `/tokens/${encodeURIComponent(current.id)}`, {
      method: 'DELETE',
    });
  }
}
