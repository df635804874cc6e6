import { idFromHref, type SourceCollection } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromSourceResource } from '../../../resources/sources/source.hal.ts';
import { sourceKeys } from './source-keys.ts';

/** contract §5.7 GET /sources (no paging params: the whole list), across the caller's organizations. */
export function useSources() {
  const { phase } = useSession();
  return useQuery({
    queryKey: sourceKeys.list(),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<SourceCollection>('api', '/sources', { signal });
      return embeddedList(list, 'sources').map((source) => ({
        source: fromSourceResource(source),
        organizationId: idFromHref(source._links.organization?.href),
      }));
    },
    enabled: phase === 'authenticated',
  });
}
