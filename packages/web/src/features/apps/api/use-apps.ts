import type { AppCollection } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { startupPaths } from '../../../lib/startup-paths.ts';
import { fromAppResource } from '../../../resources/apps/app.hal.ts';
import { appKeys } from '../../../resources/apps/app-keys.ts';

/** contract §5.7 GET /apps?per_page=5000&no_embed=true: every app the caller can read. */
export function useApps() {
  const { phase } = useSession();
  return useQuery({
    queryKey: appKeys.list(),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<AppCollection>('api', startupPaths.apps, { signal });
      return embeddedList(list, 'apps').map(fromAppResource);
    },
    enabled: phase === 'authenticated',
  });
}
