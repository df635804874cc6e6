import { type AppCollection, MAX_PAGE_SIZE } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList, idOf } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { appKeys } from '../../../resources/apps/app-keys.ts';

/**
 * The ids of the apps the server finds for a search (GET /apps?search=): it also matches the git ref,
 * image and last operation, which the bare list (`no_embed=true`) does not carry. Off while `search`
 * is blank.
 */
export function useAppSearch(search: string) {
  const { phase } = useSession();
  const text = search.trim();
  return useQuery({
    queryKey: appKeys.search(text),
    queryFn: async ({ signal }) => {
      const query = new URLSearchParams({ per_page: String(MAX_PAGE_SIZE), no_embed: 'true', search: text });
      const list = await apiRequest<AppCollection>('api', `/apps?${query}`, { signal });
      return new Set(embeddedList(list, 'apps').map(idOf));
    },
    enabled: phase === 'authenticated' && text !== '',
    // While the next term is asked for, the matches of the last one stay (the rows do not blink).
    placeholderData: (previous) => previous,
  });
}
