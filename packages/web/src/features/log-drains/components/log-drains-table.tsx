import { type ReactNode, useMemo } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import {
  type LogDrain,
  logDrainStatusLabel,
  logDrainTypeLabel,
} from '../../../resources/log-drains/log-drain.hal.ts';
import type { LogDrainOperationType } from '../api/use-log-drain-actions.ts';

export interface LogDrainActions {
  /** Why the caller may not act on drains (the Ops scope), or null. */
  denial: string | null;
  busy: boolean;
  operate(drain: LogDrain, type: LogDrainOperationType): void;
  remove(drain: LogDrain): void;
}

/** What the drain did last: its error, else what it sent and lost. */
function shippingLabel(drain: LogDrain): string {
  if (drain.lastError) return drain.lastError;
  const dropped = drain.linesDropped ? `, ${drain.linesDropped.toLocaleString('en-US')} dropped` : '';
  return `${drain.linesSent.toLocaleString('en-US')} lines sent${dropped}`;
}

function columns(actions: LogDrainActions): DataTableColumn<LogDrain>[] {
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
      cell: (drain) => logDrainStatusLabel(drain.status),
      sortValue: (drain) => drain.status,
    },
    { id: 'shipping', header: 'Shipping', cell: shippingLabel },
    {
      id: 'actions',
      header: 'Actions',
      cell: (drain) => {
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
                {button('Restart', 'Restart', 'secondary', () => actions.operate(drain, 'configure'))}
                {button('Deprovision', 'Deprovision', 'danger', () => actions.operate(drain, 'deprovision'))}
              </>
            ) : null}
            {drain.status === 'provision_failed'
              ? button('Provision Again', 'Provision again', 'secondary', () =>
                  actions.operate(drain, 'provision'),
                )
              : null}
            {removable ? button('Delete', 'Delete', 'danger', () => actions.remove(drain)) : null}
          </div>
        );
      },
    },
  ];
}

/** spec 2 §2: the environment page lists its log drains. */
export function LogDrainsTable({
  drains,
  actions,
  isLoading,
  error,
  toolbar,
  label,
}: {
  drains: readonly LogDrain[];
  actions: LogDrainActions;
  isLoading: boolean;
  error: Error | null;
  toolbar?: ReactNode;
  label: string;
}) {
  const cells = useMemo(() => columns(actions), [actions]);
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
