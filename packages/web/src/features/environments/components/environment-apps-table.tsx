import { type ReactNode, useMemo } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import type { EnvironmentApp } from '../api/environment-resources.hal.ts';

export interface EnvironmentAppsTableProps {
  apps: readonly EnvironmentApp[];
  appHref: (id: string) => string;
  isLoading?: boolean;
  error?: Error | null;
  toolbar?: ReactNode;
}

/** The Apps tab of an environment: each app with its services, linking to the app. */
export function EnvironmentAppsTable({
  apps,
  appHref,
  isLoading,
  error,
  toolbar,
}: EnvironmentAppsTableProps) {
  const columns = useMemo<DataTableColumn<EnvironmentApp>[]>(
    () => [
      {
        id: 'handle',
        header: 'Handle',
        sortValue: (row) => row.handle,
        cell: (row) => (
          <Link className="cell-strong" to={appHref(row.id)}>
            {row.handle}
          </Link>
        ),
      },
      {
        id: 'id',
        header: 'ID',
        sortValue: (row) => Number(row.id) || 0,
        cell: (row) => <code>{row.id}</code>,
      },
      {
        id: 'totalServices',
        header: 'Services',
        align: 'right',
        sortValue: (row) => row.serviceCount,
        cell: (row) => row.serviceCount,
      },
    ],
    [appHref],
  );
  return (
    <DataTable
      label="Apps"
      rows={apps}
      columns={columns}
      getRowId={(row) => row.id}
      searchText={searchApp}
      searchPlaceholder="Search by handle or ID"
      isLoading={isLoading}
      error={error}
      toolbar={toolbar}
    />
  );
}

function searchApp(app: EnvironmentApp): string[] {
  return [app.handle, app.id];
}
