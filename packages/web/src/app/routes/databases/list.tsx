import { useMemo } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useCosts } from '../../../features/costs/api/use-costs.ts';
import { useDatabasesWithDisks } from '../../../features/databases/api/use-databases-with-disks.ts';
import { databaseRows } from '../../../features/databases/components/database-rows.ts';
import { DatabasesTable } from '../../../features/databases/components/databases-table.tsx';
import { useFailureDetail } from '../../../features/operations/components/use-failure-detail.tsx';
import { useServices } from '../../../features/services/api/use-services.ts';
import { useScalingLabels } from '../../../features/sizing/api/use-sizing.ts';
import { to } from '../../../lib/paths.ts';
import { settlingPoll, useDatabases } from '../../../resources/databases/use-databases.ts';
import { icons } from '../../shell/icons.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 2 §2 /databases: the organization's databases with Handle, ID, Environment, Disk Size, Container
 * Size, Backups, Est. Monthly Cost, Scaling Recs and a Scale action.
 */
function DatabasesRoute() {
  const { organization, environments } = useConsoleContext();
  // The start-up list (bare, cached) shows the rows at once; the embedded list adds the disks.
  const bare = useDatabases();
  const withDisks = useDatabasesWithDisks();
  // While a database is being provisioned, its service (the container size) appears at the end: ask again.
  const services = useServices({ pollMs: settlingPoll(withDisks.data ?? bare.data) });
  const costs = useCosts(organization?.id ?? null, 'databases');
  const scalingLabel = useScalingLabels();
  const databases = withDisks.data ?? bare.data;
  // Issue 41: why a database's last operation failed, from one list for the organization.
  const failureDetail = useFailureDetail(organization?.id ?? null, 'database');

  const rows = useMemo(
    () =>
      databaseRows(databases ?? [], {
        envHandles: new Map(environments.map((environment) => [environment.id, environment.handle])),
        services: services.data,
        costs: costs.data,
        scalingLabel,
      }),
    [databases, environments, services.data, costs.data, scalingLabel],
  );

  // spec 3 §2: New Database goes to the create form of the only environment, else to /create/db without
  // one, which asks for the environment (the shared chooser, /select/env, leads on to app creation).
  const onlyEnvironment = environments.length === 1 ? environments[0] : undefined;

  return (
    <>
      <PageHeader
        title="Databases"
        description={organization ? `Databases of ${organization.name}` : undefined}
        actions={
          organization ? (
            <ButtonLink to={to.createDatabase(onlyEnvironment?.id)} icon={icons.plus}>
              New Database
            </ButtonLink>
          ) : null
        }
      />
      {!organization ? <Banner variant="warning">Choose or create an organization first.</Banner> : null}
      <DatabasesTable
        rows={rows}
        isLoading={databases === undefined && (bare.isPending || withDisks.isPending)}
        error={databases === undefined ? (withDisks.error ?? bare.error) : null}
        failureDetail={failureDetail}
      />
    </>
  );
}

export { DatabasesRoute as Component };
