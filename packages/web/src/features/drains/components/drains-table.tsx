import { type ReactNode, useMemo } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import {
  type LogDrain,
  logDrainStatusLabel,
  logDrainTypeLabel,
} from '../../../resources/log-drains/log-drain.hal.ts';
import { type MetricDrain, metricDrainTypeLabel } from '../../../resources/metric-drains/metric-drain.hal.ts';
import type { DrainOperationType } from '../api/use-drains.ts';

/** What a drain row needs to act: its id, handle and status. */
interface AnyDrain {
  id: string;
  handle: string;
  status: string;
}

/** Why a drain in a failed state is there (the route hands in the operations' component), or nothing. */
export type DrainFailureDetail = (drain: AnyDrain, kind: 'log' | 'metric') => ReactNode;

/** The status in words and, for a failed one, why (issue 41). */
function statusCell(drain: AnyDrain, kind: 'log' | 'metric', failureDetail: DrainFailureDetail | undefined) {
  const label = logDrainStatusLabel(drain.status);
  if (!drain.status.endsWith('_failed') || !failureDetail) return label;
  return (
    <div className="drain-status-failed">
      <span className="status-pill status-pill-error">{label}</span>
      {failureDetail(drain, kind)}
    </div>
  );
}

export interface DrainActions {
  /** Why the caller may not act on drains (the Ops scope, spec 1 §6), or null. */
  denial: string | null;
  busy: boolean;
  operate(drain: AnyDrain, type: DrainOperationType): void;
  remove(drain: AnyDrain): void;
}

/**
 * A drain's actions by its status: a provisioned one restarts (a log drain's `configure`, a metric
 * drain's provision again) or is deprovisioned; a failed one is provisioned again; one that is not
 * shipping is deleted.
 */
function actionsCell(drain: AnyDrain, actions: DrainActions, restart: DrainOperationType) {
  const button = (label: string, name: string, variant: 'secondary' | 'danger', act: () => void) => (
    <ScopedButton
      size="sm"
      variant={variant}
      denial={actions.denial}
      disabled={actions.busy}
      aria-label={`${name} ${drain.handle}`}
      onClick={act}
    >
      {label}
    </ScopedButton>
  );
  const removable = ['pending', 'provision_failed', 'deprovision_failed'].includes(drain.status);
  return (
    <div className="row-actions">
      {drain.status === 'provisioned' ? (
        <>
          {button('Restart', 'Restart', 'secondary', () => actions.operate(drain, restart))}
          {button('Deprovision', 'Deprovision', 'danger', () => actions.operate(drain, 'deprovision'))}
        </>
      ) : null}
      {drain.status === 'provision_failed'
        ? button('Provision Again', 'Provision again', 'secondary', () => actions.operate(drain, 'provision'))
        : null}
      {removable ? button('Delete', 'Delete', 'danger', () => actions.remove(drain)) : null}
    </div>
  );
}

const count = (value: number) => value.toLocaleString('en-US');

function logColumns(actions: DrainActions, failureDetail?: DrainFailureDetail): DataTableColumn<LogDrain>[] {
  return [
    {
      id: 'handle',
      header: 'Handle',
      cell: (drain) => <span className="cell-strong">{drain.handle}</span>,
      sortValue: (drain) => drain.handle,
    },
    { id: 'type', header: 'Type', cell: logDrainTypeLabel, sortValue: logDrainTypeLabel },
    { id: 'destination', header: 'Destination', cell: (drain) => <code>{drain.destination || '—'}</code> },
    { id: 'sources', header: 'Logs', cell: (drain) => drain.sources.join(', ') || 'None' },
    {
      id: 'status',
      header: 'Status',
      cell: (drain) => statusCell(drain, 'log', failureDetail),
      sortValue: (drain) => drain.status,
    },
    {
      id: 'shipping',
      header: 'Shipping',
      // What it did last: its error, else what it sent and lost.
      cell: (drain) =>
        drain.lastError ||
        `${count(drain.linesSent)} lines sent${drain.linesDropped ? `, ${count(drain.linesDropped)} dropped` : ''}`,
    },
    { id: 'actions', header: 'Actions', cell: (drain) => actionsCell(drain, actions, 'configure') },
  ];
}

function metricColumns(
  actions: DrainActions,
  failureDetail?: DrainFailureDetail,
): DataTableColumn<MetricDrain>[] {
  return [
    {
      id: 'handle',
      header: 'Handle',
      cell: (drain) => <span className="cell-strong">{drain.handle}</span>,
      sortValue: (drain) => drain.handle,
    },
    { id: 'type', header: 'Type', cell: metricDrainTypeLabel, sortValue: metricDrainTypeLabel },
    { id: 'destination', header: 'Destination', cell: (drain) => <code>{drain.destination || '—'}</code> },
    {
      id: 'status',
      header: 'Status',
      cell: (drain) => statusCell(drain, 'metric', failureDetail),
      sortValue: (drain) => drain.status,
    },
    {
      id: 'shipping',
      header: 'Sending',
      cell: (drain) => drain.lastError || `${count(drain.pointsSent)} points sent`,
    },
    { id: 'actions', header: 'Actions', cell: (drain) => actionsCell(drain, actions, 'provision') },
  ];
}

interface TableProps<Drain> {
  drains: readonly Drain[];
  actions: DrainActions;
  isLoading: boolean;
  error: Error | null;
  toolbar?: ReactNode;
  label: string;
  failureDetail?: DrainFailureDetail;
}

/** spec 2 §2: the environment page lists its log drains. */
export function LogDrainsTable({
  drains,
  actions,
  isLoading,
  error,
  toolbar,
  label,
  failureDetail,
}: TableProps<LogDrain>) {
  const cells = useMemo(() => logColumns(actions, failureDetail), [actions, failureDetail]);
  return (
    <DataTable<LogDrain>
      label={label}
      rows={drains}
      columns={cells}
      getRowId={(drain) => drain.id}
      searchText={(drain) => [drain.handle, drain.id, logDrainTypeLabel(drain), drain.destination]}
      isLoading={isLoading}
      error={error}
      toolbar={toolbar}
      searchPlaceholder="Search log drains"
    />
  );
}

/** spec 2 §2: the environment page lists its metric drains. */
export function MetricDrainsTable({
  drains,
  actions,
  isLoading,
  error,
  toolbar,
  label,
  failureDetail,
}: TableProps<MetricDrain>) {
  const cells = useMemo(() => metricColumns(actions, failureDetail), [actions, failureDetail]);
  return (
    <DataTable<MetricDrain>
      label={label}
      rows={drains}
      columns={cells}
      getRowId={(drain) => drain.id}
      searchText={(drain) => [drain.handle, drain.id, metricDrainTypeLabel(drain), drain.destination]}
      isLoading={isLoading}
      error={error}
      toolbar={toolbar}
      searchPlaceholder="Search metric drains"
    />
  );
}
