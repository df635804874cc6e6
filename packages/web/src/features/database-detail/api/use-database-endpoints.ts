import { POLL_INTERVAL_MS, type VhostCollection } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromVhostResource } from '../../../resources/endpoints/endpoint.hal.ts';

/**
 * spec 2 §2 database Endpoints tab: GET /databases/:id/vhosts (contract §5.9). A server without that
 * path (404) still lists them through the database's service, GET /services/:serviceId/vhosts. Polled
 * every 5 s like every endpoint list a screen shows (spec 2 §7). The key sits under the endpoint lists'
 * root (`['endpoints', 'list', …]`) so what refreshes endpoint lists refreshes this one too.
 */
export function useDatabaseEndpoints(databaseId: string, serviceId: string | null) {
  const { phase } = useSession();
  const path = `/databases/${encodeURIComponent(databaseId)}/vhosts`;
  return useQuery({
    queryKey: ['endpoints', 'list', path, serviceId ?? ''],
    queryFn: async ({ signal }) => {
      let list: VhostCollection;
      try {
        list = await apiRequest<VhostCollection>('api', path, { signal });
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404) || !serviceId) throw error;
        list = await apiRequest<VhostCollection>('api', `/services/${encodeURIComponent(serviceId)}/vhosts`, {
          signal,
        });
      }
      return embeddedList(list, 'vhosts').map(fromVhostResource);
    },
    enabled: phase === 'authenticated' && databaseId !== '',
    refetchInterval: POLL_INTERVAL_MS.endpoint,
    refetchIntervalInBackground: false,
  });
}
