import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  type AuditEventCollection,
  type AuditEventResource,
  activitySince,
  auditSubject,
  isAuditAction,
  OPERATION_STATUSES,
  type OperationCollection,
  operationStatusLabel,
  SERVER_PAGE_SIZE_DEFAULT,
} from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ALL_ACTIONS, auditPagePath } from '../../../features/audit-events/api/audit-event-filters.ts';
import {
  ALL,
  activityPagePath,
  NO_OPERATION_FILTERS,
} from '../../../features/operations/api/operation-filters.ts';
import { OperationStatusBadge } from '../../../features/operations/components/operation-status-badge.tsx';
import { apiRequest } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { embeddedList } from '../../../lib/hal.ts';
import {
  decodePositions,
  encodePositions,
  type ListPage,
  type ListPosition,
  mergePage,
} from '../../../lib/merge-paged-lists.ts';
import { to } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromOperationResource, type Operation } from '../../../resources/operations/operation.hal.ts';
import { OperationResourceLink } from '../operations/operation-resource-link.tsx';
import './all-activity.css';

/** A row of the merged list: an operation or an audit event, said in its first cell. */
type ActivityRow =
  | { id: string; kind: 'operation'; time: number; operation: Operation }
  | { id: string; kind: 'audit'; time: number; event: AuditEventResource };

const FIRST: ListPosition = { after: null };
const nextAfterOf = (href: string | undefined) =>
  href ? new URL(href, window.location.origin).searchParams.get('after') : null;

function positiveInt(value: string | null): number {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : 1;
}

/**
 * Issue 41: Activity's "All" view, operations and audit events merged newest first. The console merges
 * the two server-paged lists by their own next links (lib/merge-paged-lists.ts): each request is one page
 * of one list, a merged page of 40 reads one or two pages of each, and Next carries both lists'
 * positions in the query string (`at`). Both lists keep Activity's 2-week window (spec 3 §9), so the
 * merge reads one period; a filter of one kind says so and leaves the other kind whole.
 */
export function AllActivity({ organizationId }: { organizationId: string | null }) {
  const { phase } = useSession();
  const [params, setParams] = useSearchParams();
  const operationStatus = params.get('operation_status') || ALL;
  const action = params.get('action') || ALL_ACTIONS;
  const page = positiveInt(params.get('page'));
  const start = (page > 1 ? decodePositions(params.get('at'), 2) : null) ?? [FIRST, FIRST];
  // The window is fixed when the view opens, so a page's query (and its cache key) stays the same.
  const [now] = useState(() => Date.now());
  // The start of each page seen, for Previous (a page reached by a link alone goes back to the first).
  const starts = useRef(new Map<number, string>());
  const statusId = useId();
  const actionId = useId();

  const query = useQuery({
    queryKey: ['activity-all', organizationId, now, operationStatus, action, encodePositions(start)],
    queryFn: async ({ signal }) => {
      const totals = { operations: 0, audit: 0 };
      const readOperations = async (after: string | null): Promise<ListPage<ActivityRow>> => {
        const path = activityPagePath(
          `/organizations/${organizationId}/operations`,
          after ? 2 : 1,
          { ...NO_OPERATION_FILTERS, operationStatus },
          now,
          after,
        );
        const list = await apiRequest<OperationCollection>('api', path, { signal });
        if (!after) totals.operations = list.total_count ?? 0;
        return {
          rows: embeddedList(list, 'operations').map((resource) => {
            const operation = fromOperationResource(resource);
            return {
              id: `operation-${operation.id}`,
              kind: 'operation' as const,
              // The list is sorted by update time (and id): the merge orders and resumes by the same.
              time: Date.parse(operation.updatedAt),
              operation,
            };
          }),
          nextAfter: nextAfterOf(list._links.next?.href),
        };
      };
      const readAudit = async (after: string | null): Promise<ListPage<ActivityRow>> => {
        const path = `${auditPagePath(organizationId ?? '', after ? 2 : 1, { action, actor: '' }, after)}&since=${encodeURIComponent(activitySince(now))}`;
        const list = await apiRequest<AuditEventCollection>('api', path, { signal });
        if (!after) totals.audit = list.total_count ?? 0;
        return {
          rows: embeddedList(list, 'audit_events').map((event) => ({
            id: `audit-${event.id}`,
            kind: 'audit' as const,
            time: Date.parse(event.created_at),
            event,
          })),
          nextAfter: nextAfterOf(list._links.next?.href),
        };
      };
      const timeOf = (row: ActivityRow) => row.time;
      // The cursor a next link carries after the row (the time a list is sorted by, then the id), so the
      // next merged page starts right after the last row shown (timestamps carry milliseconds, §1.8).
      const cursorOf = (row: ActivityRow) =>
        `${row.time}.${row.kind === 'operation' ? row.operation.id : row.event.id}`;
      const merged = await mergePage(
        [
          { start: start[0] ?? null, readPage: readOperations, timeOf, cursorOf },
          { start: start[1] ?? null, readPage: readAudit, timeOf, cursorOf },
        ],
        SERVER_PAGE_SIZE_DEFAULT,
      );
      return { ...merged, total: totals.operations + totals.audit };
    },
    enabled: phase === 'authenticated' && organizationId !== null,
    placeholderData: (previous) => previous,
  });

  // The total is read with the first page (a later page reads on from cursors): kept for the pages after.
  const total = useRef<number | null>(null);
  if (page === 1 && query.data && !query.isPlaceholderData) total.current = query.data.total;
  const next = query.isPlaceholderData ? null : (query.data?.next ?? null);
  const hasNext = next?.some((position) => position !== null) ?? false;
  const knownPages = Math.max(1, Math.ceil((total.current ?? 0) / SERVER_PAGE_SIZE_DEFAULT));
  const pageCount = hasNext ? Math.max(knownPages, page + 1) : page;

  const set = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const updated = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === ALL) updated.delete(key);
        else updated.set(key, value);
      }
      return updated;
    });
  const goToPage = (target: number) => {
    if (target === page + 1 && next && hasNext) {
      const at = encodePositions(next);
      starts.current.set(target, at);
      set({ page: String(target), at });
      return;
    }
    const known = starts.current.get(target);
    if (target > 1 && known) set({ page: String(target), at: known });
    else set({ page: null, at: null });
  };
  const filter = (changes: Record<string, string>) => {
    starts.current.clear();
    set({ ...changes, page: null, at: null });
  };

  const columns: DataTableColumn<ActivityRow>[] = [
    {
      id: 'kind',
      header: 'Kind',
      cell: (row) => (
        <span className={row.kind === 'operation' ? 'badge badge-primary' : 'badge'}>
          {row.kind === 'operation' ? 'Operation' : 'Audit event'}
        </span>
      ),
    },
    {
      id: 'what',
      header: 'What',
      cell: (row) =>
        row.kind === 'operation' ? (
          <span className="activity-kind-cell">
            <Link to={to.operation(row.operation.id)}>{row.operation.type}</Link>
            <OperationStatusBadge status={row.operation.status} />
          </span>
        ) : isAuditAction(row.event.action) ? (
          AUDIT_ACTION_LABELS[row.event.action]
        ) : (
          row.event.action
        ),
    },
    {
      id: 'resource',
      header: 'Resource',
      cell: (row) =>
        row.kind === 'operation' ? (
          <OperationResourceLink operation={row.operation} />
        ) : (
          auditSubject(row.event)
        ),
    },
    {
      id: 'detail',
      header: 'Detail',
      cell: (row) => (row.kind === 'operation' ? row.operation.note : row.event.detail),
    },
    {
      id: 'user',
      header: 'User',
      cell: (row) =>
        row.kind === 'operation'
          ? row.operation.userName || row.operation.userEmail || '-'
          : row.event.actor_email || 'Berth',
    },
    { id: 'time', header: 'Time', cell: (row) => formatDateTime(new Date(row.time).toISOString()) },
  ];

  return (
    <div className="stack-gap">
      <p className="muted">Operations and audit events of the last 2 weeks, newest first.</p>
      <div className="activity-filters">
        <div className="field">
          <label className="field-label" htmlFor={statusId}>
            Operation status (operations only)
          </label>
          <select
            id={statusId}
            className="select"
            value={operationStatus}
            onChange={(event) => filter({ operation_status: event.target.value })}
          >
            <option value={ALL}>All</option>
            {OPERATION_STATUSES.map((status) => (
              <option key={status} value={status}>
                {operationStatusLabel(status)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={actionId}>
            Event (audit events only)
          </label>
          <select
            id={actionId}
            className="select"
            value={action}
            onChange={(event) => filter({ action: event.target.value })}
          >
            <option value={ALL_ACTIONS}>All</option>
            {AUDIT_ACTIONS.map((name) => (
              <option key={name} value={name}>
                {AUDIT_ACTION_LABELS[name]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <DataTable
        label="All activity"
        rows={query.data?.rows ?? []}
        columns={columns}
        isLoading={query.isPending}
        error={query.error}
        serverPaging={{ page, pageCount, onPageChange: goToPage }}
      />
    </div>
  );
}
