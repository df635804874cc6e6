import { SEARCH_RESOURCE_KEYS_MAX, type SearchResultCollection } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromSearchResultResource } from '../../../resources/search/search-result.hal.ts';
import { searchKeys } from './search-keys.ts';

/**
 * The remembered resources by their "type-id" keys (GET /api/search?resources=): the server names those
 * the caller may still read, so a deleted one, or another user's on a shared browser, never shows.
 */
export function useNamedResources(keys: readonly string[]) {
  const { phase } = useSession();
  const asked = keys.slice(0, SEARCH_RESOURCE_KEYS_MAX);
  return useQuery({
    queryKey: searchKeys.resources(asked),
    queryFn: async ({ signal }) => {
      const answer = await apiRequest<SearchResultCollection>(
        'api',
        `/search?${new URLSearchParams({ resources: asked.join(',') })}`,
        { signal },
      );
      return embeddedList(answer, 'search_results').map(fromSearchResultResource);
    },
    enabled: phase === 'authenticated' && asked.length > 0,
  });
}
