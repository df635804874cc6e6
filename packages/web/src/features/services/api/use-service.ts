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

/** What a service belongs to: its app or its database (`_links.app`, `_links.database`). */
export interface ServiceOwner {
  appId: string | null;
  databaseId: string | null;
}

/**
 * The app or database a service belongs to, for links to the service's page (under its app) or its
 * database's. It shares the service's cache entry and never goes stale: a service does not move.
 */
export function useServiceOwner(id: string | null): ServiceOwner | null {
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
  return query.data ? { appId: query.data.appId, databaseId: query.data.databaseId } : null;
}

/** The app a service belongs to (see useServiceOwner). */
export function useServiceAppId(id: string | null): string | null {
  return useServiceOwner(id)?.appId ?? null;
}
