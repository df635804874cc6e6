import { formatUsd } from '@berth/core';
import { type ReactNode, useCallback, useMemo } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { DetailList } from '../../../components/ui/detail-list.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ScopedButtonLink } from '../../../components/ui/permission-button.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { type TabLink, TabNav } from '../../../components/ui/tabs.tsx';
import { EnvironmentBackups } from '../../../features/backups/components/environment-backups.tsx';
import { useCosts } from '../../../features/costs/api/use-costs.ts';
import { databaseRows } from '../../../features/databases/components/database-rows.ts';
import { DatabasesTable } from '../../../features/databases/components/databases-table.tsx';
import { useDeprovisionEnvironment } from '../../../features/environments/api/use-deprovision-environment.ts';
import { useEnvironment } from '../../../features/environments/api/use-environment.ts';
import { useEnvironmentApps } from '../../../features/environments/api/use-environment-apps.ts';
import { useRenameEnvironment } from '../../../features/environments/api/use-rename-environment.ts';
import { DeprovisionEnvironment } from '../../../features/environments/components/deprovision-environment.tsx';
import { EnvironmentAppsTable } from '../../../features/environments/components/environment-apps-table.tsx';
import { RenameEnvironmentForm } from '../../../features/environments/components/rename-environment-form.tsx';
import { ActivityTable } from '../../../features/operations/components/activity-table.tsx';
import { useFailureDetail } from '../../../features/operations/components/use-failure-detail.tsx';
import { useServices } from '../../../features/services/api/use-services.ts';
import { useScalingLabels } from '../../../features/sizing/api/use-sizing.ts';
import { paths, to } from '../../../lib/paths.ts';
import { useActionDenial, useActionDenials } from '../../../lib/use-action-denial.ts';
import { settlingPoll, useEnvironmentDatabases } from '../../../resources/databases/use-databases.ts';
import type { EnvironmentDetail } from '../../../resources/environments/environment.hal.ts';
import { icons } from '../../shell/icons.tsx';
import { PageNotFound } from '../../shell/page-not-found.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';
import {
  EnvironmentCertificatesTab,
  EnvironmentEndpointsSummary,
  EnvironmentEndpointsTab,
  EnvironmentIntegrationsTab,
} from '../endpoints/lazy-tabs.tsx';
import { OperationResourceLink } from '../operations/operation-resource-link.tsx';
import { EnvironmentActivityReportsTab, EnvironmentSecurityTab } from '../security/lazy-tabs.tsx';

/** spec 2 §2: the tabs of /environments/{id}, in the order the page shows them. */
const TABS = [
  ['apps', 'Apps'],
  ['databases', 'Databases'],
  ['endpoints', 'Endpoints'],
  ['certificates', 'Certificates'],
  ['backups', 'Backups'],
  ['integrations', 'Integrations'],
  ['security', 'Security'],
  ['activity', 'Activity'],
  ['activity_reports', 'Activity Reports'],
  ['settings', 'Settings'],
] as const;
type EnvironmentTab = (typeof TABS)[number][0];

function isEnvironmentTab(value: string): value is EnvironmentTab {
  return TABS.some(([tab]) => tab === value);
}

const appHref = (id: string) => to.app(id);

function EnvironmentDetailRoute() {
  const { id = '', tab } = useParams();
  const location = useLocation();
  const environment = useEnvironment(id);

  // The apps tab is the default: /environments/{id} shows it under its own URL.
  if (!tab) return <Navigate replace to={`${to.environment(id, 'apps')}${location.search}`} />;
  return (
    <QueryState
      query={environment}
      loadingLabel="Loading environment"
      errorHeader={<PageHeader title="Environment" />}
      notFoundBack={{ label: 'Environments', to: paths.environments }}
    >
      {(data) => <EnvironmentPage environment={data} tab={tab} />}
    </QueryState>
  );
}

function EnvironmentPage({ environment, tab }: { environment: EnvironmentDetail; tab: string }) {
  const { organization, allStacks } = useConsoleContext();
  const costs = useCosts(organization?.id ?? null, 'accounts');
  const stack = allStacks.find((item) => item.id === environment.stackId);
  const current = isEnvironmentTab(tab) ? tab : null;
  if (current === null) return <PageNotFound />;
  const tabs: TabLink[] = TABS.map(([key, label]) => ({ label, to: to.environment(environment.id, key) }));

  let body: ReactNode;
  switch (current) {
    case 'apps':
      body = <AppsTab environment={environment} />;
      break;
    case 'databases':
      body = <DatabasesTab environment={environment} />;
      break;
    case 'activity':
      body = <ActivityTab environmentId={environment.id} />;
      break;
    case 'endpoints':
      body = <EnvironmentEndpointsTab environmentId={environment.id} />;
      break;
    case 'certificates':
      body = <EnvironmentCertificatesTab environmentId={environment.id} />;
      break;
    case 'integrations':
      body = <EnvironmentIntegrationsTab environmentId={environment.id} />;
      break;
    case 'settings':
      body = <SettingsTab environment={environment} />;
      break;
    case 'backups':
      body = <EnvironmentBackups environmentId={environment.id} environmentType={environment.type} />;
      break;
    case 'security':
      body = <EnvironmentSecurityTab environmentId={environment.id} />;
      break;
    case 'activity_reports':
      body = <EnvironmentActivityReportsTab environmentId={environment.id} />;
      break;
  }

  const cost = costs.data?.get(environment.id) ?? 0;
  return (
    <>
      <PageHeader
        title={environment.handle}
        description={environment.type === 'production' ? 'Production environment' : 'Development environment'}
      />
      <DetailList
        label="Environment details"
        items={[
          { label: 'ID', value: <code>{environment.id}</code> },
          {
            label: 'Databases',
            value: `${environment.databaseCount} (${environment.databaseContainerCount} ${
              environment.databaseContainerCount === 1 ? 'container' : 'containers'
            }, ${environment.diskGb} GB disk)`,
          },
          {
            label: 'Stack',
            value: stack ? (
              <Link to={to.stack(stack.id)}>{stack.name}</Link>
            ) : (
              (environment.stackId ?? 'Unknown')
            ),
          },
          { label: 'Backups', value: `${environment.backupGb} GB` },
          {
            label: 'Apps',
            value: `${environment.appCount} (${environment.appContainerCount} ${
              environment.appContainerCount === 1 ? 'container' : 'containers'
            })`,
          },
          {
            label: 'Endpoints',
            value: (
              <EnvironmentEndpointsSummary environmentId={environment.id} count={environment.domainCount} />
            ),
          },
          { label: 'Est. Monthly Cost', value: costs.data ? formatUsd(cost) : '…' },
        ]}
      />
      <TabNav label="Environment sections" tabs={tabs} />
      {body}
    </>
  );
}

function AppsTab({ environment }: { environment: EnvironmentDetail }) {
  const { organization } = useConsoleContext();
  const apps = useEnvironmentApps(environment.id);
  const costs = useCosts(organization?.id ?? null, 'apps');
  const href = useCallback(appHref, []);
  const denial = useActionDenial('app.create', environment.id);
  // The organization's failures list, shared (one query) with the Apps list; after the rows, as there.
  const failureDetail = useFailureDetail(apps.data ? (organization?.id ?? null) : null, 'app');
  return (
    <EnvironmentAppsTable
      failureDetail={failureDetail}
      apps={apps.data ?? []}
      appHref={href}
      environmentHandle={environment.handle}
      costs={costs.data}
      isLoading={apps.isPending}
      error={apps.error}
      toolbar={
        <ScopedButtonLink size="sm" denial={denial} to={to.createApp(environment.id)} icon={icons.plus}>
          New App
        </ScopedButtonLink>
      }
    />
  );
}

/** spec 2 §2: the database list scoped to the environment (its list embeds the disks). */
function DatabasesTab({ environment }: { environment: EnvironmentDetail }) {
  const { organization } = useConsoleContext();
  const databases = useEnvironmentDatabases(environment.id);
  const services = useServices({ pollMs: settlingPoll(databases.data) });
  const costs = useCosts(organization?.id ?? null, 'databases');
  const scalingLabel = useScalingLabels();
  const denial = useActionDenial('database.create', environment.id);
  // As on the Apps tab: the failures list after the rows.
  const failureDetail = useFailureDetail(databases.data ? (organization?.id ?? null) : null, 'database');
  const rows = useMemo(
    () =>
      databaseRows(databases.data ?? [], {
        envHandles: new Map([[environment.id, environment.handle]]),
        services: services.data,
        costs: costs.data,
        scalingLabel,
      }),
    [databases.data, environment.id, environment.handle, services.data, costs.data, scalingLabel],
  );
  return (
    <DatabasesTable
      failureDetail={failureDetail}
      rows={rows}
      isLoading={databases.isPending}
      error={databases.error}
      toolbar={
        <ScopedButtonLink size="sm" denial={denial} to={to.createDatabase(environment.id)} icon={icons.plus}>
          New Database
        </ScopedButtonLink>
      }
    />
  );
}

function ActivityTab({ environmentId }: { environmentId: string }) {
  return (
    <ActivityTable
      listPath={`/accounts/${environmentId}/operations`}
      resourceLink={(operation) => <OperationResourceLink operation={operation} />}
      label={`Activity of environment ${environmentId}`}
    />
  );
}

function SettingsTab({ environment }: { environment: EnvironmentDetail }) {
  const denialOf = useActionDenials();
  const navigate = useNavigate();
  const rename = useRenameEnvironment(environment.id);
  const deprovision = useDeprovisionEnvironment(environment.id);
  return (
    <div className="section-stack">
      <RenameEnvironmentForm
        currentHandle={environment.handle}
        denial={denialOf('environment.rename', environment.id)}
        onRename={(handle) => rename.mutateAsync(handle)}
      />
      <DeprovisionEnvironment
        handle={environment.handle}
        denial={denialOf('environment.delete', environment.id)}
        onDeprovision={async () => {
          await deprovision.mutateAsync();
          navigate(paths.environments, { replace: true });
        }}
      />
    </div>
  );
}

export { EnvironmentDetailRoute as Component };
