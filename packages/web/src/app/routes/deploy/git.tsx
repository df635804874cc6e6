import {
  CUSTOM_CODE,
  pendingDatabaseHandles,
  projectDeployDenial,
  SCAN_BRANCH,
  starterTemplate,
} from '@berth/core';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { templateDeployDraft } from '../../../features/guided-deploy/api/template-draft.ts';
import { useDeployProject } from '../../../features/guided-deploy/api/use-deploy-project.ts';
import { useDraftInputs } from '../../../features/guided-deploy/api/use-draft-inputs.ts';
import { useScanCode } from '../../../features/guided-deploy/api/use-scan-code.ts';
import { DeploySteps } from '../../../features/guided-deploy/components/deploy-steps.tsx';
import { GitPushSteps } from '../../../features/guided-deploy/components/git-push-steps.tsx';
import { TemplatePicker } from '../../../features/guided-deploy/components/template-picker.tsx';
import { useActor } from '../../../lib/actor.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import type { App } from '../../../resources/apps/app.hal.ts';
import { useApp } from '../../../resources/apps/use-app.ts';
import { OperationProgress } from '../../../resources/operations/operation-progress.tsx';
import { SimulatedNotice } from '../../../resources/stacks/simulated-notice.tsx';
import { type Stack, stackOfEnvironment } from '../../../resources/stacks/stack.hal.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 3 §2 /apps/{id}/git, step 2: custom code or a starter template, and the way the code gets to
 * Berth. On a `docker` stack: the app's git remote and the push to the scan branch, then the code scan,
 * which leads to Configure. On `sim`, where nothing is pushed: a Deploy button that runs the (simulated)
 * deploy at once, or Configure first.
 */
function GitRoute() {
  const { id = '' } = useParams();
  const { environments, allStacks } = useConsoleContext();
  const app = useApp(id);
  return (
    <QueryState query={app} loadingLabel="Loading app">
      {(current) => {
        const stack = stackOfEnvironment(allStacks, environments, current.environmentId);
        return <GitPage app={current} stack={stack} />;
      }}
    </QueryState>
  );
}

function GitPage({ app, stack }: { app: App; stack: Stack | null }) {
  const [params, setParams] = useSearchParams();
  const runtime = stack?.runtime ?? '';
  const template = params.get('template') ?? CUSTOM_CODE;
  const simulated = runtime === 'sim';
  return (
    <>
      <PageHeader
        title={simulated ? 'Deploy your Code' : 'Push your code to Berth'}
        description={
          simulated
            ? 'Pick custom code or a starter template; this stack simulates the deploy.'
            : 'Berth reads your Dockerfile, builds it and runs it.'
        }
      />
      <DeploySteps current={2} />
      {simulated ? <SimulatedNotice subject="app" /> : null}
      <div className="card card-body section-stack guided-card">
        <TemplatePicker
          value={template}
          runtime={runtime}
          onChange={(value) => setParams(value === CUSTOM_CODE ? {} : { template: value }, { replace: true })}
        />
        {simulated ? (
          <SimulatedDeploy app={app} runtime={runtime} template={template} />
        ) : app.gitRepo ? (
          <PushAndScan app={app} template={template} remote={app.gitRepo} />
        ) : (
          <Banner variant="info" title="No git remote">
            This app’s stack builds no pushed code ({stack?.name ?? 'unknown stack'}).
          </Banner>
        )}
      </div>
    </>
  );
}

/** Docker stacks: push to the scan branch, then scan it; a successful scan opens Configure. */
function PushAndScan({ app, template, remote }: { app: App; template: string; remote: string }) {
  const navigate = useNavigate();
  const scanDenial = useActionDenial('app.scan_code', app.environmentId);
  const scan = useScanCode(app.id);
  const [gitRef, setGitRef] = useState(SCAN_BRANCH);
  const [scanning, setScanning] = useState<{ id: string; gitRef: string } | null>(null);
  const [failed, setFailed] = useState(false);
  const lastDeploy = app.lastDeployOperation;
  return (
    <section className="section-stack" aria-labelledby="push-title">
      <h2 className="section-title" id="push-title">
        Push your code
      </h2>
      <GitPushSteps remote={remote} />
      {lastDeploy ? (
        <Banner variant="info" title={`A deploy of ${lastDeploy.gitRef ?? 'an image'} was detected`}>
          A push to main deploys at once, without the scan: follow it on the{' '}
          <Link to={to.appDeployStatus(app.id)}>Deploying page</Link>, or push to {SCAN_BRANCH} to scan and
          configure first.
        </Banner>
      ) : null}
      <form
        className="form"
        aria-label="Scan your code"
        onSubmit={async (event) => {
          event.preventDefault();
          if (scanDenial !== null || !gitRef.trim()) return;
          setFailed(false);
          try {
            const operation = await scan.mutateAsync(gitRef.trim());
            setScanning({ id: operation.id, gitRef: gitRef.trim() });
          } catch {
            // The refusal shows in the form (scan.error).
          }
        }}
      >
        <TextField
          label="Pushed branch"
          value={gitRef}
          autoComplete="off"
          spellCheck={false}
          maxLength={255}
          hint="The branch you pushed the code to."
          onChange={(event) => setGitRef(event.target.value)}
        />
        {scan.error ? <Banner variant="error">{messageOf(scan.error)}</Banner> : null}
        <div className="submit-row">
          <ScopedButton type="submit" denial={scanDenial} loading={scan.isPending} disabled={!gitRef.trim()}>
            Scan Code
          </ScopedButton>
        </div>
      </form>
      {scanning ? (
        <OperationProgress
          operationId={scanning.id}
          type="scan_code"
          onFinished={(status) => {
            if (status === 'succeeded') {
              navigate(
                to.appDeployConfigure(app.id, {
                  gitRef: scanning.gitRef,
                  template: starterTemplate(template)?.id,
                }),
              );
            } else setFailed(true);
          }}
        />
      ) : (
        <Banner variant="info">Waiting on your git push to continue…</Banner>
      )}
      {failed ? (
        <Banner variant="error" title="The scan failed">
          Its log says why: often the branch was not pushed yet. Push it, then scan again.
        </Banner>
      ) : null}
    </section>
  );
}

/** Sim stacks: nothing to push; deploy the ref (with the template's databases and variables) at once. */
function SimulatedDeploy({ app, runtime, template }: { app: App; runtime: string; template: string }) {
  const navigate = useNavigate();
  const actor = useActor();
  const readDenial = useActionDenial('app.configuration.read', app.environmentId);
  const inputs = useDraftInputs(app, readDenial === null);
  const deploy = useDeployProject(app.id);
  const chosen = starterTemplate(template);
  // The template's databases, or placeholders left in the app's variables, need their connection URLs.
  const waitsForDatabases =
    (chosen?.databases.length ?? 0) > 0 || pendingDatabaseHandles(inputs.currentEnv).length > 0;
  const deployDenial = projectDeployDenial(actor, app.environmentId, waitsForDatabases);
  const [gitRef, setGitRef] = useState('main');
  const ref = chosen ? 'main' : gitRef.trim();

  let problem: ReactNode = null;
  if (inputs.error) problem = <Banner variant="error">Error: {messageOf(inputs.error)}</Banner>;
  return (
    <form
      className="form"
      aria-label="Deploy your code"
      onSubmit={(event) => {
        event.preventDefault();
        if (deployDenial !== null || inputs.loading || !ref) return;
        deploy.mutate(
          templateDeployDraft({
            app,
            template: chosen,
            runtime,
            images: inputs.images,
            existingDatabaseHandles: inputs.existingDatabaseHandles,
            currentEnv: inputs.currentEnv,
            gitRef: ref,
          }),
        );
        navigate(to.appDeployStatus(app.id));
      }}
    >
      {chosen ? null : (
        <TextField
          label="Git Ref"
          value={gitRef}
          autoComplete="off"
          spellCheck={false}
          maxLength={255}
          hint="The branch, tag or commit the simulated deploy builds."
          onChange={(event) => setGitRef(event.target.value)}
        />
      )}
      {problem}
      <div className="submit-row">
        <ScopedButton type="submit" denial={deployDenial} loading={inputs.loading} disabled={!ref}>
          Deploy
        </ScopedButton>
        <ButtonLink
          variant="secondary"
          to={to.appDeployConfigure(app.id, { gitRef: ref || 'main', template: chosen?.id })}
        >
          Configure first
        </ButtonLink>
      </div>
    </form>
  );
}

export { GitRoute as Component };
