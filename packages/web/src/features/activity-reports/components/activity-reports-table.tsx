import type { ActivityReportResource } from '@berth/core';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { downloadActivityReport } from '../api/download-activity-report.ts';
import { useActivityReports } from '../api/use-activity-reports.ts';
import { useRequestActivityReport } from '../api/use-request-activity-report.ts';
import './activity-reports.css';

/** The report's window as days: its end is excluded, so the last day shown is the one before it. */
function windowOf(report: ActivityReportResource): string {
  const day = (iso: string) => iso.slice(0, 10);
  const lastMoment = new Date(Date.parse(report.ends_at) - 1).toISOString();
  return `${day(report.starts_at)} to ${day(lastMoment)}`;
}

export interface ActivityReportsProps {
  environmentId: string;
  page: number;
  onPageChange: (page: number) => void;
  /** Why the caller may not ask for a report (the spec's tooltip text), or null. */
  requestDenial: string | null;
}

/**
 * The environment's Activity Reports tab (spec 2 §2 /activity_reports): its weekly reports, and those
 * asked for on demand, server-paged newest first (spec 2 §9), each downloadable as CSV.
 */
export function ActivityReports({ environmentId, page, onPageChange, requestDenial }: ActivityReportsProps) {
  const reports = useActivityReports(environmentId, page);
  const request = useRequestActivityReport(environmentId);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const pageCount = Math.max(1, Math.ceil((reports.data?.totalCount ?? 0) / (reports.data?.perPage || 1)));

  const columns: DataTableColumn<ActivityReportResource>[] = [
    {
      id: 'window',
      header: 'Period (UTC)',
      cell: (report) => <span className="cell-strong activity-report-period">{windowOf(report)}</span>,
    },
    { id: 'kind', header: 'Type', cell: (report) => (report.kind === 'weekly' ? 'Weekly' : 'On demand') },
    {
      id: 'operations',
      header: 'Operations',
      align: 'right',
      cell: (report) => (report.status === 'ready' ? String(report.operation_count) : '-'),
    },
    { id: 'created', header: 'Created At', cell: (report) => formatDateTime(report.created_at) },
    {
      id: 'download',
      header: 'Download',
      headerHidden: true,
      cell: (report) =>
        report.status === 'ready' ? (
          <Button
            size="sm"
            variant="secondary"
            aria-label={`Download ${report.filename}`}
            onClick={() => {
              setDownloadError(null);
              downloadActivityReport(report.id, report.filename).catch((error: unknown) =>
                setDownloadError(messageOf(error)),
              );
            }}
          >
            Download CSV
          </Button>
        ) : report.status === 'failed' ? (
          <span className="status-pill status-pill-error">Failed</span>
        ) : (
          <span className="status-pill status-pill-progress">Preparing</span>
        ),
    },
  ];

  return (
    <div className="activity-report-stack">
      <p className="activity-report-intro">
        Each report lists the environment's operations of its period: who asked for what, when, and how it
        ended. Weekly reports cover Monday to Sunday (UTC) and are made after the week ends; Make a report now
        covers the last 7 days.
      </p>
      {request.isError ? <Banner variant="error">{messageOf(request.error)}</Banner> : null}
      {downloadError ? <Banner variant="error">{downloadError}</Banner> : null}
      <DataTable
        label="Activity reports"
        rows={reports.data?.reports ?? []}
        columns={columns}
        isLoading={reports.isPending}
        error={reports.error}
        serverPaging={{ page, pageCount, onPageChange }}
        toolbar={
          <ScopedButton
            size="sm"
            denial={requestDenial}
            loading={request.isPending}
            onClick={() => request.mutate()}
          >
            Make a report now
          </ScopedButton>
        }
      />
    </div>
  );
}
