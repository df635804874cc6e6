import { costShare } from '@berth/core';
import { useMemo } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { CostTotalRow, costColumn, linkColumn } from '../../../components/ui/data-table-columns.tsx';
import type { Environment } from '../../../resources/environments/environment.hal.ts';

export interface CostsByEnvironmentTableProps {
  environments: readonly Environment[];
  stackNames: ReadonlyMap<string, string>;
  /** Estimated monthly cost by environment id (GET /costs/:orgId/accounts); absent while loading. */
  costs: ReadonlyMap<string, number> | undefined;
  environmentHref: (id: string) => string;
}

/**
 * Issue 41: the costs page's environments, most expensive first, each with its share of what the
 * environments cost together (dedicated stacks apart).
 */
export function CostsByEnvironmentTable({
  environments,
  stackNames,
  costs,
  environmentHref,
}: CostsByEnvironmentTableProps) {
  const total = useMemo(
    () => environments.reduce((sum, environment) => sum + (costs?.get(environment.id) ?? 0), 0),
    [environments, costs],
  );
  const columns = useMemo<DataTableColumn<Environment>[]>(
    () => [
      linkColumn('handle', 'Environment', (row) => row.handle, environmentHref),
      {
        id: 'stack',
        header: 'Stack',
        sortValue: (row) => (row.stackId && stackNames.get(row.stackId)) || '',
        cell: (row) => (row.stackId && stackNames.get(row.stackId)) || 'Unknown',
      },
      costColumn(costs),
      {
        id: 'share',
        header: 'Share',
        align: 'right',
        sortValue: (row) => costs?.get(row.id) ?? 0,
        cell: (row) => (costs ? costShare(costs.get(row.id) ?? 0, total) : '…'),
      },
    ],
    [stackNames, costs, total, environmentHref],
  );
  return (
    <DataTable
      label="Costs by environment"
      rows={environments}
      columns={columns}
      searchText={searchEnvironment}
      searchPlaceholder="Search by handle or ID"
      defaultSort={(a, b) => (costs?.get(b.id) ?? 0) - (costs?.get(a.id) ?? 0)}
      footer={<CostTotalRow rows={environments} costs={costs} />}
    />
  );
}

/** spec 3 §5: environments are searched by handle or id. */
function searchEnvironment(environment: Environment): string[] {
  return [environment.handle, environment.id];
}
