import type { SearchResultCollection } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromSearchResultResource } from '../../../resources/search/search-result.hal.ts';
import { searchKeys } from './search-keys.ts';

/**
 * GET /api/search?q= (issue 38): at most 15 resources the caller may read. Each text is its own query,
 * so an answer that arrives after a newer text was asked is kept under its own text and never shown (its
 * request is aborted when no one waits for it any more). No previous text's results stand in while the
 * new ones come: they would be shown, and opened, as the answer to a text they do not answer.
 */
export function useSearch(text: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: searchKeys.text(text),
    queryFn: async ({ signal }) => {
      const answer = await apiRequest<SearchResultCollection>(
        'api',
        `/search?${new URLSearchParams({ q: text })}`,
        { signal },
      );
      return embeddedList(answer, 'search_results').map(fromSearchResultResource);
    },
    enabled: phase === 'authenticated' && text !== '',
  });
}
