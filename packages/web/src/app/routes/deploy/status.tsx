import {
  GUIDED_DEPLOY_HEADINGS,
  type GuidedDeployState,
  guidedDeployState,
  isOperationFinished,
  isProjectDatabase,
  pendingDatabaseHandles,
  projectDeployDenial,
} from '@berth/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { CopyableText } from '../../../components/ui/copyable-text.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useCreateEndpoint } from '../../../features/endpoints/api/use-create-endpoint.ts';
import { useEndpoints } from '../../../features/endpoints/api/use-endpoints.ts';
import type { RedeploySource } from '../../../features/guided-deploy/api/project-deploy.ts';
import {
  type ProjectDeployProgress,
  useProjectDeployProgress,
} from '../../../features/guided-deploy/api/use-deploy-project.ts';
import { useRedeploy } from '../../../features/guided-deploy/api/use-redeploy.ts';
import { AppEndpointOffer } from '../../../features/guided-deploy/components/app-endpoint-offer.tsx';
import {
  DeployProgress,
  type DeployProgressStep,
} from '../../../features/guided-deploy/components/deploy-progress.tsx';
import { DeploySteps } from '../../../features/guided-deploy/components/deploy-steps.tsx';
import { NO_OPERATION_FILTERS } from '../../../features/operations/api/operation-filters.ts';
import { useOperations } from '../../../features/operations/api/use-operations.ts';
import { useAppServices } from '../../../features/services/api/use-app-services.ts';
import { useActor } from '../../../lib/actor.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import type { App } from '../../../resources/apps/app.hal.ts';
import { appKeys } from '../../../resources/apps/app-keys.ts';
import { useApp } from '../../../resources/apps/use-app.ts';
import { useConfiguration } from '../../../resources/configurations/use-configuration.ts';
import { useEnvironmentDatabases } from '../../../resources/databases/use-databases.ts';
import type { Operation } from '../../../resources/operations/operation.hal.ts';
import { useOperation } from '../../../resources/operations/use-operation.ts';
import { serviceKeys } from '../../../resources/services/service-keys.ts';
import { isSimulated, stackOfEnvironment } from '../../../resources/stacks/stack.hal.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

const DESCRIPTIONS: Record<GuidedDeployState, string> = {
  deploying: 'Deployment is in progress…',
  succeeded: 'All done! Deployment completed successfully.',
  failed: 'Don’t worry! Edit your configuration or push your code again to redeploy.',
};

/**
 * spec 3 §2 /apps/{id}/deploy/status, step 4: follows the deploy live (its configuration, databases and
 * the deploy itself) to one of the spec's three headings. Deployed: the app's endpoint, or the offer to
 * create one. Failed: the spec's advice and Redeploy.
 */
function StatusRoute() {
  const { id = '' } = useParams();
  const app = useApp(id);
  return (
    <QueryState query={app} loadingLabel="Loading app">
      {(current) => <StatusPage app={current} />}
    </QueryState>
  );
}

function StatusPage({ app }: { app: App }) {
  const queryClient = useQueryClient();
  const { environments, allStacks } = useConsoleContext();
  const environment = environments.find((item) => item.id === app.environmentId);
  const simulated = isSimulated(stackOfEnvironment(allStacks, environments, app.environmentId));
  const progress = useProjectDeployProgress(app.id);
  const operations = useOperations(`/apps/${encodeURIComponent(app.id)}/operations`, 1, NO_OPERATION_FILTERS);
  const listed = operations.data?.operations ?? [];
  // The app's last deploy when the first page of its operations holds none (many operations since).
  const listedDeploy = listed.find((operation) => operation.type === 'deploy') ?? app.lastDeployOperation;
  // The deploy this page follows every 3 s: the newest of the one just asked for and the listed one.
  const deployId =
    [progress.deployOperationId, listedDeploy?.id ?? null]
      .filter((candidate): candidate is string => candidate !== null)
      .sort((a, b) => Number(b) - Number(a))[0] ?? null;
  const deploy = useOperation(deployId);
  const preparationError = usePreparationError(progress, operations.isSuccess ? deployId : undefined);
  const canReadConfiguration = useActionDenial('app.configuration.read', app.environmentId) === null;
  const configuration = useConfiguration(app.currentConfigurationId, canReadConfiguration);
  const configurationEnv = canReadConfiguration ? configuration.data : undefined;
  const latestDeploy = deploy.data ?? listedDeploy;
  const configure = listed.find((operation) => operation.type === 'configure') ?? null;
  // The databases the guided deploy made are named after the app (core's projectDatabaseHandle).
  const environmentDatabases = useEnvironmentDatabases(app.environmentId);
  const databases = environmentDatabases.data?.filter((database) => isProjectDatabase(app.handle, database));
  const steps: DeployProgressStep[] = [
    ...(configure ? [{ name: 'Initial configuration', operation: configure }] : []),
    ...(databases ?? []).map((database) => ({
      name: `Database provision ${database.handle}`,
      operation: database.lastOperation,
    })),
    { name: 'App deployment', operation: latestDeploy },
  ];
  const state = guidedDeployState({
    deploy: latestDeploy,
    steps: steps.flatMap((step) =>
      step.operation && step.operation !== latestDeploy ? [step.operation] : [],
    ),
    preparing: progress.preparing,
    preparationFailed: preparationError !== null,
  });
  // A deploy that ended changed the app and its services: read them again for the endpoint offer.
  const ended = latestDeploy ? isOperationFinished(latestDeploy.status) : false;
  useEffect(() => {
    if (!ended) return;
    void queryClient.invalidateQueries({ queryKey: appKeys.detail(app.id) });
    void queryClient.invalidateQueries({ queryKey: serviceKeys.ofApp(app.id) });
  }, [ended, app.id, queryClient]);

  // An app with nothing deployed or being prepared has no deploy to follow: status detection sends it on
  // (to its git page), rather than a "Deploying" that never ends.
  const nothingStarted =
    !latestDeploy &&
    !progress.preparing &&
    progress.error === null &&
    progress.deployOperationId === null &&
    !configure &&
    databases?.length === 0;
  if (operations.isSuccess && nothingStarted) return <Navigate replace to={to.appGetStarted(app.id)} />;

  return (
    <>
      <PageHeader title={GUIDED_DEPLOY_HEADINGS[state]} description={DESCRIPTIONS[state]} />
      {/* The heading and the steps' pills change as the deploy goes on: the outcome is announced. */}
      <p className="visually-hidden" role="status">
        {state === 'deploying' ? '' : `${GUIDED_DEPLOY_HEADINGS[state]}. ${DESCRIPTIONS[state]}`}
      </p>
      <DeploySteps current={4} />
      <div className="section-stack guided-card">
        <section className="card card-body section-stack" aria-label={`Deploy of ${app.handle}`}>
          <h2 className="section-title">Progress</h2>
          <p>
            App <strong>{app.handle}</strong>
            {environment ? (
              <>
                {' '}
                in <Link to={to.environment(environment.id)}>{environment.handle}</Link>
              </>
            ) : null}
          </p>
          {preparationError ? <Banner variant="error">Error: {preparationError}</Banner> : null}
          <DeployProgress steps={steps} />
        </section>
        {state === 'succeeded' ? <EndpointSection app={app} /> : null}
        {state === 'failed' ? (
          <FailedAdvice
            app={app}
            lastDeploy={latestDeploy}
            waitsForDatabases={
              // Placeholders in the variables when the caller reads them; else the app's databases may be waited for.
              configurationEnv
                ? pendingDatabaseHandles(configurationEnv).length > 0
                : (databases?.length ?? 0) > 0
            }
            simulated={simulated}
          />
        ) : null}
        <section className="card card-body section-stack" aria-labelledby="changes-title">
          <h2 className="section-title" id="changes-title">
            How to deploy changes
          </h2>
          {simulated ? (
            <p>
              Deploy a git ref again from the <Link to={to.app(app.id)}>app’s page</Link>: this simulated
              stack builds no pushed code.
            </p>
          ) : (
            <>
              <p>Commit changes to your local git repository and push them to Berth’s git server.</p>
              <CopyableText text="git push berth main" label="the push command" />
            </>
          )}
          <div className="guided-actions">
            {environment ? (
              <ButtonLink to={to.environment(environment.id)} variant="secondary">
                View Environment
              </ButtonLink>
            ) : null}
            <ButtonLink to={to.appDeployConfigure(app.id)} variant="ghost">
              Edit Configuration
            </ButtonLink>
          </div>
        </section>
      </div>
    </>
  );
}

/**
 * The failure of this page's project deploy, until a deploy starts after it (Redeploy, or a push): that
 * deploy's outcome is then the page's. `newestDeployId` is undefined while the app's operations load; the
 * newest deploy listed once the failure is seen is the one it does not supersede.
 */
function usePreparationError(
  progress: ProjectDeployProgress,
  newestDeployId: string | null | undefined,
): string | null {
  const [seen, setSeen] = useState<{ attempt: number | null; deployId: string | null } | null>(null);
  if (progress.error === null || newestDeployId === undefined) return progress.error;
  if (seen?.attempt !== progress.submittedAt) {
    setSeen({ attempt: progress.submittedAt, deployId: newestDeployId });
    return progress.error;
  }
  return newestDeployId === seen.deployId ? progress.error : null;
}

function EndpointSection({ app }: { app: App }) {
  const endpoints = useEndpoints({ kind: 'app', id: app.id });
  const services = useAppServices(app.id);
  const create = useCreateEndpoint();
  const denial = useActionDenial('vhost.create', app.environmentId);
  let body: ReactNode;
  if (endpoints.error || services.error) {
    body = <Banner variant="error">Error: {messageOf(endpoints.error ?? services.error)}</Banner>;
  } else if (!endpoints.data || !services.data) {
    body = <p className="muted">Loading endpoints…</p>;
  } else {
    body = (
      <AppEndpointOffer
        appId={app.id}
        endpoints={endpoints.data}
        services={services.data}
        denial={denial}
        creating={create.isPending}
        error={
          create.error
            ? messageOf(create.error)
            : create.data?.provisionError
              ? `The endpoint was created, but its provision could not start: ${create.data.provisionError}`
              : null
        }
        onCreate={(serviceId) =>
          create.mutate({
            serviceId,
            body: {
              type: 'http',
              platform: 'alb',
              acme: false,
              default: true,
              internal: false,
              ip_whitelist: [],
            },
          })
        }
      />
    );
  }
  return <div className="card card-body">{body}</div>;
}

/** What Redeploy deploys again: the last deploy's image, or its git ref (main when it named none). */
function redeploySource(lastDeploy: Operation | null): RedeploySource {
  return lastDeploy?.dockerRef
    ? { dockerImage: lastDeploy.dockerRef }
    : { gitRef: lastDeploy?.gitRef ?? 'main' };
}

function FailedAdvice({
  app,
  lastDeploy,
  waitsForDatabases,
  simulated,
}: {
  app: App;
  lastDeploy: Operation | null;
  waitsForDatabases: boolean;
  simulated: boolean;
}) {
  const redeploy = useRedeploy(app.id);
  const denial = projectDeployDenial(useActor(), app.environmentId, waitsForDatabases);
  return (
    <section className="card card-body section-stack" aria-labelledby="failed-title">
      <h2 className="section-title" id="failed-title">
        Deployment Failed
      </h2>
      <ul>
        <li>
          Check the failed operation’s log, then{' '}
          <Link to={to.appDeployConfigure(app.id)}>edit the configuration</Link>
          {simulated ? ' or deploy again.' : ' or push your code again to redeploy.'}
        </li>
        <li>Or click Redeploy to try again without making any changes.</li>
      </ul>
      {redeploy.error ? <Banner variant="error">Error: {messageOf(redeploy.error)}</Banner> : null}
      <div>
        <ScopedButton
          denial={denial}
          loading={redeploy.isPending}
          onClick={() =>
            redeploy.mutate({
              environmentId: app.environmentId,
              source: redeploySource(lastDeploy),
              waitsForDatabases,
            })
          }
        >
          Redeploy
        </ScopedButton>
      </div>
    </section>
  );
}

export { StatusRoute as Component };
