import type { ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCreateEnvironment } from '../../../features/environments/api/use-create-environment.ts';
import {
  CreateEnvironmentForm,
  type CreateEnvironmentValues,
  type StackOption,
} from '../../../features/environments/components/create-environment-form.tsx';
import { paths, to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { defaultStack } from '../../../resources/stacks/stack.hal.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/** spec 3 §2 "Name your Environment": a handle and a stack (stack_id query optional). */
function CreateEnvironmentRoute() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { organization, stacks, resources } = useConsoleContext();
  const create = useCreateEnvironment();
  const denial = useActionDenial('environment.create');
  // The way to a dedicated stack shows to those who may request one (the Account Owner).
  const stackDenial = useActionDenial('stack.request');

  let body: ReactNode;
  if (!organization) {
    body = (
      <Banner variant="warning">Choose or create an organization before creating an environment.</Banner>
    );
  } else if (resources.status === 'error') {
    body = <Banner variant="error">Error: {resources.message}</Banner>;
  } else if (resources.status !== 'success') {
    body = <Spinner label="Loading stacks" />;
  } else if (stacks.length === 0) {
    body = (
      <EmptyState title="No stacks available" description="There is no stack this organization can use." />
    );
  } else {
    const options: StackOption[] = stacks.map((stack) => ({
      id: stack.id,
      label: stack.region ? `${stack.name} (${stack.region})` : stack.name,
      dedicated: stack.organizationId !== null,
    }));
    const requested = params.get('stack_id');
    const initial = stacks.find((stack) => stack.id === requested) ?? defaultStack(stacks);
    const submit = async ({ handle, stackId }: CreateEnvironmentValues) => {
      const stack = stacks.find((item) => item.id === stackId);
      const created = await create.mutateAsync({
        handle,
        organization_id: organization.id,
        stack_id: stackId,
        dedicatedStack: stack?.organizationId != null,
      });
      // spec 3 create flows: a new environment is followed by naming its first app.
      navigate(to.createApp(created.id));
    };
    body = (
      <div className="card form-card">
        <div className="card-body">
          <CreateEnvironmentForm
            stacks={options}
            defaultStackId={initial?.id ?? null}
            onSubmit={submit}
            denial={denial}
          />
          {/* spec 3 create flows: Name your Environment links to requesting a dedicated stack. */}
          {stackDenial === null ? (
            <p className="form-note">
              Need a stack of your own? <Link to={paths.createStack}>Request a dedicated stack</Link>
            </p>
          ) : null}
        </div>
      </div>
    );
  }

  return (
    <>
      <PageHeader
        title="Name your Environment"
        description="Environments hold your apps and databases. Pick the stack they run on."
      />
      {body}
    </>
  );
}

export { CreateEnvironmentRoute as Component };
