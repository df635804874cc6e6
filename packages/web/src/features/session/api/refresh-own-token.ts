import { TOKEN_LIFETIME_SECONDS, type TokenResource } from '@berth/core';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromTokenResource, type SessionToken, sessionStore } from '../../../lib/session-store.ts';

/** contract §3.2: Berth's console names its product `berth` in token types. */
const USER_HREF_TOKEN_TYPE = 'berth:user:href';

/**
 * contract §3.2 token exchange, use (a): after joining an organization (accepting an invitation) the
 * console trades its token for a fresh one of its own user, scope manage, which also becomes the session
 * cookie's. The caller reloads the data afterwards.
 */
export async function refreshOwnToken(): Promise<SessionToken> {
  const current = sessionStore.getState().accessToken;
  if (!current) throw new Error('You are not logged in');
  const token = await apiRequest<TokenResource>('auth', '/tokens', {
    method: 'POST',
    body: {
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      actor_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      actor_token: current.accessToken,
      subject_token_type: USER_HREF_TOKEN_TYPE,
      subject_token: current.userHref,
      scope: 'manage',
      sso_organization: '',
      expires_in: TOKEN_LIFETIME_SECONDS.exchange,
      _source: 'app-ui',
    },
  });
  const refreshed = fromTokenResource(token);
  // The same user, so the elevated token taken at login stays (spec 1 §4 "After accept, get an elevated token").
  sessionStore.signIn(refreshed);
  return refreshed;
}
