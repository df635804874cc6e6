import { emptyStateMessages } from '@berth/core';
import { type ReactNode, useId } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { CreateEnvironmentButton } from '../../../features/environments/components/create-environment-button.tsx';
import { paths, to } from '../../../lib/paths.ts';
import { defaultStack } from '../../../resources/stacks/stack.hal.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 3 §2 "Choose your Environment": a stack picker and an environment picker with Next, which goes
 * on to /create/app?environment_id. The choice lives in the query (stack_id, environment_id).
 */
function SelectEnvironmentRoute() {
  const navigate = useNavigate();
  const formId = useId();
  const [params, setParams] = useSearchParams();
  const { stacks, allStacks, environments, resources } = useConsoleContext();

  let body: ReactNode;
  if (resources.status === 'error') {
    body = <Banner variant="error">Error: {resources.message}</Banner>;
  } else if (resources.status !== 'success') {
    body = <Spinner label="Loading environments" />;
  } else if (environments.length === 0) {
    body = (
      <EmptyState
        title={emptyStateMessages.noEnvironments}
        description="Create an environment first, then an app in it."
        action={<CreateEnvironmentButton to={paths.createEnvironment} />}
      />
    );
  } else {
    // Stacks that hold at least one of the organization's environments.
    const withEnvironments = allStacks.filter((stack) =>
      environments.some((environment) => environment.stackId === stack.id),
    );
    const requestedStack = withEnvironments.find((stack) => stack.id === params.get('stack_id'));
    const requestedEnvironment = environments.find((item) => item.id === params.get('environment_id'));
    const stack =
      requestedStack ??
      withEnvironments.find((item) => item.id === requestedEnvironment?.stackId) ??
      defaultStack(withEnvironments.filter((item) => stacks.includes(item))) ??
      withEnvironments[0];
    const onStack = environments.filter((environment) => environment.stackId === stack?.id);
    const environment = onStack.find((item) => item.id === requestedEnvironment?.id) ?? onStack[0];

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
      <div className="card form-card">
        <form
          id={formId}
          className="card-body form"
          onSubmit={(event) => {
            event.preventDefault();
            if (environment) navigate(to.createApp(environment.id));
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
                  choose({ stack_id: event.target.value, environment_id: first?.id ?? '' });
                }}
              >
                {withEnvironments.map((item) => (
                  <option key={item.id} value={item.id}>
                    {item.region ? `${item.name} (${item.region})` : item.name}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField label="Environment">
            {(control) => (
              <select
                className="select"
                {...control}
                value={environment?.id ?? ''}
                onChange={(event) => choose({ environment_id: event.target.value })}
              >
                {onStack.map((item) => (
                  <option key={item.id} value={item.id}>
                    {item.handle}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <Button type="submit" size="lg" block disabled={!environment}>
            Next
          </Button>
        </form>
      </div>
    );
  }

  return (
    <>
      <PageHeader title="Choose your Environment" description="Pick the environment your new app goes in." />
      {body}
    </>
  );
}

export { SelectEnvironmentRoute as Component };
