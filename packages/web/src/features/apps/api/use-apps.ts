import type { AppResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { allPages } from '../../../lib/all-pages.ts';
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
      return (await allPages<AppResource>('api', startupPaths.apps, 'apps', signal)).map(fromAppResource);
    },
    enabled: phase === 'authenticated',
  });
}
