import type { ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCreateApp } from '../../../features/apps/api/use-create-app.ts';
import { CreateAppForm } from '../../../features/apps/components/create-app-form.tsx';
import { useCreateProject } from '../../../features/guided-deploy/api/use-create-project.ts';
import { DeploySteps } from '../../../features/guided-deploy/components/deploy-steps.tsx';
import { NameProjectForm } from '../../../features/guided-deploy/components/name-project-form.tsx';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { defaultStack } from '../../../resources/stacks/stack.hal.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 3 §2 /create/deployments, the guided deploy's step 1. With `environment_id`: "Name your App" in
 * that environment (stack and environment read-only). Without: "Name your Environment" on a stack
 * (`stack_id`, else the default), whose name the environment and its first app take (spec 3 §4 Project
 * creation). Either way the app's get-started page comes next.
 */
function CreateDeploymentsRoute() {
  const [params] = useSearchParams();
  const environmentId = params.get('environment_id');
  return environmentId ? <NameApp environmentId={environmentId} /> : <NameEnvironment />;
}

function NameApp({ environmentId }: { environmentId: string }) {
  const navigate = useNavigate();
  const { environments, allStacks, resources } = useConsoleContext();
  const create = useCreateApp();
  const denial = useActionDenial('app.create', environmentId);
  const environment = environments.find((item) => item.id === environmentId);

  let body: ReactNode;
  if (resources.status === 'error') body = <Banner variant="error">Error: {resources.message}</Banner>;
  else if (resources.status !== 'success') body = <Spinner label="Loading environments" />;
  else if (!environment) body = <Banner variant="error">Environment {environmentId} was not found.</Banner>;
  else {
    const stack = allStacks.find((item) => item.id === environment.stackId);
    body = (
      <div className="card form-card guided-card">
        <div className="card-body">
          <CreateAppForm
            stackName={stack?.name ?? 'Unknown'}
            environmentHandle={environment.handle}
            denial={denial}
            onSubmit={async (handle) => {
              const app = await create.mutateAsync({ environmentId: environment.id, handle });
              navigate(to.appGetStarted(app.id));
            }}
          />
        </div>
      </div>
    );
  }
  return (
    <>
      <PageHeader title="Name your App" description="An app runs your code as one or more services." />
      <DeploySteps current={1} />
      {body}
    </>
  );
}

function NameEnvironment() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { organization, stacks, environments, resources } = useConsoleContext();
  const create = useCreateProject();
  const denial = useActionDenial('environment.create');

  let body: ReactNode;
  if (resources.status === 'error') body = <Banner variant="error">Error: {resources.message}</Banner>;
  else if (resources.status !== 'success' || !organization) body = <Spinner label="Loading stacks" />;
  else {
    const requested = stacks.find((stack) => stack.id === params.get('stack_id'));
    body = (
      <div className="card form-card guided-card">
        <div className="card-body">
          <NameProjectForm
            stacks={stacks.map((stack) => ({
              id: stack.id,
              label: stack.region ? `${stack.name} (${stack.region})` : stack.name,
            }))}
            defaultStackId={requested?.id ?? defaultStack(stacks)?.id ?? stacks[0]?.id ?? ''}
            denial={denial}
            onSubmit={async ({ stackId, name }) => {
              const app = await create.mutateAsync({
                organizationId: organization.id,
                stackId,
                dedicatedStack: stacks.find((stack) => stack.id === stackId)?.kind === 'dedicated',
                name,
                environments,
              });
              navigate(to.appGetStarted(app.id));
            }}
          />
        </div>
      </div>
    );
  }
  return (
    <>
      <PageHeader
        title="Name your Environment"
        description="An environment holds your app along with the databases it needs."
      />
      <DeploySteps current={1} />
      {body}
    </>
  );
}

export { CreateDeploymentsRoute as Component };
