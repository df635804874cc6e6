import { useMutation } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';
import { writePersisted } from '../../../lib/persisted-state.ts';
import { sessionStore } from '../../../lib/session-store.ts';

/** contract §3.5: delete the access and the elevated token in parallel, then clear the store and the visits. */
export async function logOut(): Promise<void> {
  const { accessToken, elevatedToken } = sessionStore.getState();
  const tokens = [accessToken, elevatedToken].filter((token) => token !== null);
  // A token that is already gone must not keep the user signed in here.
  await Promise.allSettled(
    tokens.map((token) =>
      apiRequest<EmptyResponse>('auth', `/tokens/${encodeURIComponent(token.id)}`, { method: 'DELETE' }),
    ),
  );
  sessionStore.reset();
  // Recently Viewed and Most Visited are this user's: the next person on this browser starts without them.
  writePersisted('resourceStats', {});
}

export function useLogout() {
  return useMutation({ mutationFn: logOut });
}
