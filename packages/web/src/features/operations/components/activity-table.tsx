import {
  canRerunOperation,
  isActionName,
  isOperationPending,
  OPERATION_RESOURCE_TYPES,
  OPERATION_STATUSES,
  OPERATION_TYPE_NAMES,
  operationResourceLabel,
  operationStatusLabel,
  RECORDED_OPERATION_TYPES,
  SERVER_PAGE_SIZE_DEFAULT,
} from '@berth/core';
import { type ReactNode, useId } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useActionDenials } from '../../../lib/use-action-denial.ts';
import type { App } from '../../../resources/apps/app.hal.ts';
import { useApp } from '../../../resources/apps/use-app.ts';
import type { Operation } from '../../../resources/operations/operation.hal.ts';
import { ALL, type OperationFilters } from '../api/operation-filters.ts';
import { useOperations } from '../api/use-operations.ts';
import { useRerunOperation } from '../api/use-rerun-operation.ts';
import { ElapsedTime } from './elapsed-time.tsx';
import { OperationStatusBadge } from './operation-status-badge.tsx';
import './operations.css';
import { to } from '../../../lib/paths.ts';

/** The resource types operations act on (core's catalog): what the resource filter offers by default. */
export const RESOURCE_TYPE_OPTIONS: readonly string[] = OPERATION_RESOURCE_TYPES;

/**
 * Every operation type of the catalog (a scope's list may hold its resources' neighbours': an app's
 * endpoints), and those Berth records itself (a lost node).
 */
export const OPERATION_TYPE_OPTIONS: readonly string[] = [
  ...OPERATION_TYPE_NAMES,
  ...RECORDED_OPERATION_TYPES,
];

function positiveInt(value: string | null): number {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : 1;
}

/** The filters and page of an activity list, kept in the query string (spec 3 §2). */
export function useActivityQuery() {
  const [params, setParams] = useSearchParams();
  const filters: OperationFilters = {
    resourceType: params.get('resource_type') || ALL,
    operationType: params.get('operation_type') || ALL,
    operationStatus: params.get('operation_status') || ALL,
  };
  const page = positiveInt(params.get('page'));
  // Set only by Next, from the page before's next link (issue 19); any other move drops it.
  const after = page > 1 ? params.get('after') : null;
  const set = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === ALL) next.delete(key);
        else next.set(key, value);
      }
      return next;
    });
  return { filters, page, after, set };
}

export interface ActivityTableProps {
  /** A server-paged operation list (contract §5.11), e.g. `/organizations/{id}/operations`. */
  listPath: string | null;
  /**
   * The resource cell of a row. A service's link needs the services feature, which this feature may not
   * import, so the route passes the link in (app/routes/operations/operation-resource-link.tsx).
   */
  resourceLink: (operation: Operation) => ReactNode;
  /** The resource types worth filtering by in this scope. */
  resourceTypes?: readonly string[];
  label?: string;
}

function FilterSelect({
  label,
  value,
  options,
  labelOf = (option) => option,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly string[];
  /** What the option reads as; the value sent stays the API's. */
  labelOf?: (option: string) => string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="select" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value={ALL}>All</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {labelOf(option)}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * What a re-run will do, said before it runs (issue 20): one click must not redeploy a known-failing ref
 * over a live app or quietly roll production back. `runningNow` is the git ref the app runs now when
 * known (null: nothing deployed; undefined: not known, so the warning says what may happen).
 */
export function rerunWarning(operation: Operation, runningNow?: string | null): string {
  const target = operation.resourceHandle;
  switch (operation.type) {
    case 'deploy': {
      const what = operation.dockerRef ?? operation.gitRef;
      const deploys = what ? `Deploys ${what} to ${target} again.` : `Deploys ${target} again.`;
      const failed = operation.status === 'failed' ? ' It failed last time.' : '';
      if (runningNow === undefined || !what) {
        return `${deploys}${failed || ' If a later deploy runs now, this rolls it back.'}`;
      }
      if (runningNow === null) return `${deploys}${failed}`;
      if (runningNow === what) return `${deploys}${failed} ${what} is what runs now.`;
      return failed
        ? `${deploys}${failed} ${runningNow} is running now; a success would replace it.`
        : `${deploys} ${runningNow} is running now: this rolls it back to ${what}.`;
    }
    case 'configure': {
      const keys = Object.keys(operation.env ?? {});
      return keys.length
        ? `Sets ${keys.length === 1 ? keys[0] : `${keys.length} variables`} of ${target} as this operation did, over their values now.`
        : `Configures ${target} again.`;
    }
    case 'scale':
      return `Scales ${target} again to what this operation asked for${operation.containerCount !== null ? ` (${operation.containerCount} containers)` : ''}.`;
    case 'restart':
    case 'restart_recreate':
      return `Restarts ${target}: its containers stop and start again.`;
    case 'deprovision':
      return `Deprovisions ${target} again: it stops and is removed.`;
    default:
      return `Runs ${operation.type} on ${target} again.`;
  }
}

/**
 * The re-run warning, naming what the app runs now for a git deploy: the app is read only once the
 * warning shows (after Re-run is pressed), not for every row of Activity.
 */
function RerunWarning({ operation }: { operation: Operation }) {
  const gitDeploy =
    operation.resourceType === 'app' &&
    operation.type === 'deploy' &&
    operation.dockerRef === null &&
    operation.gitRef !== null;
  const app = useApp(operation.resourceId, { enabled: gitDeploy });
  return <>{rerunWarning(operation, gitDeploy && app.data ? gitRefRunning(app.data) : undefined)}</>;
}

/**
 * The git ref an app runs now: null when it runs nothing yet, undefined when what it runs has no git ref
 * (an image deploy), which the warning then does not name.
 */
export function gitRefRunning(app: Pick<App, 'currentImage'>): string | null | undefined {
  if (app.currentImage === null) return null;
  return app.currentImage.gitRef ?? undefined;
}

export function RerunButton({ operation }: { operation: Operation }) {
  const rerun = useRerunOperation();
  const navigate = useNavigate();
  const denialOf = useActionDenials();
  if (!canRerunOperation(operation)) return null;
  // A re-runnable operation is in the catalog, so `<resource>.<type>` is its action (app.deploy, …).
  const action = `${operation.resourceType}.${operation.type}`;
  const denial =
    operation.environmentId && isActionName(action) ? denialOf(action, operation.environmentId) : null;
  const name = `${operation.type} of ${operation.resourceHandle}`;
  return (
    <span>
      <ConfirmButton
        denial={denial}
        label={`Re-run ${name}`}
        confirmLabel={`Confirm re-run ${name}`}
        warning={<RerunWarning operation={operation} />}
        onConfirm={() =>
          rerun.mutateAsync(operation).then(
            // spec 2 §4: operation flows end on the operation's page.
            (next) => navigate(to.operation(next.id)),
          )
        }
      >
        Re-run
      </ConfirmButton>
      {rerun.isError ? (
        <span className="field-error" role="alert">
          {rerun.error.message}
        </span>
      ) : null}
    </span>
  );
}

/**
 * spec 3 §2 Activity: operations of a scope (organization, environment, app, ...), filtered by resource
 * type, operation type and status through the query string, polled every 10 s, last 2 weeks only.
 */
export function ActivityTable({
  listPath,
  resourceLink,
  resourceTypes = RESOURCE_TYPE_OPTIONS,
  label = 'Activity',
}: ActivityTableProps) {
  const { filters, page, after, set } = useActivityQuery();
  // The server keeps only the last 2 weeks (useOperations sends `since`), so every page is full.
  const list = useOperations(listPath, page, filters, after);
  // While the next page loads, the one on screen is the page before's: its cursor is not this page's.
  const nextAfter = list.isPlaceholderData ? null : (list.data?.nextAfter ?? null);
  // Next starts where this page ends (the server's cursor); a jump or Previous asks by page number.
  const goToPage = (next: number) =>
    set({ page: String(next), after: next === page + 1 && nextAfter ? nextAfter : null });
  const pageCount = Math.max(
    1,
    Math.ceil((list.data?.totalCount ?? 0) / (list.data?.perPage ?? SERVER_PAGE_SIZE_DEFAULT)),
  );
  const columns: DataTableColumn<Operation>[] = [
    {
      id: 'type',
      header: 'Type',
      cell: (operation) => <Link to={to.operation(operation.id)}>{operation.type}</Link>,
    },
    {
      id: 'status',
      header: 'Status',
      cell: (operation) => <OperationStatusBadge status={operation.status} />,
    },
    { id: 'resource', header: 'Resource', cell: resourceLink },
    { id: 'user', header: 'User', cell: (operation) => operation.userName || operation.userEmail || '-' },
    {
      id: 'time',
      header: 'Time',
      cell: (operation) =>
        isOperationPending(operation.status) ? (
          <ElapsedTime since={operation.createdAt} />
        ) : (
          formatDateTime(operation.createdAt)
        ),
    },
    { id: 'note', header: 'Note', cell: (operation) => operation.note },
    {
      id: 'actions',
      header: 'Actions',
      headerHidden: true,
      cell: (operation) => <RerunButton operation={operation} />,
    },
  ];

  return (
    <div className="stack-gap">
      <div className="activity-filters">
        <FilterSelect
          label="Resource type"
          value={filters.resourceType}
          options={resourceTypes}
          labelOf={operationResourceLabel}
          onChange={(value) => set({ resource_type: value, page: null, after: null })}
        />
        <FilterSelect
          label="Operation type"
          value={filters.operationType}
          options={OPERATION_TYPE_OPTIONS}
          onChange={(value) => set({ operation_type: value, page: null, after: null })}
        />
        <FilterSelect
          label="Status"
          value={filters.operationStatus}
          options={OPERATION_STATUSES}
          labelOf={operationStatusLabel}
          onChange={(value) => set({ operation_status: value, page: null, after: null })}
        />
      </div>
      <Banner variant="info">Showing operations from the last 2 weeks.</Banner>
      <DataTable
        label={label}
        rows={list.data?.operations ?? []}
        columns={columns}
        isLoading={list.isPending}
        error={list.error}
        serverPaging={{
          page,
          pageCount,
          pageCountEstimated: list.data?.totalEstimated,
          onPageChange: goToPage,
        }}
      />
    </div>
  );
}
