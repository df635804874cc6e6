import { useMemo } from 'react';
import { useParams } from 'react-router';
import { DetailList } from '../../../components/ui/detail-list.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { TabNav } from '../../../components/ui/tabs.tsx';
import { useApps } from '../../../features/apps/api/use-apps.ts';
import { useDeployments } from '../../../features/deployments/api/use-deployments.ts';
import { useSourceDeployments } from '../../../features/deployments/api/use-source-deployments.ts';
import { DeploymentsTable } from '../../../features/deployments/components/deployments-table.tsx';
import { useSource } from '../../../features/sources/api/use-source.ts';
import { CommitDots } from '../../../features/sources/components/commit-dots.tsx';
import {
  type SourceAppRow,
  SourceAppsTable,
} from '../../../features/sources/components/source-apps-table.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { paths, to } from '../../../lib/paths.ts';
import { sourceName } from '../../../resources/sources/source.hal.ts';
import { PageNotFound } from '../../shell/page-not-found.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';

const TABS = ['apps', 'deployments'] as const;

/** spec 2 §2 /sources/{id}: ID, Name, Created, Repository URL, Last Deployed; tabs Apps and Deployments. */
function SourceDetailRoute() {
  const { id = '', tab } = useParams();
  const { environments } = useConsoleContext();
  const source = useSource(id);
  const apps = useApps();
  const allDeployments = useDeployments();
  const sourceDeployments = useSourceDeployments(id);

  const environmentHandles = useMemo(
    () => new Map(environments.map((environment) => [environment.id, environment.handle])),
    [environments],
  );
  const appRows = useMemo<SourceAppRow[]>(() => {
    const deploymentById = new Map(
      (allDeployments.data ?? []).map((deployment) => [deployment.id, deployment]),
    );
    return (apps.data ?? [])
      .filter((app) => app.currentSourceId === id)
      .map((app) => {
        const current = app.currentDeploymentId ? deploymentById.get(app.currentDeploymentId) : undefined;
        return {
          id: app.id,
          handle: app.handle,
          gitRef: current?.gitRef ?? '',
          gitCommitSha: current?.gitCommitSha ?? '',
          gitCommitMessage: current?.gitCommitMessage ?? '',
          dockerImage: current?.dockerImage ?? '',
          lastDeployed: current?.createdAt ?? '',
        };
      });
  }, [apps.data, allDeployments.data, id]);
  const deploymentRows = useMemo(() => {
    const appById = new Map((apps.data ?? []).map((app) => [app.id, app]));
    return (sourceDeployments.data ?? []).map((deployment) => {
      const app = deployment.appId ? appById.get(deployment.appId) : undefined;
      return {
        deployment,
        appHandle: app?.handle ?? deployment.appId ?? 'Unknown',
        environmentHandle: (app && environmentHandles.get(app.environmentId)) || 'Unknown',
      };
    });
  }, [sourceDeployments.data, apps.data, environmentHandles]);

  if (tab !== undefined && !(TABS as readonly string[]).includes(tab)) return <PageNotFound />;
  return (
    <QueryState
      query={source}
      loadingLabel="Loading source"
      errorHeader={<PageHeader title="Source" />}
      notFoundBack={{ label: 'Sources', to: paths.sources }}
    >
      {(data) => {
        const lastDeployed = (sourceDeployments.data ?? []).reduce(
          (latest, deployment) => (deployment.createdAt > latest ? deployment.createdAt : latest),
          '',
        );
        return (
          <>
            <PageHeader title={sourceName(data)} description={<CommitDots commits={data.liveCommits} />} />
            <DetailList
              label="Source details"
              items={[
                { label: 'ID', value: data.id },
                { label: 'Name', value: sourceName(data) },
                { label: 'Created', value: formatDateTime(data.createdAt) },
                { label: 'Repository URL', value: data.url || '-' },
                { label: 'Last Deployed', value: lastDeployed ? formatDateTime(lastDeployed) : '-' },
              ]}
            />
            <TabNav
              label="Source tabs"
              tabs={[
                { label: 'Apps', to: to.source(id) },
                { label: 'Deployments', to: to.source(id, 'deployments') },
              ]}
            />
            {tab === 'deployments' ? (
              <DeploymentsTable
                rows={deploymentRows}
                isLoading={sourceDeployments.isPending || apps.isPending}
                error={sourceDeployments.error ?? apps.error}
              />
            ) : (
              <SourceAppsTable
                apps={appRows}
                isLoading={apps.isPending || allDeployments.isPending}
                error={apps.error ?? allDeployments.error}
              />
            )}
          </>
        );
      }}
    </QueryState>
  );
}

export { SourceDetailRoute as Component };
