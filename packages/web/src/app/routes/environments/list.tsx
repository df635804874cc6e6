import { emptyStateMessages } from '@berth/core';
import { type ReactNode, useCallback } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useCosts } from '../../../features/costs/api/use-costs.ts';
import { CreateEnvironmentButton } from '../../../features/environments/components/create-environment-button.tsx';
import { EnvironmentsTable } from '../../../features/environments/components/environments-table.tsx';
import { paths, to } from '../../../lib/paths.ts';
import { icons } from '../../shell/icons.tsx';
import { CostsErrorBanner, ResourcesGate } from '../../shell/resources-gate.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * The landing list (spec 1 §2: "/" leads here while the home flag is off), optionally filtered by
 * stack (?stack_id), with each environment's estimated monthly cost and the total (spec 2 §2).
 */
function EnvironmentsRoute() {
  const { organization, environments: all, allStacks } = useConsoleContext();
  const [params] = useSearchParams();
  const stackId = params.get('stack_id');
  const stack = stackId ? allStacks.find((item) => item.id === stackId) : undefined;
  const environments = stackId ? all.filter((environment) => environment.stackId === stackId) : all;
  const stackNames = new Map(allStacks.map((item) => [item.id, item.name]));
  const costs = useCosts(organization?.id ?? null, 'accounts');
  const environmentHref = useCallback((id: string) => to.environment(id), []);
  const canCreate = organization !== null;
  const createPath = to.createEnvironment(stackId);

  let body: ReactNode;
  if (environments.length === 0) {
    body = (
      <EmptyState
        icon={icons.environments}
        title={emptyStateMessages.noEnvironments}
        description={
          canCreate
            ? 'An environment groups the apps and databases of one stage of your work, such as production or staging.'
            : 'Choose or create an organization first.'
        }
        action={canCreate ? <CreateEnvironmentButton to={createPath} icon={icons.plus} /> : null}
      />
    );
  } else {
    body = (
      <>
        <CostsErrorBanner error={costs.error} />
        <EnvironmentsTable
          environments={environments}
          stackNames={stackNames}
          costs={costs.data}
          environmentHref={environmentHref}
        />
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Environments"
        description={
          organization ? (
            stackId ? (
              <>
                Environments of {organization.name} on stack {stack?.name ?? stackId} ·{' '}
                <Link to={paths.environments}>Show all</Link>
              </>
            ) : (
              `Environments of ${organization.name}`
            )
          ) : undefined
        }
        actions={
          canCreate && environments.length > 0 ? (
            <CreateEnvironmentButton to={createPath} icon={icons.plus} />
          ) : null
        }
      />
      <ResourcesGate loadingLabel="Loading environments">{body}</ResourcesGate>
    </>
  );
}

export { EnvironmentsRoute as Component };
