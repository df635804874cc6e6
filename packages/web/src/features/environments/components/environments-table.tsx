import { useMemo } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import {
  CostTotalRow,
  costColumn,
  idColumn,
  linkColumn,
  numberColumn,
} from '../../../components/ui/data-table-columns.tsx';
import type { Environment } from '../../../resources/environments/environment.hal.ts';

export interface EnvironmentsTableProps {
  environments: readonly Environment[];
  stackNames: ReadonlyMap<string, string>;
  /** Estimated monthly cost by environment id (GET /costs/:orgId/accounts); absent while loading. */
  costs: ReadonlyMap<string, number> | undefined;
  /** The detail page of an environment. */
  environmentHref: (id: string) => string;
  isLoading?: boolean;
  error?: Error | null;
}

/** spec 2 §2 /environments: the environments with their stack, counts and cost, and a total cost row. */
export function EnvironmentsTable({
  environments,
  stackNames,
  costs,
  environmentHref,
  isLoading,
  error,
}: EnvironmentsTableProps) {
  const columns = useMemo<DataTableColumn<Environment>[]>(
    () => [
      linkColumn(
        'handle',
        'Handle',
        (row) => row.handle,
        environmentHref,
        (row) => (row.type === 'production' ? <span className="badge">production</span> : null),
      ),
      idColumn(),
      {
        id: 'stack',
        header: 'Stack',
        sortValue: (row) => (row.stackId && stackNames.get(row.stackId)) || '',
        cell: (row) => (row.stackId && stackNames.get(row.stackId)) || 'Unknown',
      },
      numberColumn('apps', 'Apps', (row) => row.appCount),
      numberColumn('databases', 'Databases', (row) => row.databaseCount),
      costColumn(costs),
    ],
    [stackNames, costs, environmentHref],
  );

  return (
    <DataTable
      label="Environments"
      rows={environments}
      columns={columns}
      searchText={searchEnvironment}
      searchPlaceholder="Search by handle or ID"
      isLoading={isLoading}
      error={error}
      footer={<CostTotalRow rows={environments} costs={costs} />}
    />
  );
}

/** spec 3 §5: environments are searched by handle or id. */
function searchEnvironment(environment: Environment): string[] {
  return [environment.handle, environment.id];
}
