import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useAppSearch } from '../../../features/apps/api/use-app-search.ts';
import { useApps } from '../../../features/apps/api/use-apps.ts';
import { type AppRow, AppsTable } from '../../../features/apps/components/apps-table.tsx';
import { useCosts } from '../../../features/costs/api/use-costs.ts';
import { useDeployments } from '../../../features/deployments/api/use-deployments.ts';
import { useFailureDetail } from '../../../features/operations/components/use-failure-detail.tsx';
import { useServices } from '../../../features/services/api/use-services.ts';
import { paths, to } from '../../../lib/paths.ts';
import { icons } from '../../shell/icons.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';

/** spec 2 §2 /apps: the organization's apps with Handle, ID, Environment, Services and cost. */
function AppsRoute() {
  const { organization, environments } = useConsoleContext();
  const apps = useApps();
  // The rows first: the server answers side by side, so the lists that only fill columns (services,
  // cost, commit) are asked for once the apps are in, and do not hold the rows back.
  const rowsIn = apps.data !== undefined;
  const services = useServices({ enabled: rowsIn });
  const costs = useCosts(organization?.id ?? null, 'apps', { enabled: rowsIn });
  const deployments = useDeployments({ enabled: rowsIn });
  // The list is fetched bare (no_embed) so 5000 apps stay light; what only the embeds hold (git ref,
  // image, last operation) is searched by the server, once per debounced term.
  const [params] = useSearchParams();
  const found = useAppSearch(params.get('search') ?? '');
  // Issue 41: why an app's last operation failed, from one list for the organization (not a call per row).
  const failureDetail = useFailureDetail(rowsIn ? (organization?.id ?? null) : null, 'app');

  const rows = useMemo<AppRow[]>(() => {
    const handles = new Map(environments.map((environment) => [environment.id, environment.handle]));
    const commits = new Map(
      (deployments.data ?? []).map((deployment) => [deployment.id, deployment.gitCommitSha]),
    );
    const serviceCounts = new Map<string, number>();
    for (const service of services.data ?? []) {
      if (service.appId) serviceCounts.set(service.appId, (serviceCounts.get(service.appId) ?? 0) + 1);
    }
    // Only the selected organization's apps: those whose environment belongs to it.
    return (apps.data ?? [])
      .filter((app) => handles.has(app.environmentId))
      .map((app) => ({
        id: app.id,
        handle: app.handle,
        envHandle: handles.get(app.environmentId) ?? 'Unknown',
        // A placeholder only while the column's list is on its way (a failed or absent one reads 0).
        totalServices: services.isLoading ? null : (serviceCounts.get(app.id) ?? 0),
        cost: costs.isLoading ? null : (costs.data?.get(app.id) ?? 0),
        commitSha: app.currentDeploymentId ? (commits.get(app.currentDeploymentId) ?? '') : '',
        status: app.status,
        createdAt: app.createdAt,
      }));
  }, [
    apps.data,
    services.data,
    services.isLoading,
    costs.data,
    costs.isLoading,
    deployments.data,
    environments,
  ]);

  // spec 3 §2: New App goes to the create flow of a known environment, else to the chooser.
  const onlyEnvironment = environments.length === 1 ? environments[0] : undefined;
  const newAppPath = onlyEnvironment ? to.createApp(onlyEnvironment.id) : paths.selectEnvironment;

  return (
    <>
      <PageHeader
        title="Apps"
        description={organization ? `Apps of ${organization.name}` : undefined}
        actions={
          organization ? (
            <ButtonLink to={newAppPath} icon={icons.plus}>
              New App
            </ButtonLink>
          ) : null
        }
      />
      {!organization ? <Banner variant="warning">Choose or create an organization first.</Banner> : null}
      <AppsTable
        rows={rows}
        isLoading={apps.isPending}
        error={apps.error}
        serverMatches={found.data}
        failureDetail={failureDetail}
      />
    </>
  );
}

export { AppsRoute as Component };
