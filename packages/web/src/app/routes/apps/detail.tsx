import { formatUsd } from '@berth/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { DenialBanner } from '../../../components/ui/denial-banner.tsx';
import { DetailList } from '../../../components/ui/detail-list.tsx';
import { InlinePanel } from '../../../components/ui/inline-panel.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { TabNav } from '../../../components/ui/tabs.tsx';
import { useAppDependencies } from '../../../features/apps/api/use-app-dependencies.ts';
import { useAppDeployments } from '../../../features/apps/api/use-app-deployments.ts';
import { useRenameApp } from '../../../features/apps/api/use-rename-app.ts';
import { useStartAppOperation } from '../../../features/apps/api/use-start-app-operation.ts';
import { AppDependenciesTable } from '../../../features/apps/components/app-dependencies-table.tsx';
import { AppDeploymentsTable } from '../../../features/apps/components/app-deployments-table.tsx';
import { AppSettings } from '../../../features/apps/components/app-settings.tsx';
import { ConfigurationEditor } from '../../../features/apps/components/configuration-editor.tsx';
import { DeployForm } from '../../../features/apps/components/deploy-form.tsx';
import { useCosts } from '../../../features/costs/api/use-costs.ts';
import { NO_OPERATION_FILTERS } from '../../../features/operations/api/operation-filters.ts';
import { useOperations } from '../../../features/operations/api/use-operations.ts';
import { ActivityTable } from '../../../features/operations/components/activity-table.tsx';
import { ResourceOperationBanner } from '../../../features/operations/components/resource-operation-banner.tsx';
import { useAppServices } from '../../../features/services/api/use-app-services.ts';
import { type ServiceRow, ServicesTable } from '../../../features/services/components/services-table.tsx';
import { useScalingLabels } from '../../../features/sizing/api/use-sizing.ts';
import { useSource } from '../../../features/sources/api/use-source.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { paths, to } from '../../../lib/paths.ts';
import { useActionDenial, useActionDenials } from '../../../lib/use-action-denial.ts';
import { type App, deploymentType } from '../../../resources/apps/app.hal.ts';
import { appKeys } from '../../../resources/apps/app-keys.ts';
import { useApp } from '../../../resources/apps/use-app.ts';
import { useConfiguration } from '../../../resources/configurations/use-configuration.ts';
import { useMarkSensitiveEnvKeys } from '../../../resources/configurations/use-mark-sensitive-env-keys.ts';
import { useSensitiveEnvKeys } from '../../../resources/configurations/use-sensitive-env-keys.ts';
import type { Deployment } from '../../../resources/deployments/deployment.hal.ts';
import { deploymentKeys } from '../../../resources/deployments/deployment-keys.ts';
import { operationKeys } from '../../../resources/operations/operation-keys.ts';
import { OperationProgress } from '../../../resources/operations/operation-progress.tsx';
import { useRestartAction } from '../../../resources/operations/restart-action.tsx';
import { serviceKeys } from '../../../resources/services/service-keys.ts';
import { sourceName } from '../../../resources/sources/source.hal.ts';
import { SimulatedNotice } from '../../../resources/stacks/simulated-notice.tsx';
import { isSimulated, stackOfEnvironment } from '../../../resources/stacks/stack.hal.ts';
import { PageNotFound } from '../../shell/page-not-found.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';
import { AppEndpointsTab } from '../endpoints/lazy-tabs.tsx';
import { OperationResourceLink } from '../operations/operation-resource-link.tsx';
import { CiCdTab } from './ci-cd-tab.tsx';

const TABS = [
  'services',
  'deployments',
  'endpoints',
  'activity',
  'config',
  'deps',
  'ci-cd',
  'settings',
] as const;
type Tab = (typeof TABS)[number];

const TAB_LABELS: Record<Tab, string> = {
  services: 'Services',
  deployments: 'Deployments',
  endpoints: 'Endpoints',
  activity: 'Activity',
  config: 'Configuration',
  deps: 'Dependencies',
  'ci-cd': 'CI/CD',
  settings: 'Settings',
};

/** spec 2 §2 /apps/{id} with its tabs; the tab is the last path segment. */
function AppDetailRoute() {
  const { id = '', tab } = useParams();
  const navigate = useNavigate();
  const { environments, allStacks } = useConsoleContext();
  const denialOf = useActionDenials();
  const app = useApp(id);
  const deployDenial = useActionDenial('app.deploy', app.data?.environmentId);
  const deployments = useAppDeployments(id);
  const [deploying, setDeploying] = useState(false);
  const deploy = useStartAppOperation(id);
  // spec 2 §4 resource banner: the latest operation on the app or its services.
  const latest = useOperations(`/apps/${id}/operations?with_services=true`, 1, NO_OPERATION_FILTERS);
  // The details name the app's source, not its id (loaded once the app says which source it is).
  const source = useSource(app.data?.currentSourceId ?? '');
  // An app that was here and is gone (deprovisioned, from this tab or elsewhere) leaves for the list:
  // its page would only say it is not found, and a refetch can beat the deprovision's own redirect.
  const vanished = app.data !== undefined && app.isError && isApiError(app.error) && app.error.status === 404;
  const refresh = useRefreshAfterOperation();
  const queryClient = useQueryClient();
  // Issue 41: Restart in the header, on every tab (it was at the foot of Settings).
  const restart = useRestartAction({
    label: 'Restart App',
    confirmLabel: 'Confirm restart of the app',
    warning: 'Every container of its services stops and starts again; requests may fail meanwhile.',
    denial: useActionDenial('app.restart', app.data?.environmentId),
    start: () => deploy.mutateAsync({ type: 'restart' }),
    onFinished: () => {
      refresh();
      void queryClient.invalidateQueries({ queryKey: operationKeys.lists() });
    },
  });
  useEffect(() => {
    if (!vanished) return;
    // The lists still hold the app: they are fetched again, so the list opened next no longer shows it.
    refresh();
    navigate(paths.apps, { replace: true });
  }, [vanished, navigate, refresh]);

  return (
    <QueryState query={app} loadingLabel="Loading app" notFoundBack={{ label: 'Apps', to: paths.apps }}>
      {(current) => {
        const environment = environments.find((item) => item.id === current.environmentId);
        // spec 2 §2: Dependencies only with read scope on the environment, as the server's edges need.
        const canRead = denialOf('edge.read', current.environmentId) === null;
        const visibleTabs = TABS.filter((item) => item !== 'deps' || canRead);
        const active: Tab | null =
          tab === undefined ? 'services' : (visibleTabs.find((item) => item === tab) ?? null);
        // An unknown sub-path (`/apps/1/git`) is Page Not Found, as everywhere in the shell.
        if (active === null) return <PageNotFound />;
        const deployment = deployments.data?.find((item) => item.id === current.currentDeploymentId) ?? null;

        return (
          <>
            <PageHeader
              title={current.handle}
              description={
                environment ? (
                  <>
                    App in <Link to={to.environment(environment.id)}>{environment.handle}</Link>
                  </>
                ) : undefined
              }
              actions={
                <>
                  {restart.button}
                  <ScopedButton
                    denial={deployDenial}
                    onClick={() => setDeploying((open) => !open)}
                    aria-expanded={deploying}
                  >
                    Deploy
                  </ScopedButton>
                </>
              }
            />
            {restart.status}
            {isSimulated(stackOfEnvironment(allStacks, environments, current.environmentId)) ? (
              <SimulatedNotice subject="app" />
            ) : null}
            <ResourceOperationBanner operations={latest.data?.operations ?? []} />
            {deploying ? (
              <InlinePanel className="section-block" onClose={() => setDeploying(false)}>
                <DeployForm
                  denial={deployDenial}
                  onDeploy={async (gitRef) => {
                    const operation = await deploy.mutateAsync({ type: 'deploy', git_ref: gitRef });
                    navigate(to.operation(operation.id));
                  }}
                />
              </InlinePanel>
            ) : null}
            <AppDetails
              app={current}
              deployment={deployment}
              sourceLabel={source.data ? sourceName(source.data) : source.isError ? 'Unknown' : 'Loading…'}
            />
            <TabNav
              label="App tabs"
              tabs={visibleTabs.map((item) => ({
                label: TAB_LABELS[item],
                to: item === 'services' ? to.app(id) : to.app(id, item),
              }))}
            />
            <AppTab
              tab={active}
              app={current}
              deployments={deployments.data ?? []}
              deploymentsLoading={deployments.isPending}
              deploymentsError={deployments.error}
            />
          </>
        );
      }}
    </QueryState>
  );
}

function AppDetails({
  app,
  deployment,
  sourceLabel,
}: {
  app: App;
  deployment: Deployment | null;
  /** The source's name (spec 3 §3: 'Unknown' when it has none or cannot be read). */
  sourceLabel: string;
}) {
  const type = deploymentType(app);
  const cost = useAppCostParts(app.id);
  return (
    <DetailList
      label="App details"
      items={[
        { label: 'ID', value: app.id },
        { label: 'Git Ref', value: deployment?.gitRef || app.currentImage?.gitRef || 'Not used' },
        // A simulated stack's app has no remote (issue 35): the page's notice says why.
        ...(type === 'Git Push'
          ? [{ label: 'Git Remote', value: app.gitRepo ? <code>{app.gitRepo}</code> : '—' }]
          : []),
        { label: 'Deployment Type', value: type },
        {
          label: 'Source',
          value: app.currentSourceId ? (
            <Link to={to.source(app.currentSourceId)}>{sourceLabel}</Link>
          ) : (
            'None'
          ),
        },
        { label: 'Commit Message', value: deployment?.gitCommitMessage || 'Not Provided' },
        { label: 'Created', value: formatDateTime(app.createdAt) },
        {
          label: 'Docker Image',
          value: deployment ? deployment.dockerImage || 'Dockerfile Build' : 'Unknown',
        },
        { label: 'Last Deployed', value: deployment ? formatDateTime(deployment.updatedAt) : 'Never' },
        {
          label: 'Est. Monthly Cost',
          value: cost ? (
            <>
              {formatUsd(cost.total)}{' '}
              <span className="muted">
                (containers {formatUsd(cost.containers)}, endpoints and the rest {formatUsd(cost.rest)})
              </span>
            </>
          ) : (
            '…'
          ),
        },
      ]}
    />
  );
}

/**
 * Issue 20: an app's estimate by part. The total is the app's cost (costs/apps); its containers are its
 * services' costs (costs/services); the rest is what the app pays beyond them (its endpoints).
 */
function useAppCostParts(appId: string): { total: number; containers: number; rest: number } | null {
  const { organization } = useConsoleContext();
  const apps = useCosts(organization?.id ?? null, 'apps');
  const services = useCosts(organization?.id ?? null, 'services');
  const appServices = useAppServices(appId);
  if (!apps.data || !services.data || !appServices.data) return null;
  const total = apps.data.get(appId) ?? 0;
  const containers = appServices.data.reduce((sum, service) => sum + (services.data.get(service.id) ?? 0), 0);
  return { total, containers, rest: Math.max(0, total - containers) };
}

function AppTab({
  tab,
  app,
  deployments,
  deploymentsLoading,
  deploymentsError,
}: {
  tab: Tab;
  app: App;
  deployments: Deployment[];
  deploymentsLoading: boolean;
  deploymentsError: Error | null;
}): ReactNode {
  switch (tab) {
    case 'services':
      return <ServicesTab app={app} />;
    case 'deployments':
      return (
        <AppDeploymentsTable
          deployments={deployments}
          isLoading={deploymentsLoading}
          error={deploymentsError}
        />
      );
    case 'endpoints':
      return <AppEndpointsTab appId={app.id} environmentId={app.environmentId} />;
    case 'activity':
      return <ActivityTab appId={app.id} />;
    case 'config':
      return <ConfigurationTab app={app} />;
    case 'deps':
      return <DependenciesTab appId={app.id} />;
    case 'ci-cd':
      return <CiCdTab app={app} />;
    case 'settings':
      return <SettingsTab app={app} />;
  }
}

function ServicesTab({ app }: { app: App }) {
  const { organization } = useConsoleContext();
  const services = useAppServices(app.id);
  const costs = useCosts(organization?.id ?? null, 'services');
  const scalingLabel = useScalingLabels();
  const rows = useMemo<ServiceRow[]>(
    () =>
      (services.data ?? []).map((service) => ({
        service,
        envHandle: '',
        resourceHandle: app.handle,
        cost: costs.data?.get(service.id) ?? 0,
        scaling: scalingLabel(service),
      })),
    [services.data, costs.data, app.handle, scalingLabel],
  );
  return <ServicesTable variant="app" rows={rows} isLoading={services.isPending} error={services.error} />;
}

function DependenciesTab({ appId }: { appId: string }) {
  const dependencies = useAppDependencies(appId);
  return (
    <div className="section-stack">
      <p className="muted">
        Found from the app's configuration: a variable holding a database's connection URL, or a host name of
        another app's endpoint, in the same environment.
      </p>
      <AppDependenciesTable
        rows={dependencies.data ?? []}
        isLoading={dependencies.isPending}
        error={dependencies.error}
      />
    </div>
  );
}

function ActivityTab({ appId }: { appId: string }) {
  return (
    <ActivityTable
      listPath={`/apps/${appId}/operations?with_services=true`}
      resourceLink={(operation) => <OperationResourceLink operation={operation} />}
      resourceTypes={['app', 'service']}
      label={`Activity of app ${appId}`}
    />
  );
}

/** Refreshes what an ended operation changed (the app, its services, its configuration). */
function useRefreshAfterOperation() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: appKeys.all });
    void queryClient.invalidateQueries({ queryKey: deploymentKeys.all });
    void queryClient.invalidateQueries({ queryKey: serviceKeys.all });
  }, [queryClient]);
}

function ConfigurationTab({ app }: { app: App }) {
  const readDenial = useActionDenial('app.configuration.read', app.environmentId);
  const configureDenial = useActionDenial('app.configure', app.environmentId);
  const configuration = useConfiguration(app.currentConfigurationId, readDenial === null);
  const sensitiveKeys = useSensitiveEnvKeys(app.id, readDenial === null);
  const markSensitive = useMarkSensitiveEnvKeys(app.id);
  const configure = useStartAppOperation(app.id);
  const refresh = useRefreshAfterOperation();
  const [operationId, setOperationId] = useState<string | null>(null);

  let body: ReactNode;
  if (readDenial) body = <DenialBanner denial={readDenial} />;
  else {
    body = (
      <QueryState query={configuration} loadingLabel="Loading configuration">
        {(current) => (
          <QueryState query={sensitiveKeys} loadingLabel="Loading configuration">
            {(sensitive) => (
              <ConfigurationEditor
                key={app.currentConfigurationId ?? 'none'}
                current={current}
                sensitiveKeys={sensitive}
                denial={configureDenial}
                onSave={async (env, marks) => {
                  // Marked first: a failed configure leaves a name marked, never a sensitive value shown.
                  if (marks.length > 0) await markSensitive.mutateAsync(marks);
                  if (Object.keys(env).length === 0) return;
                  const operation = await configure.mutateAsync({ type: 'configure', env });
                  setOperationId(operation.id);
                }}
              />
            )}
          </QueryState>
        )}
      </QueryState>
    );
  }
  return (
    <div className="section-stack">
      {operationId ? (
        <OperationProgress operationId={operationId} type="configure" onFinished={refresh} />
      ) : null}
      <div className="card card-body">{body}</div>
    </div>
  );
}

function SettingsTab({ app }: { app: App }) {
  const denialOf = useActionDenials();
  const navigate = useNavigate();
  const rename = useRenameApp(app.id);
  const start = useStartAppOperation(app.id);
  const refresh = useRefreshAfterOperation();
  const [operation, setOperation] = useState<{ id: string; type: string } | null>(null);

  return (
    <div className="section-stack">
      {operation ? (
        <OperationProgress
          operationId={operation.id}
          type={operation.type}
          onFinished={(status) => {
            // spec 2 §4: deprovisioning waits for the operation, then the app is gone.
            if (operation.type === 'deprovision' && status === 'succeeded') navigate(paths.apps);
            refresh();
          }}
        />
      ) : null}
      <AppSettings
        handle={app.handle}
        denials={{
          rename: denialOf('app.rename', app.environmentId),
          deprovision: denialOf('app.deprovision', app.environmentId),
        }}
        onRename={(handle) => rename.mutateAsync(handle)}
        onDeprovision={async () => {
          const started = await start.mutateAsync({ type: 'deprovision' });
          setOperation({ id: started.id, type: 'deprovision' });
        }}
      />
    </div>
  );
}

export { AppDetailRoute as Component };
