import { deploymentImageLabel, shortSha } from '@berth/core';
import { Link, useParams } from 'react-router';
import { DenialBanner } from '../../../components/ui/denial-banner.tsx';
import { DetailList } from '../../../components/ui/detail-list.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { TabNav } from '../../../components/ui/tabs.tsx';
import { useApps } from '../../../features/apps/api/use-apps.ts';
import { useDeployment } from '../../../features/deployments/api/use-deployment.ts';
import { ConfigurationTable } from '../../../features/deployments/components/configuration-table.tsx';
import { DeploymentBadge } from '../../../features/deployments/components/deployment-badge.tsx';
import { OperationLogs } from '../../../features/operations/components/operation-logs.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { paths, to } from '../../../lib/paths.ts';
import { useActionDenials } from '../../../lib/use-action-denial.ts';
import { useConfiguration } from '../../../resources/configurations/use-configuration.ts';
import { useSensitiveEnvKeys } from '../../../resources/configurations/use-sensitive-env-keys.ts';
import { useOperation } from '../../../resources/operations/use-operation.ts';
import { PageNotFound } from '../../shell/page-not-found.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';

const TABS = ['logs', 'config'] as const;

function DeploymentLogs({ operationId }: { operationId: string }) {
  const operation = useOperation(operationId);
  return (
    <QueryState query={operation} loadingLabel="Loading the deployment's operation">
      {(data) => (
        <section aria-label="Logs" className="stack-gap">
          <p>
            Operation <Link to={to.operation(operationId)}>{operationId}</Link>
          </p>
          <OperationLogs operationId={operationId} status={data.status} />
        </section>
      )}
    </QueryState>
  );
}

function DeploymentConfig({
  appId,
  configurationId,
  denial,
}: {
  appId: string | null;
  configurationId: string | null;
  denial: string | null;
}) {
  const configuration = useConfiguration(configurationId, denial === null);
  // The app's sensitive variables (issue 41) stay hidden here too.
  const sensitiveKeys = useSensitiveEnvKeys(appId ?? '', denial === null && appId !== null);
  if (denial) return <DenialBanner denial={denial} />;
  if (!configurationId) return <ConfigurationTable env={{}} />;
  return (
    <QueryState query={configuration} loadingLabel="Loading configuration">
      {(env) =>
        appId === null ? (
          <ConfigurationTable env={env} />
        ) : (
          <QueryState query={sensitiveKeys} loadingLabel="Loading configuration">
            {(sensitive) => <ConfigurationTable env={env} sensitiveKeys={sensitive} />}
          </QueryState>
        )
      }
    </QueryState>
  );
}

/** spec 2 §2 /deployments/{id} with the logs (default) and config tabs. */
function DeploymentDetailRoute() {
  const { id = '', tab } = useParams();
  const { environments } = useConsoleContext();
  const denialOf = useActionDenials();
  const deployment = useDeployment(id);
  const apps = useApps();

  if (tab !== undefined && !(TABS as readonly string[]).includes(tab)) return <PageNotFound />;
  return (
    <QueryState
      query={deployment}
      loadingLabel="Loading deployment"
      errorHeader={<PageHeader title="Deployment" />}
      notFoundBack={{ label: 'Deployments', to: paths.deployments }}
    >
      {(data) => {
        const app = (apps.data ?? []).find((candidate) => candidate.id === data.appId);
        const environment = environments.find((candidate) => candidate.id === app?.environmentId);
        // spec 2 §7: GET /configurations/{id} needs read scope on the environment. Until the apps list names
        // the app's environment, the configuration is asked for and the server decides.
        const denial = app ? denialOf('deployment.configuration.read', app.environmentId) : null;

        return (
          <>
            <PageHeader
              title={`Deployment ${data.id}`}
              description={<DeploymentBadge status={data.status} />}
            />
            <DetailList
              label="Deployment details"
              items={[
                {
                  label: 'App',
                  value: app ? <Link to={to.app(app.id)}>{app.handle}</Link> : (data.appId ?? '-'),
                },
                { label: 'Environment', value: environment?.handle ?? '-' },
                { label: 'Git Ref', value: data.gitRef || '-' },
                {
                  label: 'Commit',
                  value: data.gitCommitSha
                    ? `${shortSha(data.gitCommitSha)} ${data.gitCommitMessage}`
                    : 'Not Provided',
                },
                { label: 'Docker Image', value: deploymentImageLabel(data.dockerImage) },
                { label: 'Created', value: formatDateTime(data.createdAt) },
              ]}
            />
            <TabNav
              label="Deployment tabs"
              tabs={[
                { label: 'Logs', to: to.deployment(id) },
                { label: 'Config', to: to.deployment(id, 'config') },
              ]}
            />
            {tab === 'config' ? (
              <DeploymentConfig appId={data.appId} configurationId={data.configurationId} denial={denial} />
            ) : data.operationId ? (
              <DeploymentLogs operationId={data.operationId} />
            ) : (
              <p>No data found</p>
            )}
          </>
        );
      }}
    </QueryState>
  );
}

export { DeploymentDetailRoute as Component };
