import type { TokenResource } from '@berth/core';
import { type QueryClient, queryOptions, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import {
  fromTokenResource,
  NO_TOKEN_FOUND,
  type SessionStore,
  sessionStore,
  useSession,
} from '../../../lib/session-store.ts';
import { startupPaths } from '../../../lib/startup-paths.ts';
import { sessionKeys } from './session-keys.ts';

/** contract §3.5: the session cookie restores the token; sent without a bearer. */
export function currentTokenQuery() {
  return queryOptions({
    queryKey: sessionKeys.currentToken(),
    queryFn: async ({ signal }) =>
      fromTokenResource(
        await apiRequest<TokenResource>('auth', startupPaths.currentToken, { auth: 'none', signal }),
      ),
    // Only an answer says there is no session: a dropped connection or a server error (a restart, a
    // proxy in between) is asked again, so a blip does not show a signed-in user the login page.
    retry: (failures, error) => failures < BOOT_RETRIES && isTransient(error),
    retryDelay: (failures) => 250 * 2 ** failures,
    staleTime: 0,
    gcTime: 0,
  });
}

/** How often the session check is asked again after a failure that says nothing about the session. */
export const BOOT_RETRIES = 3;

function isTransient(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500 || error.status === 429;
  return !(error instanceof DOMException && error.name === 'AbortError');
}

/** spec 3 §4: boot starts with the current token; without one it ends with the note "no token found". */
export async function bootSession(
  queryClient: QueryClient,
  store: SessionStore = sessionStore,
): Promise<void> {
  // Once: a boot that has ended (the first render's effect can run just after main.tsx's boot ended)
  // would otherwise ask the server again for a token nobody reads, beside the page's first calls.
  if (store.getState().phase !== 'booting') return;
  // The login page shows while the check is out: a login that finished first must not be undone by it.
  try {
    const token = await queryClient.fetchQuery(currentTokenQuery());
    if (store.getState().phase === 'booting') store.signIn(token);
  } catch {
    if (store.getState().phase === 'booting') store.endBoot(NO_TOKEN_FOUND);
  }
}

export function useBootSession(): void {
  const queryClient = useQueryClient();
  const { phase } = useSession();
  useEffect(() => {
    // fetchQuery shares one request, so StrictMode's second effect run does not call twice.
    if (phase === 'booting') void bootSession(queryClient);
  }, [phase, queryClient]);
}
