import { formatUsd, type ScalingLabel } from '@berth/core';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import './services.css';
import { to } from '../../../lib/paths.ts';
import { memoryGb, type Service } from '../../../resources/services/service.hal.ts';
import { ScalingRec } from '../../../resources/sizing/scaling-rec.tsx';

/** spec 3 §3 service row: the service plus envHandle, resourceHandle (app handle or 'Unknown') and cost. */
export interface ServiceRow {
  service: Service;
  envHandle: string;
  resourceHandle: string;
  cost: number;
  /** spec 2 §4 Scaling Recs; its `savings` is the spec's sort key. */
  scaling: ScalingLabel;
}

// A service's page sits under its app, so a service whose app link is missing has no page to link to.
function servicePath(service: Service, tab?: string): string | null {
  return service.appId ? to.service(service.appId, service.id, tab) : null;
}

function HandleCell({ service }: { service: Service }) {
  const path = servicePath(service);
  return path ? (
    <Link className="cell-strong" to={path}>
      {service.handle}
    </Link>
  ) : (
    <span className="cell-strong">{service.handle}</span>
  );
}

// spec 2 §5: services sort by cost, savings, resourceHandle and id (column ids are the sort keys).
/** The sizing and cost columns both service tables share. */
const SIZE_AND_COST_COLUMNS: DataTableColumn<ServiceRow>[] = [
  {
    id: 'containerCount',
    header: 'Container Count',
    cell: (row) => row.service.containerCount,
    align: 'right',
  },
  {
    id: 'containerSize',
    header: 'Container Size (GB)',
    cell: (row) => memoryGb(row.service.containerMemoryMb),
    align: 'right',
  },
  { id: 'profile', header: 'Profile', cell: (row) => row.service.instanceClass },
  {
    id: 'cost',
    header: 'Est. Monthly Cost',
    cell: (row) => formatUsd(row.cost),
    sortValue: (row) => row.cost,
    align: 'right',
  },
  {
    id: 'savings',
    header: 'Scaling Recs',
    cell: (row) => <ScalingRec label={row.scaling} />,
    sortValue: (row) => row.scaling.savings,
  },
];

const COLUMNS: DataTableColumn<ServiceRow>[] = [
  {
    id: 'handle',
    header: 'Handle',
    cell: (row) => <HandleCell service={row.service} />,
  },
  {
    id: 'id',
    header: 'ID',
    cell: (row) => <code>{row.service.id}</code>,
    sortValue: (row) => Number(row.service.id) || 0,
  },
  {
    id: 'resourceHandle',
    header: 'App',
    cell: (row) => row.resourceHandle,
    sortValue: (row) => row.resourceHandle,
  },
  { id: 'envHandle', header: 'Environment', cell: (row) => row.envHandle },
  ...SIZE_AND_COST_COLUMNS,
];

const searchText = (row: ServiceRow) => [
  row.service.handle,
  row.envHandle,
  row.resourceHandle,
  row.service.processType,
  row.service.id,
];

const APP_COLUMNS: DataTableColumn<ServiceRow>[] = [
  {
    id: 'handle',
    header: 'Service',
    cell: (row) => <HandleCell service={row.service} />,
  },
  {
    id: 'id',
    header: 'ID',
    cell: (row) => <code>{row.service.id}</code>,
    sortValue: (row) => Number(row.service.id) || 0,
  },
  { id: 'command', header: 'Command', cell: (row) => <code>{row.service.command || 'Docker CMD'}</code> },
  ...SIZE_AND_COST_COLUMNS,
  {
    id: 'actions',
    header: 'Actions',
    cell: (row) => {
      const metrics = servicePath(row.service, 'metrics');
      const scale = servicePath(row.service, 'scale');
      return (
        <span className="row-actions">
          {metrics && (
            <Link
              className="button button-secondary button-sm"
              to={metrics}
              aria-label={`Metrics of ${row.service.handle}`}
            >
              Metrics
            </Link>
          )}
          {scale && (
            <Link
              className="button button-secondary button-sm"
              to={scale}
              aria-label={`Scale ${row.service.handle}`}
            >
              Scale
            </Link>
          )}
        </span>
      );
    },
  },
];

/**
 * spec 2 §2: the global /services table (`variant="all"`), or the services of one app with their
 * command and the Metrics and Scale actions (`variant="app"`).
 */
export function ServicesTable({
  rows,
  isLoading,
  error,
  variant = 'all',
}: {
  rows: readonly ServiceRow[];
  isLoading: boolean;
  error: Error | null;
  variant?: 'all' | 'app';
}) {
  return (
    <DataTable<ServiceRow>
      label="Services"
      rows={rows}
      columns={variant === 'app' ? APP_COLUMNS : COLUMNS}
      getRowId={(row) => row.service.id}
      searchText={searchText}
      isLoading={isLoading}
      error={error}
      searchPlaceholder="Search services"
    />
  );
}
