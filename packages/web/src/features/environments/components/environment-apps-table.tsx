import { type ReactNode, useMemo } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import {
  costColumn,
  idColumn,
  linkColumn,
  numberColumn,
} from '../../../components/ui/data-table-columns.tsx';
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
  /** Why an app's last operation failed, under its handle (issue 41), as on the Apps list. */
  failureDetail?: (appId: string) => ReactNode;
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
  failureDetail,
}: EnvironmentAppsTableProps) {
  const columns = useMemo<DataTableColumn<App>[]>(
    () => [
      linkColumn(
        'handle',
        'Handle',
        (row) => row.handle,
        appHref,
        failureDetail && ((row) => failureDetail(row.id)),
      ),
      idColumn(),
      { id: 'envHandle', header: 'Environment', cell: () => environmentHandle },
      numberColumn('totalServices', 'Services', (row) => row.serviceCount ?? 0),
      costColumn(costs),
    ],
    [appHref, environmentHandle, costs, failureDetail],
  );
  return (
    <DataTable
      label="Apps"
      rows={apps}
      columns={columns}
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
