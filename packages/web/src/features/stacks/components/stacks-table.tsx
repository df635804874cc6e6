import { formatUsd } from '@berth/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { TotalRow } from '../../../components/ui/total-row.tsx';
import { type Stack, tenancyLabel } from '../../../resources/stacks/stack.hal.ts';

export interface StacksTableProps {
  stacks: readonly Stack[];
  /** Environments of the organization on each stack. */
  environmentCounts: ReadonlyMap<string, number>;
  /** Estimated monthly cost by stack id (GET /costs/:orgId/stacks); absent while loading. */
  costs: ReadonlyMap<string, number> | undefined;
  stackHref: (id: string) => string;
}

/** spec 2 §2 /stacks: search, sortable columns and a total estimated monthly cost row. */
export function StacksTable({ stacks, environmentCounts, costs, stackHref }: StacksTableProps) {
  const columns = useMemo<DataTableColumn<Stack>[]>(
    () => [
      {
        id: 'name',
        header: 'Name',
        sortValue: (row) => row.name,
        cell: (row) => (
          <Link className="cell-strong" to={stackHref(row.id)}>
            {row.name}
          </Link>
        ),
      },
      {
        id: 'id',
        header: 'ID',
        sortValue: (row) => Number(row.id) || 0,
        cell: (row) => <code>{row.id}</code>,
      },
      { id: 'tenancy', header: 'Tenancy', sortValue: tenancyLabel, cell: tenancyLabel },
      { id: 'region', header: 'Region', sortValue: (row) => row.region, cell: (row) => row.region },
      {
        id: 'environments',
        header: 'Environments',
        align: 'right',
        sortValue: (row) => environmentCounts.get(row.id) ?? 0,
        cell: (row) => environmentCounts.get(row.id) ?? 0,
      },
      {
        id: 'cost',
        header: 'Est. Monthly Cost',
        align: 'right',
        sortValue: (row) => costs?.get(row.id) ?? 0,
        cell: (row) => (costs ? formatUsd(costs.get(row.id) ?? 0) : '…'),
      },
    ],
    [environmentCounts, costs, stackHref],
  );
  const total = stacks.reduce((sum, stack) => sum + (costs?.get(stack.id) ?? 0), 0);
  return (
    <DataTable
      label="Stacks"
      rows={stacks}
      columns={columns}
      getRowId={(row) => row.id}
      searchText={searchStack}
      searchPlaceholder="Search by name, ID or region"
      footer={<TotalRow label="Total Est. Monthly Cost" value={costs ? formatUsd(total) : '…'} />}
    />
  );
}

function searchStack(stack: Stack): string[] {
  return [stack.name, stack.id, stack.region, tenancyLabel(stack)];
}
