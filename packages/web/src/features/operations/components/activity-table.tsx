import {
  canRerunOperation,
  isActionName,
  isOperationPending,
  OPERATION_RESOURCE_TYPES,
  OPERATION_STATUSES,
  OPERATION_TYPE_NAMES,
  SERVER_PAGE_SIZE_DEFAULT,
} from '@berth/core';
import { type ReactNode, useId } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { NO_RESOURCES_FOUND } from '../../../components/ui/data-table.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useActionDenials } from '../../../lib/use-action-denial.ts';
import { ALL, type Operation, type OperationFilters } from '../api/operation.hal.ts';
import { useOperations } from '../api/use-operations.ts';
import { useRerunOperation } from '../api/use-rerun-operation.ts';
import { ElapsedTime } from './elapsed-time.tsx';
import { OperationResourceLink } from './operation-resource-link.tsx';
import { OperationStatusBadge } from './operation-status-badge.tsx';
import './operations.css';

/** The resource types operations act on (core's catalog): what the resource filter offers by default. */
export const RESOURCE_TYPE_OPTIONS: readonly string[] = OPERATION_RESOURCE_TYPES;

/** Every operation type of the catalog: a scope's list may hold its resources' neighbours' (an app's endpoints). */
export const OPERATION_TYPE_OPTIONS = OPERATION_TYPE_NAMES;

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
  const set = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === ALL) next.delete(key);
        else next.set(key, value);
      }
      return next;
    });
  return { filters, page, set };
}

export interface ActivityTableProps {
  /** A server-paged operation list (contract §5.11), e.g. `/organizations/{id}/operations`. */
  listPath: string | null;
  /** The resource types worth filtering by in this scope. */
  resourceTypes?: readonly string[];
  label?: string;
}

function FilterSelect({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly string[];
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
            {option}
          </option>
        ))}
      </select>
    </div>
  );
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
  return (
    <span>
      <ScopedButton
        denial={denial}
        variant="secondary"
        size="sm"
        loading={rerun.isPending}
        aria-label={`Re-run ${operation.type} of ${operation.resourceHandle}`}
        onClick={() =>
          rerun.mutate(operation, {
            // spec 2 §4: operation flows end on the operation's page.
            onSuccess: (next) => navigate(`/operations/${next.id}`),
          })
        }
      >
        Re-run
      </ScopedButton>
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
  resourceTypes = RESOURCE_TYPE_OPTIONS,
  label = 'Activity',
}: ActivityTableProps) {
  const { filters, page, set } = useActivityQuery();
  // The server keeps only the last 2 weeks (useOperations sends `since`), so every page is full.
  const list = useOperations(listPath, page, filters);
  const rows = list.data?.operations ?? [];
  const pageCount = Math.max(
    1,
    Math.ceil((list.data?.totalCount ?? 0) / (list.data?.perPage ?? SERVER_PAGE_SIZE_DEFAULT)),
  );

  let body: ReactNode;
  if (list.isError) {
    body = (
      <tr>
        <td colSpan={7} className="table-empty">
          Error: {list.error.message}
        </td>
      </tr>
    );
  } else if (list.isPending) {
    body = (
      <tr>
        <td colSpan={7} className="table-empty">
          <Spinner label="Loading activity" />
        </td>
      </tr>
    );
  } else if (rows.length === 0) {
    body = (
      <tr>
        <td colSpan={7} className="table-empty">
          {NO_RESOURCES_FOUND}
        </td>
      </tr>
    );
  } else {
    body = rows.map((operation) => {
      return (
        <tr key={operation.id}>
          <td>
            <Link to={`/operations/${operation.id}`}>{operation.type}</Link>
          </td>
          <td>
            <OperationStatusBadge status={operation.status} />
          </td>
          <td>
            <OperationResourceLink operation={operation} />
          </td>
          <td>{operation.userName || operation.userEmail || '-'}</td>
          <td>
            {isOperationPending(operation.status) ? (
              <ElapsedTime since={operation.createdAt} />
            ) : (
              formatDateTime(operation.createdAt)
            )}
          </td>
          <td>{operation.note}</td>
          <td>
            <RerunButton operation={operation} />
          </td>
        </tr>
      );
    });
  }

  return (
    <div className="stack-gap">
      <div className="activity-filters">
        <FilterSelect
          label="Resource type"
          value={filters.resourceType}
          options={resourceTypes}
          onChange={(value) => set({ resource_type: value, page: null })}
        />
        <FilterSelect
          label="Operation type"
          value={filters.operationType}
          options={OPERATION_TYPE_OPTIONS}
          onChange={(value) => set({ operation_type: value, page: null })}
        />
        <FilterSelect
          label="Status"
          value={filters.operationStatus}
          options={OPERATION_STATUSES}
          onChange={(value) => set({ operation_status: value, page: null })}
        />
      </div>
      <Banner variant="info">Showing operations from the last 2 weeks.</Banner>
      <div className="card">
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">{label}</caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Resource</th>
                <th scope="col">User</th>
                <th scope="col">Time</th>
                <th scope="col">Note</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>{body}</tbody>
          </table>
        </div>
        {pageCount > 1 ? (
          <nav className="table-pager" aria-label="Pagination">
            <span>
              Page {Math.min(page, pageCount)} of {pageCount}
            </span>
            <Button
              variant="secondary"
              size="sm"
              disabled={page <= 1}
              onClick={() => set({ page: String(page - 1) })}
            >
              Previous
            </Button>
            <Button
              variant="secondary"
              size="sm"
              disabled={page >= pageCount}
              onClick={() => set({ page: String(page + 1) })}
            >
              Next
            </Button>
          </nav>
        ) : null}
      </div>
    </div>
  );
}
