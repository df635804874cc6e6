import type { ServiceResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromServiceResource } from '../../../resources/services/service.hal.ts';
import { serviceKeys } from '../../../resources/services/service-keys.ts';

/** contract §5.7 GET /services/:id. */
export function useService(id: string) {
  return useQuery({
    queryKey: serviceKeys.detail(id),
    queryFn: async ({ signal }) =>
      fromServiceResource(
        await apiRequest<ServiceResource>('api', `/services/${encodeURIComponent(id)}`, { signal }),
      ),
  });
}

/**
 * The app a service belongs to (its `_links.app`), for links to the service page. It shares the
 * service's cache entry and never goes stale: a service does not move between apps.
 */
export function useServiceAppId(id: string | null): string | null {
  const query = useQuery({
    queryKey: serviceKeys.detail(id ?? ''),
    queryFn: async ({ signal }) =>
      fromServiceResource(
        await apiRequest<ServiceResource>('api', `/services/${encodeURIComponent(id ?? '')}`, { signal }),
      ),
    enabled: Boolean(id),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return query.data?.appId ?? null;
}
