import { formatUsd } from '@berth/core';
import { type ReactNode, useMemo } from 'react';
import { Link } from 'react-router';
import {
  DataTable,
  type DataTableColumn,
  type DataTableListProps,
} from '../../../components/ui/data-table.tsx';
import { idColumn, linkColumn, valueColumn } from '../../../components/ui/data-table-columns.tsx';
import { TotalRow } from '../../../components/ui/total-row.tsx';
import { to } from '../../../lib/paths.ts';
import { ScalingRec } from '../../../resources/sizing/scaling-rec.tsx';
import type { DatabaseRow } from './database-rows.ts';

const gb = (value: number | null) => (value === null ? '…' : `${value} GB`);

// spec 3 §2: the column ids are the spec's database sort keys (cost, savings, handle, id, diskSize,
// containerSize, envHandle, enableBackups); with none chosen the newest database comes first.
// Issue 41: a database whose last operation failed says why under its handle.
const columns = (failureDetail?: (databaseId: string) => ReactNode): DataTableColumn<DatabaseRow>[] => [
  linkColumn(
    'handle',
    'Handle',
    (row) => row.handle,
    (id) => to.database(id),
    failureDetail && ((row) => failureDetail(row.id)),
  ),
  idColumn(),
  valueColumn('envHandle', 'Environment', (row) => row.envHandle),
  {
    id: 'diskSize',
    header: 'Disk Size',
    align: 'right',
    cell: (row) => gb(row.diskSize),
    sortValue: (row) => row.diskSize ?? 0,
  },
  {
    id: 'containerSize',
    header: 'Container Size',
    align: 'right',
    cell: (row) => gb(row.containerSize),
    sortValue: (row) => row.containerSize ?? 0,
  },
  {
    id: 'enableBackups',
    header: 'Backups',
    cell: (row) => (row.enableBackups ? 'Enabled' : 'Disabled'),
    sortValue: (row) => (row.enableBackups ? 1 : 0),
  },
  {
    id: 'cost',
    header: 'Est. Monthly Cost',
    align: 'right',
    cell: (row) => (row.cost === undefined ? '…' : formatUsd(row.cost)),
    sortValue: (row) => row.cost ?? 0,
  },
  {
    // spec 2 §2 Scaling Recs: the database service's recommendation; the sort key is the spec's `savings`.
    id: 'savings',
    header: 'Scaling Recs',
    cell: (row) => <ScalingRec label={row.scaling} />,
    sortValue: (row) => row.savings,
  },
  {
    id: 'actions',
    header: 'Actions',
    headerHidden: true,
    cell: (row) => (
      <Link to={to.database(row.id, 'scale')} aria-label={`Scale ${row.handle}`}>
        Scale
      </Link>
    ),
  },
];

// spec 3 §2 client search: the row's handle, environment handle, type, status and id (the other fields
// the spec lists, git ref, commit, image and last-operation user, are not a database's).
const searchText = (row: DatabaseRow) => [row.handle, row.envHandle, row.type, row.status, row.id];

/** spec 3 §2: with no sort chosen, the newest database comes first. */
export const newestDatabaseFirst = (a: DatabaseRow, b: DatabaseRow) =>
  (Date.parse(b.createdAt) || 0) - (Date.parse(a.createdAt) || 0);

/** spec 2 §2 database list (global and environment-scoped), with the total estimated monthly cost. */
export function DatabasesTable({
  failureDetail,
  ...list
}: DataTableListProps<DatabaseRow> & {
  /** What shows under a database whose last operation failed (the route hands it in). */
  failureDetail?: (databaseId: string) => ReactNode;
}) {
  const cells = useMemo(() => columns(failureDetail), [failureDetail]);
  const costsKnown = list.rows.every((row) => row.cost !== undefined);
  const total = list.rows.reduce((sum, row) => sum + (row.cost ?? 0), 0);
  return (
    <DataTable<DatabaseRow>
      label="Databases"
      {...list}
      columns={cells}
      searchText={searchText}
      searchPlaceholder="Search databases"
      defaultSort={newestDatabaseFirst}
      footer={<TotalRow label="Total Est. Monthly Cost" value={costsKnown ? formatUsd(total) : '…'} />}
    />
  );
}
