import { formatUsd } from '@berth/core';
import { type ReactNode, useMemo } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import type { App } from '../../../resources/apps/app.hal.ts';

export interface EnvironmentAppsTableProps {
  apps: readonly App[];
  appHref: (id: string) => string;
  /** The environment's handle, shown in every row like the app list's Environment column. */
  environmentHandle: string;
  /** Estimated monthly cost per app id (features/costs `useCosts(…, 'apps')`); undefined while loading. */
  costs?: ReadonlyMap<string, number>;
  isLoading?: boolean;
  error?: Error | null;
  toolbar?: ReactNode;
}

/**
 * The Apps tab of an environment: the app list's columns (spec 2 §2: Handle, ID, Environment, Services,
 * Est. Monthly Cost) for the environment's apps, linking to each app.
 */
export function EnvironmentAppsTable({
  apps,
  appHref,
  environmentHandle,
  costs,
  isLoading,
  error,
  toolbar,
}: EnvironmentAppsTableProps) {
  const columns = useMemo<DataTableColumn<App>[]>(
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
      { id: 'envHandle', header: 'Environment', cell: () => environmentHandle },
      {
        id: 'totalServices',
        header: 'Services',
        align: 'right',
        sortValue: (row) => row.serviceCount ?? 0,
        cell: (row) => row.serviceCount ?? 0,
      },
      {
        id: 'cost',
        header: 'Est. Monthly Cost',
        align: 'right',
        sortValue: (row) => costs?.get(row.id) ?? 0,
        cell: (row) => (costs ? formatUsd(costs.get(row.id) ?? 0) : '…'),
      },
    ],
    [appHref, environmentHandle, costs],
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

function searchApp(app: App): string[] {
  return [app.handle, app.id];
}
