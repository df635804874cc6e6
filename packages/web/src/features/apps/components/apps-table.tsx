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
  /** The commit of the current deployment, or '' when unknown. */
  commitSha: string;
  dockerImageName: string;
  status: string;
  lastOperationUser: string;
  lastOperationType: string;
  lastOperationStatus: string;
  createdAt: string;
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

// spec 3 §2: the search covers handle, environment handle, git ref, commit sha, image, last-operation
// user, type, status and id.
const searchText = (row: AppRow) => [
  row.handle,
  row.envHandle,
  row.gitRef,
  row.commitSha,
  row.dockerImageName,
  row.lastOperationUser,
  row.lastOperationType,
  row.lastOperationStatus,
  row.status,
  row.id,
];

/** spec 3 §2: with no sort chosen, the newest app comes first. */
export const newestAppFirst = (a: AppRow, b: AppRow) =>
  (Date.parse(b.createdAt) || 0) - (Date.parse(a.createdAt) || 0);

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
      defaultSort={newestAppFirst}
    />
  );
}
