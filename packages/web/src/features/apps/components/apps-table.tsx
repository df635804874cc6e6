import { formatUsd } from '@berth/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';

/** spec 3 §3 app row: the app plus what the list shows beside it. */
export interface AppRow {
  id: string;
  handle: string;
  envHandle: string;
  totalServices: number;
  cost: number;
  gitRef: string;
  dockerImageName: string;
}

// spec 3 §2: the column ids are the spec's sort keys (handle, id, envHandle, totalServices, cost).
const COLUMNS: DataTableColumn<AppRow>[] = [
  {
    id: 'handle',
    header: 'Handle',
    cell: (row) => (
      <Link className="cell-strong" to={`/apps/${row.id}`}>
        {row.handle}
      </Link>
    ),
    sortValue: (row) => row.handle,
  },
  { id: 'id', header: 'ID', cell: (row) => <code>{row.id}</code>, sortValue: (row) => Number(row.id) || 0 },
  { id: 'envHandle', header: 'Environment', cell: (row) => row.envHandle, sortValue: (row) => row.envHandle },
  {
    id: 'totalServices',
    header: 'Services',
    cell: (row) => row.totalServices,
    sortValue: (row) => row.totalServices,
    align: 'right',
  },
  {
    id: 'cost',
    header: 'Est. Monthly Cost',
    cell: (row) => formatUsd(row.cost),
    sortValue: (row) => row.cost,
    align: 'right',
  },
];

// spec 2 §5: the client search covers handle, environment handle, git ref, image and id.
const searchText = (row: AppRow) => [row.handle, row.envHandle, row.gitRef, row.dockerImageName, row.id];

export function AppsTable({
  rows,
  isLoading,
  error,
  toolbar,
}: {
  rows: readonly AppRow[];
  isLoading: boolean;
  error: Error | null;
  toolbar?: ReactNode;
}) {
  return (
    <DataTable<AppRow>
      label="Apps"
      rows={rows}
      columns={COLUMNS}
      getRowId={(row) => row.id}
      searchText={searchText}
      isLoading={isLoading}
      error={error}
      toolbar={toolbar}
      searchPlaceholder="Search apps"
    />
  );
}
