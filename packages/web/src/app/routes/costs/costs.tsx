import { costBreakdown, formatUsd, hasBillingAccess } from '@berth/core';
import { useCallback, useMemo } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCosts } from '../../../features/costs/api/use-costs.ts';
import { CostBreakdownTable } from '../../../features/costs/components/cost-breakdown-table.tsx';
import { CostsByEnvironmentTable } from '../../../features/costs/components/costs-by-environment-table.tsx';
import { paths, to } from '../../../lib/paths.ts';
import { ResourcesGate } from '../../shell/resources-gate.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * Issue 41: the organization's estimated monthly costs in one place: the total, by resource type and by
 * environment. Every figure comes from the server's cost lists (each read to its last page), which price
 * with core's model; what was billed in past months is on Invoices.
 */
function CostsRoute() {
  const { organization, environments, allStacks, actor } = useConsoleContext();
  const organizationId = organization?.id ?? null;
  const environmentCosts = useCosts(organizationId, 'accounts');
  const appCosts = useCosts(organizationId, 'apps');
  const databaseCosts = useCosts(organizationId, 'databases');
  const stackCosts = useCosts(organizationId, 'stacks');
  const lists = [environmentCosts, appCosts, databaseCosts, stackCosts];
  const error = lists.find((list) => list.error)?.error ?? null;
  const stackNames = useMemo(() => new Map(allStacks.map((stack) => [stack.id, stack.name])), [allStacks]);
  const environmentHref = useCallback((id: string) => to.environment(id), []);

  const breakdown = useMemo(() => {
    if (!environmentCosts.data || !appCosts.data || !databaseCosts.data || !stackCosts.data) return null;
    return costBreakdown({
      environments: [...environmentCosts.data.values()],
      apps: [...appCosts.data.values()],
      databases: [...databaseCosts.data.values()],
      stacks: [...stackCosts.data.values()],
    });
  }, [environmentCosts.data, appCosts.data, databaseCosts.data, stackCosts.data]);

  return (
    <>
      <PageHeader
        title="Costs"
        description={
          organization ? (
            <>
              Estimated monthly costs of {organization.name} at today's sizes, in US dollars.
              {hasBillingAccess(actor) ? (
                <>
                  {' '}
                  What was billed each month is in <Link to={paths.invoices}>Invoices</Link>.
                </>
              ) : null}
            </>
          ) : undefined
        }
      />
      <ResourcesGate loadingLabel="Loading costs">
        {!organization ? (
          <Banner variant="warning">Choose or create an organization first.</Banner>
        ) : error ? (
          <Banner variant="error">Error: {error.message}</Banner>
        ) : !breakdown ? (
          <div className="page-loading">
            <Spinner label="Loading costs" />
          </div>
        ) : (
          <div className="section-stack">
            <section className="card card-body" aria-labelledby="costs-total">
              <h2 className="section-title" id="costs-total">
                Estimated per month
              </h2>
              <p>
                <strong>{formatUsd(breakdown.total)}</strong> a month, about {formatUsd(breakdown.total * 12)}{' '}
                a year at this rate.
              </p>
            </section>
            <section className="card" aria-labelledby="costs-by-type">
              <div className="card-body">
                <h2 className="section-title" id="costs-by-type">
                  By resource type
                </h2>
                <p className="muted">
                  An app counts its services' containers and its endpoints; a database its container, disk,
                  endpoints and backups.
                </p>
              </div>
              <CostBreakdownTable breakdown={breakdown} />
            </section>
            <section aria-labelledby="costs-by-environment">
              <h2 className="section-title" id="costs-by-environment">
                By environment
              </h2>
              <CostsByEnvironmentTable
                environments={environments}
                stackNames={stackNames}
                costs={environmentCosts.data}
                environmentHref={environmentHref}
              />
            </section>
          </div>
        )}
      </ResourcesGate>
    </>
  );
}

export { CostsRoute as Component };
