import {
  formatEnvText,
  pendingDatabaseHandles,
  projectDeployDenial,
  SCAN_BRANCH,
  starterTemplate,
} from '@berth/core';
import type { ReactNode } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { DenialBanner } from '../../../components/ui/denial-banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { templateDatabases, templateVariables } from '../../../features/guided-deploy/api/template-draft.ts';
import { useCodeScanResult } from '../../../features/guided-deploy/api/use-code-scan-result.ts';
import { useDeployProject } from '../../../features/guided-deploy/api/use-deploy-project.ts';
import { useDraftInputs } from '../../../features/guided-deploy/api/use-draft-inputs.ts';
import { CodeScanSummary } from '../../../features/guided-deploy/components/code-scan-summary.tsx';
import { ConfigureForm } from '../../../features/guided-deploy/components/configure-form.tsx';
import { DeploySteps } from '../../../features/guided-deploy/components/deploy-steps.tsx';
import { NO_OPERATION_FILTERS } from '../../../features/operations/api/operation-filters.ts';
import { useOperations } from '../../../features/operations/api/use-operations.ts';
import { useActor } from '../../../lib/actor.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import type { App } from '../../../resources/apps/app.hal.ts';
import { useApp } from '../../../resources/apps/use-app.ts';
import { useSensitiveEnvKeys } from '../../../resources/configurations/use-sensitive-env-keys.ts';
import type { Operation } from '../../../resources/operations/operation.hal.ts';
import { isSimulated, stackOfEnvironment } from '../../../resources/stacks/stack.hal.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 3 §2 /apps/{id}/deploy/configure, step 3 "Configure App": the code scan (git-push deploys only),
 * the databases and environment variables (a `.env` file pasted in), then Save & Deploy, which runs the
 * project deploy (spec 3 §4) and opens the Deploying page.
 */
function ConfigureRoute() {
  const { id = '' } = useParams();
  const app = useApp(id);
  return (
    <>
      <PageHeader
        title="Configure your App"
        description="Add the databases it needs and review its settings."
      />
      <DeploySteps current={3} />
      <QueryState query={app} loadingLabel="Loading app">
        {(current) => <ConfigurePage app={current} />}
      </QueryState>
    </>
  );
}

function ConfigurePage({ app }: { app: App }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { environments, allStacks } = useConsoleContext();
  const stack = stackOfEnvironment(allStacks, environments, app.environmentId);
  const runtime = stack?.runtime ?? '';
  const actor = useActor();
  const readDenial = useActionDenial('app.configuration.read', app.environmentId);
  const inputs = useDraftInputs(app, readDenial === null);
  const sensitiveKeys = useSensitiveEnvKeys(app.id, readDenial === null);
  const operations = useOperations(`/apps/${encodeURIComponent(app.id)}/operations`, 1, NO_OPERATION_FILTERS);
  const scan = latestScan(operations.data?.operations ?? []);
  const deploy = useDeployProject(app.id);
  const template = starterTemplate(params.get('template'));
  const gitRef = params.get('git_ref') || scan?.gitRef || (isSimulated(stack) ? 'main' : SCAN_BRANCH);

  let form: ReactNode;
  const loadError = inputs.error ?? sensitiveKeys.error;
  if (loadError) form = <Banner variant="error">Error: {messageOf(loadError)}</Banner>;
  else if (inputs.loading || (readDenial === null && sensitiveKeys.isPending))
    form = <Spinner label="Loading the app's settings" />;
  else {
    // Issue 41: a sensitive value is never put in the page again. Its variable stays out of the text
    // and out of what the deploy compares with, so saving leaves it as it is on the server.
    const sensitive = new Set(sensitiveKeys.data ?? []);
    const lockedKeys = Object.keys(inputs.currentEnv)
      .filter((key) => sensitive.has(key) && inputs.currentEnv[key] !== null)
      .sort();
    const visibleEnv = Object.fromEntries(
      Object.entries(inputs.currentEnv).filter(([key]) => !sensitive.has(key)),
    );
    const current = Object.fromEntries(Object.entries(visibleEnv).sort(([a], [b]) => a.localeCompare(b)));
    const added = Object.fromEntries(
      templateVariables(template, inputs.currentEnv).map((item) => [item.key, item.value]),
    );
    const waiting = pendingDatabaseHandles(inputs.currentEnv);
    form = (
      <>
        {readDenial ? <DenialBanner denial={readDenial} /> : null}
        {lockedKeys.length ? (
          <Banner variant="info" title="Sensitive variables">
            {lockedKeys.join(', ')} {lockedKeys.length === 1 ? 'is' : 'are'} sensitive: not shown here, and
            kept as they are. Replace or remove them in the app's Configuration.
          </Banner>
        ) : null}
        {waiting.length ? (
          <Banner variant="warning" title="Databases in your App's config">
            Its variables still wait for {waiting.join(', ')}: Save &amp; Deploy puts their connection URLs
            in. Be sure you did not already create the databases you add below.
          </Banner>
        ) : null}
        <ConfigureForm
          appHandle={app.handle}
          images={inputs.images}
          existingDatabaseHandles={inputs.existingDatabaseHandles}
          initialDatabases={templateDatabases(template, runtime, inputs.images)}
          initialVariables={formatEnvText({ ...current, ...added })}
          denial={(waitsForDatabases) => projectDeployDenial(actor, app.environmentId, waitsForDatabases)}
          pending={deploy.isPending}
          onSubmit={({ databases, variables }) => {
            deploy.mutate({
              appId: app.id,
              environmentId: app.environmentId,
              databases,
              variables,
              currentEnv: visibleEnv,
              gitRef,
            });
            navigate(to.appDeployStatus(app.id));
          }}
        />
      </>
    );
  }

  return (
    <div className="card card-body section-stack guided-card">
      <p>
        Deploys <code>{gitRef}</code> of <strong>{app.handle}</strong>.{' '}
        <Link to={to.appGit(app.id, { template: template?.id })}>Back to your code</Link>
      </p>
      {isSimulated(stack) ? (
        <Banner variant="info" title="No code scan">
          The code scan is only available for git-push deployments: this simulated stack reads no code.
        </Banner>
      ) : (
        <ScanResult scan={scan} loading={operations.isPending} gitRef={gitRef} appId={app.id} />
      )}
      {form}
    </div>
  );
}

/** The newest successful code scan of the app. */
function latestScan(operations: readonly Operation[]): Operation | null {
  return (
    operations.find((operation) => operation.type === 'scan_code' && operation.status === 'succeeded') ?? null
  );
}

function ScanResult({
  scan,
  loading,
  gitRef,
  appId,
}: {
  scan: Operation | null;
  loading: boolean;
  gitRef: string;
  appId: string;
}) {
  const result = useCodeScanResult(scan?.codeScanResultId ?? null);
  if (loading || (scan?.codeScanResultId && result.isPending))
    return <Spinner label="Loading code scan results" />;
  if (result.error) return <Banner variant="error">Error: {messageOf(result.error)}</Banner>;
  if (!scan || !result.data) {
    return (
      <Banner variant="info" title="No code scan yet">
        Push your code and scan it on the <Link to={to.appGit(appId)}>previous step</Link> to see what Berth
        finds in it.
      </Banner>
    );
  }
  return <CodeScanSummary result={result.data} gitRef={scan.gitRef ?? gitRef} />;
}

export { ConfigureRoute as Component };
