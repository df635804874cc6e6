import { type AppResource, MAX_PAGE_SIZE } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { allPages } from '../../../lib/all-pages.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromAppResource } from '../../../resources/apps/app.hal.ts';
import { environmentKeys } from './environment-keys.ts';

/** contract §5.7 GET /accounts/:id/apps: the environment's apps with their services embedded. */
export function useEnvironmentApps(id: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: environmentKeys.apps(id),
    queryFn: async ({ signal }) => {
      return (
        await allPages<AppResource>(
          'api',
          `/accounts/${encodeURIComponent(id)}/apps?per_page=${MAX_PAGE_SIZE}`,
          'apps',
          signal,
        )
      ).map(fromAppResource);
    },
    enabled: phase === 'authenticated' && id !== '',
  });
}
