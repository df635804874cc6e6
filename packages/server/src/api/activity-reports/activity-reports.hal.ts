import type { ActivityReportKind, ActivityReportResource, ActivityReportStatus } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import { iso, links } from '../../http/hal.ts';
import type { ActivityReportRow } from './activity-reports.service.ts';

export function toActivityReportHal(report: ActivityReportRow, urls: FamilyUrls): ActivityReportResource {
  const self = `${urls.api}/activity_reports/${report.id}`;
  return {
    id: String(report.id),
    _type: 'activity_report',
    starts_at: iso(report.startsAt),
    ends_at: iso(report.endsAt),
    filename: report.filename,
    status: report.status as ActivityReportStatus,
    kind: report.kind as ActivityReportKind,
    operation_count: report.operationCount,
    ready_at: iso(report.readyAt),
    created_at: iso(report.createdAt),
    updated_at: iso(report.updatedAt),
    _links: links({
      self,
      account: `${urls.api}/accounts/${report.environmentId}`,
      download: `${self}/download`,
    }),
  };
}
