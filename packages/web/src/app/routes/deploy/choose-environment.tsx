import { type ReactNode, useId } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { DeploySteps } from '../../../features/guided-deploy/components/deploy-steps.tsx';
import { to } from '../../../lib/paths.ts';
import { useActionDenials } from '../../../lib/use-action-denial.ts';
import { defaultStack } from '../../../resources/stacks/stack.hal.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/** The environment choice that makes a new one, named on the next page. */
const NEW_ENVIRONMENT = 'new';

/**
 * spec 3 §2 /deploy?stack_id: "Choose your Environment" of the guided deploy, where the sidebar's
 * Deploy button leads. A stack picker and an environment picker (or a new environment on the stack)
 * with Next; the choice lives in the query (stack_id, environment_id).
 */
function ChooseEnvironmentRoute() {
  const navigate = useNavigate();
  const formId = useId();
  const denialOf = useActionDenials();
  const [params, setParams] = useSearchParams();
  const { stacks, allStacks, environments, resources } = useConsoleContext();

  let body: ReactNode;
  if (resources.status === 'error') {
    body = <Banner variant="error">Error: {resources.message}</Banner>;
  } else if (resources.status !== 'success') {
    body = <Spinner label="Loading environments" />;
  } else {
    // The stacks the organization may use, and any other its environments run on.
    const offered = allStacks.filter(
      (stack) => stacks.includes(stack) || environments.some((item) => item.stackId === stack.id),
    );
    const requestedEnvironment = environments.find((item) => item.id === params.get('environment_id'));
    const stack =
      offered.find((item) => item.id === params.get('stack_id')) ??
      offered.find((item) => item.id === requestedEnvironment?.stackId) ??
      defaultStack(stacks) ??
      offered[0];
    const onStack = environments.filter((environment) => environment.stackId === stack?.id);
    const chosen =
      params.get('environment_id') === NEW_ENVIRONMENT
        ? NEW_ENVIRONMENT
        : (onStack.find((item) => item.id === requestedEnvironment?.id)?.id ??
          onStack[0]?.id ??
          NEW_ENVIRONMENT);
    const denial =
      chosen === NEW_ENVIRONMENT ? denialOf('environment.create') : denialOf('app.create', chosen);
    const choose = (changes: Record<string, string>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) next.set(key, value);
          return next;
        },
        { replace: true },
      );

    body = (
      <div className="card form-card guided-card">
        <form
          id={formId}
          className="card-body form"
          aria-label="Choose your Environment"
          onSubmit={(event) => {
            event.preventDefault();
            if (denial !== null || !stack) return;
            navigate(
              chosen === NEW_ENVIRONMENT
                ? to.createDeployments({ stackId: stack.id })
                : to.createDeployments({ environmentId: chosen }),
            );
          }}
        >
          <FormField label="Stack">
            {(control) => (
              <select
                className="select"
                {...control}
                value={stack?.id ?? ''}
                onChange={(event) => {
                  const first = environments.find((item) => item.stackId === event.target.value);
                  choose({ stack_id: event.target.value, environment_id: first?.id ?? NEW_ENVIRONMENT });
                }}
              >
                {offered.map((item) => (
                  <option key={item.id} value={item.id}>
                    {item.region ? `${item.name} (${item.region})` : item.name}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField
            label="Environment"
            hint="An environment holds your app and its databases; a new one is named on the next step."
          >
            {(control) => (
              <select
                className="select"
                {...control}
                value={chosen}
                onChange={(event) => choose({ environment_id: event.target.value })}
              >
                {onStack.map((item) => (
                  <option key={item.id} value={item.id}>
                    {item.handle}
                  </option>
                ))}
                <option value={NEW_ENVIRONMENT}>New environment</option>
              </select>
            )}
          </FormField>
          <ScopedButton type="submit" size="lg" block denial={denial} disabled={!stack}>
            Next
          </ScopedButton>
        </form>
      </div>
    );
  }

  return (
    <>
      <PageHeader title="Choose your Environment" description="Deploy an app: pick where it runs." />
      <DeploySteps current={1} />
      {body}
    </>
  );
}

export { ChooseEnvironmentRoute as Component };
