import { MAX_PAGE_SIZE } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList, type HalCollection } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { type AppHal, fromAppHal } from './app.hal.ts';
import { appKeys } from './app-keys.ts';

/** contract §5.7 GET /apps?per_page=5000&no_embed=true: every app the caller can read. */
export function useApps() {
  const { phase } = useSession();
  return useQuery({
    queryKey: appKeys.list(),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<HalCollection<AppHal>>(
        'api',
        `/apps?per_page=${MAX_PAGE_SIZE}&no_embed=true`,
        { signal },
      );
      return embeddedList(list, 'apps').map(fromAppHal);
    },
    enabled: phase === 'authenticated',
  });
}
