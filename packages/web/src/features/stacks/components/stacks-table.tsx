import { useMemo } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import {
  CostTotalRow,
  costColumn,
  idColumn,
  linkColumn,
  numberColumn,
  valueColumn,
} from '../../../components/ui/data-table-columns.tsx';
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
      linkColumn('name', 'Name', (row) => row.name, stackHref),
      idColumn(),
      { id: 'tenancy', header: 'Tenancy', sortValue: tenancyLabel, cell: tenancyLabel },
      valueColumn('region', 'Region', (row) => row.region),
      numberColumn('environments', 'Environments', (row) => environmentCounts.get(row.id) ?? 0),
      costColumn(costs),
    ],
    [environmentCounts, costs, stackHref],
  );
  return (
    <DataTable
      label="Stacks"
      rows={stacks}
      columns={columns}
      searchText={searchStack}
      searchPlaceholder="Search by name, ID or region"
      footer={<CostTotalRow rows={stacks} costs={costs} />}
    />
  );
}

function searchStack(stack: Stack): string[] {
  return [stack.name, stack.id, stack.region, tenancyLabel(stack)];
}
