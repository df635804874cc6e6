import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  type AuditEventResource,
  auditSubject,
  isAuditAction,
  SERVER_PAGE_SIZE_DEFAULT,
} from '@berth/core';
import { type FormEvent, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { ALL_ACTIONS, type AuditEventFilters } from '../api/audit-event-filters.ts';
import { exportAuditEvents } from '../api/export-audit-events.ts';
import { useAuditEvents } from '../api/use-audit-events.ts';
import './audit-events.css';

function positiveInt(value: string | null): number {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : 1;
}

/** The filters and page of the audit list, kept in the query string so a reload or a link keeps them. */
function useAuditQuery() {
  const [params, setParams] = useSearchParams();
  const filters: AuditEventFilters = {
    action: params.get('action') || ALL_ACTIONS,
    actor: params.get('actor') ?? '',
  };
  const page = positiveInt(params.get('page'));
  // Set only by Next, from the page before's next link; any other move drops it.
  const after = page > 1 ? params.get('after') : null;
  const set = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === '' || value === ALL_ACTIONS) next.delete(key);
        else next.set(key, value);
      }
      return next;
    });
  return { filters, page, after, set };
}

const actionLabel = (action: string) => (isAuditAction(action) ? AUDIT_ACTION_LABELS[action] : action);

/**
 * Issue 41: an organization's audit events (who changed members, roles, permissions, tokens, single
 * sign-on, and created apps and environments), filterable by action and actor, exported as a file.
 */
export function AuditEventsTable({ organizationId }: { organizationId: string | null }) {
  const { filters, page, after, set } = useAuditQuery();
  const list = useAuditEvents(organizationId, page, filters, after);
  const actionId = useId();
  const actorId = useId();
  const formatId = useId();
  const [actor, setActor] = useState(filters.actor);
  const [format, setFormat] = useState<'csv' | 'jsonl'>('csv');
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const nextAfter = list.isPlaceholderData ? null : (list.data?.nextAfter ?? null);
  const goToPage = (next: number) =>
    set({ page: String(next), after: next === page + 1 && nextAfter ? nextAfter : null });
  const pageCount = Math.max(
    1,
    Math.ceil((list.data?.totalCount ?? 0) / (list.data?.perPage ?? SERVER_PAGE_SIZE_DEFAULT)),
  );

  const applyActor = (event: FormEvent) => {
    event.preventDefault();
    set({ actor: actor.trim(), page: null, after: null });
  };
  const runExport = () => {
    if (!organizationId) return;
    setExporting(true);
    setExportError(null);
    exportAuditEvents(organizationId, filters, format)
      .catch((error: unknown) => setExportError(error instanceof Error ? error.message : String(error)))
      .finally(() => setExporting(false));
  };

  const columns: DataTableColumn<AuditEventResource>[] = [
    { id: 'action', header: 'Event', cell: (event) => actionLabel(event.action) },
    { id: 'resource', header: 'Resource', cell: (event) => auditSubject(event) },
    { id: 'detail', header: 'Detail', cell: (event) => event.detail },
    { id: 'user', header: 'User', cell: (event) => event.actor_email || 'Berth' },
    { id: 'address', header: 'Address', cell: (event) => event.ip_address ?? '-' },
    { id: 'time', header: 'Time', cell: (event) => formatDateTime(event.created_at) },
  ];

  return (
    <div className="stack-gap">
      <div className="activity-filters">
        <div className="field">
          <label className="field-label" htmlFor={actionId}>
            Event
          </label>
          <select
            id={actionId}
            className="select"
            value={filters.action}
            onChange={(event) => set({ action: event.target.value, page: null, after: null })}
          >
            <option value={ALL_ACTIONS}>All</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {AUDIT_ACTION_LABELS[action]}
              </option>
            ))}
          </select>
        </div>
        <form className="field" onSubmit={applyActor}>
          <label className="field-label" htmlFor={actorId}>
            User e-mail
          </label>
          <span className="audit-inline">
            <input
              id={actorId}
              className="input"
              type="email"
              maxLength={254}
              value={actor}
              onChange={(event) => setActor(event.target.value)}
            />
            <Button type="submit" variant="secondary">
              Filter
            </Button>
          </span>
        </form>
        <div className="field">
          <label className="field-label" htmlFor={formatId}>
            Export format
          </label>
          <span className="audit-inline">
            <select
              id={formatId}
              className="select"
              value={format}
              onChange={(event) => setFormat(event.target.value === 'jsonl' ? 'jsonl' : 'csv')}
            >
              <option value="csv">CSV</option>
              <option value="jsonl">JSON lines</option>
            </select>
            <Button
              type="button"
              variant="secondary"
              onClick={runExport}
              disabled={exporting || !organizationId}
            >
              {exporting ? 'Exporting…' : 'Export'}
            </Button>
          </span>
        </div>
      </div>
      {exportError ? <Banner variant="error">{exportError}</Banner> : null}
      <DataTable
        label="Audit events"
        rows={list.data?.events ?? []}
        columns={columns}
        isLoading={list.isPending}
        error={list.error}
        serverPaging={{ page, pageCount, onPageChange: goToPage }}
      />
    </div>
  );
}
