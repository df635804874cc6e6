import { SESSION_ELEVATION_GRANT, TOKEN_LIFETIME_SECONDS, type TokenResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import {
  fromTokenResource,
  type SessionToken,
  sessionStore,
  useSession,
} from '../../../lib/session-store.ts';
import { sessionKeys } from './session-keys.ts';

/**
 * Berth's addition to contract §3.2 (issue 41, as GitHub's sudo mode): within 15 minutes of an elevation
 * with credentials, the same browser session gets an elevated token without them, so a reload or a new
 * tab does not ask for the password again. Unlike the password elevation, it goes with the session cookie:
 * the server binds the window to that cookie and this bearer together.
 */
async function elevateFromSession(): Promise<SessionToken> {
  const token = await apiRequest<TokenResource>('auth', '/tokens', {
    method: 'POST',
    credentials: 'include',
    body: {
      grant_type: SESSION_ELEVATION_GRANT,
      scope: 'elevated',
      expires_in: TOKEN_LIFETIME_SECONDS.elevated,
    },
  });
  return fromTokenResource(token);
}

/**
 * Tries the sudo window once per visit (never cached: the window ends on the server's clock). Success
 * stores the elevated token as a password elevation would; a refusal (403, the window closed or never
 * opened) leaves the credentials form to ask.
 */
export function useSessionElevation() {
  const accessTokenId = useSession().accessToken?.id ?? '';
  return useQuery({
    queryKey: sessionKeys.elevationWindow(accessTokenId),
    queryFn: async () => {
      const token = await elevateFromSession();
      sessionStore.setElevatedToken(token);
      return token;
    },
    enabled: accessTokenId !== '',
    retry: false,
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
