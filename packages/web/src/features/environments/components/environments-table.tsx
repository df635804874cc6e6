import { formatUsd } from '@berth/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { TotalRow } from '../../../components/ui/total-row.tsx';
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
      {
        id: 'handle',
        header: 'Handle',
        sortValue: (row) => row.handle,
        cell: (row) => (
          <>
            <Link className="cell-strong" to={environmentHref(row.id)}>
              {row.handle}
            </Link>
            {row.type === 'production' ? <span className="badge">production</span> : null}
          </>
        ),
      },
      {
        id: 'id',
        header: 'ID',
        sortValue: (row) => Number(row.id) || 0,
        cell: (row) => <code>{row.id}</code>,
      },
      {
        id: 'stack',
        header: 'Stack',
        sortValue: (row) => (row.stackId && stackNames.get(row.stackId)) || '',
        cell: (row) => (row.stackId && stackNames.get(row.stackId)) || 'Unknown',
      },
      {
        id: 'apps',
        header: 'Apps',
        align: 'right',
        sortValue: (row) => row.appCount,
        cell: (row) => row.appCount,
      },
      {
        id: 'databases',
        header: 'Databases',
        align: 'right',
        sortValue: (row) => row.databaseCount,
        cell: (row) => row.databaseCount,
      },
      {
        id: 'cost',
        header: 'Est. Monthly Cost',
        align: 'right',
        sortValue: (row) => costs?.get(row.id) ?? 0,
        cell: (row) => (costs ? formatUsd(costs.get(row.id) ?? 0) : '…'),
      },
    ],
    [stackNames, costs, environmentHref],
  );
  const total = environments.reduce((sum, environment) => sum + (costs?.get(environment.id) ?? 0), 0);

  return (
    <DataTable
      label="Environments"
      rows={environments}
      columns={columns}
      getRowId={(row) => row.id}
      searchText={searchEnvironment}
      searchPlaceholder="Search by handle or ID"
      isLoading={isLoading}
      error={error}
      footer={<TotalRow label="Total Est. Monthly Cost" value={costs ? formatUsd(total) : '…'} />}
    />
  );
}

/** spec 3 §5: environments are searched by handle or id. */
function searchEnvironment(environment: Environment): string[] {
  return [environment.handle, environment.id];
}
