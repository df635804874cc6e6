import { useMemo } from 'react';
import { useApps } from '../../../features/apps/api/use-apps.ts';
import type { EndpointRow } from '../../../features/endpoints/components/endpoints-table.tsx';
import { useServices } from '../../../features/services/api/use-services.ts';
import { to } from '../../../lib/paths.ts';
import type { Endpoint } from '../../../resources/endpoints/endpoint.hal.ts';

/**
 * Joins endpoints with the start-up lists (services and apps, contract §7) so a row can name its
 * resource and service. `environmentIds`, when given, keeps only endpoints of those environments
 * (the top-level `/vhosts` answers every organization of the caller, contract §1.11).
 */
export function useEndpointRows(
  endpoints: readonly Endpoint[] | undefined,
  environmentIds?: ReadonlySet<string>,
): EndpointRow[] {
  const services = useServices();
  const apps = useApps();
  return useMemo(() => {
    const serviceById = new Map((services.data ?? []).map((service) => [service.id, service]));
    const appById = new Map((apps.data ?? []).map((app) => [app.id, app]));
    const rows: EndpointRow[] = [];
    for (const endpoint of endpoints ?? []) {
      const service = endpoint.serviceId ? serviceById.get(endpoint.serviceId) : undefined;
      const environmentId = endpoint.environmentId ?? service?.environmentId ?? null;
      if (environmentIds && (!environmentId || !environmentIds.has(environmentId))) continue;
      const appId = service?.appId ?? (endpoint.resourceType === 'app' ? endpoint.resourceId : null);
      const databaseId =
        service?.databaseId ?? (endpoint.resourceType === 'database' ? endpoint.resourceId : null);
      const resourceHandle =
        endpoint.resourceHandle || (appId ? appById.get(appId)?.handle : undefined) || 'Unknown';
      rows.push({
        endpoint,
        href: to.endpoint(endpoint.id),
        setupHref: to.endpoint(endpoint.id, 'setup'),
        resourceHandle,
        resourceHref: appId ? to.app(appId) : databaseId ? to.database(databaseId) : null,
        serviceLabel: service ? service.handle || service.processType : (endpoint.serviceId ?? 'Unknown'),
        serviceHref: appId && endpoint.serviceId ? to.service(appId, endpoint.serviceId) : null,
      });
    }
    return rows;
  }, [endpoints, environmentIds, services.data, apps.data]);
}
