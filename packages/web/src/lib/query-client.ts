import { CACHED_LIST_STALE_MS } from '@berth/core';
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';
import type { SessionStore } from './session-store.ts';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // contract §1.13: cached lists are refetched after 60 s when revisited.
        staleTime: CACHED_LIST_STALE_MS,
        // Issue 20: coming back to the tab reads again what has gone stale meanwhile.
        refetchOnWindowFocus: true,
        // A 4xx will not change by asking again; network trouble might.
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status < 500) && failureCount < 2,
      },
      mutations: { retry: false },
    },
  });
}

/** spec 1 §7: every call is cancelled and every cached answer dropped when the store resets. */
export function clearQueriesOnReset(queryClient: QueryClient, store: SessionStore): () => void {
  return store.onReset(() => {
    void queryClient.cancelQueries();
    queryClient.clear();
  });
}
