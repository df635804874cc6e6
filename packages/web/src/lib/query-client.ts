import { CACHED_LIST_STALE_MS } from '@berth/core';
import {
  type InvalidateOptions,
  type InvalidateQueryFilters,
  type Query,
  QueryClient,
} from '@tanstack/react-query';
import { ApiError } from './api-client.ts';
import type { SessionStore } from './session-store.ts';

/**
 * A write invalidates what it changed, and TanStack Query then fetches it again, except a query whose first
 * fetch is still in flight: that fetch is reused, not restarted, and the server may have read it before the
 * write. Its answer would stand as fresh, and the change would not show (a pending email change missing
 * after its request, on a busy machine). So such a query is fetched once more after that first fetch.
 */
export class ConsoleQueryClient extends QueryClient {
  override async invalidateQueries<TTaggedQueryKey extends readonly unknown[] = readonly unknown[]>(
    filters?: InvalidateQueryFilters<TTaggedQueryKey>,
    options?: InvalidateOptions,
  ): Promise<void> {
    const firstFetches = new Set<Query>(
      this.getQueryCache()
        .findAll({ ...filters, fetchStatus: 'fetching' })
        .filter((query) => query.state.data === undefined),
    );
    await super.invalidateQueries(filters, options);
    const refetchType = filters?.refetchType ?? 'active';
    if (firstFetches.size === 0 || refetchType === 'none') return;
    await this.refetchQueries(
      { predicate: (query) => firstFetches.has(query), type: refetchType },
      { ...options, cancelRefetch: false },
    );
  }
}

export function createQueryClient(): QueryClient {
  return new ConsoleQueryClient({
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
