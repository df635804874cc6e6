import { useMemo } from 'react';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useApps } from '../../../features/apps/api/use-apps.ts';
import { useCosts } from '../../../features/costs/api/use-costs.ts';
import { useServices } from '../../../features/services/api/use-services.ts';
import { type ServiceRow, ServicesTable } from '../../../features/services/components/services-table.tsx';
import { useScalingLabels } from '../../../features/sizing/api/use-sizing.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/** spec 2 §2 /services: the global services table of the selected organization. */
function ServicesRoute() {
  const { organization, environments } = useConsoleContext();
  const services = useServices();
  const apps = useApps();
  const costs = useCosts(organization?.id ?? null, 'services');
  const scalingLabel = useScalingLabels();

  const rows = useMemo<ServiceRow[]>(() => {
    const handles = new Map(environments.map((environment) => [environment.id, environment.handle]));
    const appHandles = new Map((apps.data ?? []).map((app) => [app.id, app.handle]));
    return (services.data ?? [])
      .filter((service) => handles.has(service.environmentId))
      .map((service) => ({
        service,
        envHandle: handles.get(service.environmentId) ?? 'Unknown',
        // spec 3 §3: the app handle, or 'Unknown'.
        resourceHandle: (service.appId && appHandles.get(service.appId)) || 'Unknown',
        cost: costs.data?.get(service.id) ?? 0,
        scaling: scalingLabel(service),
      }));
  }, [services.data, apps.data, costs.data, environments, scalingLabel]);

  return (
    <>
      <PageHeader
        title="Services"
        description={organization ? `Services of ${organization.name}` : undefined}
      />
      <ServicesTable rows={rows} isLoading={services.isPending} error={services.error} />
    </>
  );
}

export { ServicesRoute as Component };
