import type { ReactNode } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { EnvironmentsTable } from '../../../features/environments/components/environments-table.tsx';
import { paths } from '../../paths.ts';
import { icons } from '../../shell/icons.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';

/** spec 1 §8: the empty state of the environments list. */
export const NO_ENVIRONMENTS = 'No environments exist';

/** The landing list (spec 1 §2: "/" leads here while the home flag is off). */
function EnvironmentsRoute() {
  const { organization, environments, allStacks, resources } = useConsoleContext();
  const stackNames = new Map(allStacks.map((stack) => [stack.id, stack.name]));
  const canCreate = organization !== null;

  let body: ReactNode;
  if (resources.status === 'error') {
    body = <Banner variant="error">Error: {resources.message}</Banner>;
  } else if (resources.status !== 'success') {
    body = (
      <div className="page-loading">
        <Spinner label="Loading environments" />
      </div>
    );
  } else if (environments.length === 0) {
    body = (
      <EmptyState
        icon={icons.environments}
        title={NO_ENVIRONMENTS}
        description={
          canCreate
            ? 'An environment groups the apps and databases of one stage of your work, such as production or staging.'
            : 'Choose or create an organization first.'
        }
        action={
          canCreate ? (
            <ButtonLink to={paths.createEnvironment} icon={icons.plus}>
              Create Environment
            </ButtonLink>
          ) : null
        }
      />
    );
  } else {
    body = <EnvironmentsTable environments={environments} stackNames={stackNames} />;
  }

  return (
    <>
      <PageHeader
        title="Environments"
        description={organization ? `Environments of ${organization.name}` : undefined}
        actions={
          canCreate && environments.length > 0 ? (
            <ButtonLink to={paths.createEnvironment} icon={icons.plus}>
              Create Environment
            </ButtonLink>
          ) : null
        }
      />
      {body}
    </>
  );
}

export { EnvironmentsRoute as Component };
