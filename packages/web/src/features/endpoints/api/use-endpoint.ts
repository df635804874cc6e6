import { POLL_INTERVAL_MS, type VhostResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromVhostResource } from '../../../resources/endpoints/endpoint.hal.ts';
import { endpointKeys } from './endpoint-keys.ts';

/** contract §5.9 GET /vhosts/:id, polled every 5 s while the page is visible (spec 2 §7). */
export function useEndpoint(id: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: endpointKeys.detail(id),
    queryFn: async ({ signal }) =>
      fromVhostResource(
        await apiRequest<VhostResource>('api', `/vhosts/${encodeURIComponent(id)}`, { signal }),
      ),
    enabled: phase === 'authenticated' && id !== '',
    refetchInterval: POLL_INTERVAL_MS.endpoint,
    refetchIntervalInBackground: false,
  });
}
