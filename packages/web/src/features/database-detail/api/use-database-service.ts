import type { ServiceResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromServiceResource } from '../../../resources/services/service.hal.ts';
import { serviceKeys } from '../../../resources/services/service-keys.ts';

/**
 * contract §5.7 GET /services/:id for the database's service: its container size and profile (Memory
 * Limit, CPU Share, Profile, the scale form) and its containers (the metrics). Shares the service cache.
 */
export function useDatabaseService(serviceId: string | null) {
  const { phase } = useSession();
  return useQuery({
    queryKey: serviceKeys.detail(serviceId ?? ''),
    queryFn: async ({ signal }) =>
      fromServiceResource(
        await apiRequest<ServiceResource>('api', `/services/${encodeURIComponent(serviceId ?? '')}`, {
          signal,
        }),
      ),
    enabled: phase === 'authenticated' && Boolean(serviceId),
  });
}
