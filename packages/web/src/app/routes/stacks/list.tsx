import { useCallback, useMemo } from 'react';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ScopedButtonLink } from '../../../components/ui/permission-button.tsx';
import { useCosts } from '../../../features/costs/api/use-costs.ts';
import { StacksTable } from '../../../features/stacks/components/stacks-table.tsx';
import { paths, to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { icons } from '../../shell/icons.tsx';
import { CostsErrorBanner, ResourcesGate } from '../../shell/resources-gate.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';

/** spec 2 §2 /stacks: the stacks the organization uses, with their tenancy, environments and cost. */
function StacksRoute() {
  const { organization, stacks, allStacks, environments } = useConsoleContext();
  const costs = useCosts(organization?.id ?? null, 'stacks');
  // Disabled up front for those who may not request one, with the reason (issue 20).
  const requestDenial = useActionDenial('stack.request');
  const stackHref = useCallback((id: string) => to.stack(id), []);

  const { rows, environmentCounts } = useMemo(() => {
    const counts = new Map<string, number>();
    for (const environment of environments) {
      if (environment.stackId) counts.set(environment.stackId, (counts.get(environment.stackId) ?? 0) + 1);
    }
    // The stacks the organization may use, plus any other stack one of its environments sits on.
    const ids = new Set([...stacks.map((stack) => stack.id), ...counts.keys()]);
    return { rows: allStacks.filter((stack) => ids.has(stack.id)), environmentCounts: counts };
  }, [stacks, allStacks, environments]);

  return (
    <>
      <PageHeader
        title="Stacks"
        description="Stacks are the isolated networks your environments run in."
        actions={
          organization ? (
            <ScopedButtonLink denial={requestDenial} to={paths.createStack} icon={icons.plus}>
              New Dedicated Stack
            </ScopedButtonLink>
          ) : null
        }
      />
      <ResourcesGate loadingLabel="Loading stacks">
        <CostsErrorBanner error={costs.error} />
        <StacksTable
          stacks={rows}
          environmentCounts={environmentCounts}
          costs={costs.data}
          stackHref={stackHref}
        />
      </ResourcesGate>
    </>
  );
}

export { StacksRoute as Component };
