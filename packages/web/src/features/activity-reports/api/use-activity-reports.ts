import {
  type ActivityReportCollection,
  type ActivityReportResource,
  SERVER_PAGE_SIZE_DEFAULT,
} from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { activityReportKeys } from './activity-report-keys.ts';

/** How often a page with a report still being made is read again. */
const PENDING_POLL_MS = 3_000;

/** One server page of an environment's reports, with what the pager needs (contract §1.4). */
async function fetchReportPage(environmentId: string, page: number, signal: AbortSignal) {
  const list = await apiRequest<ActivityReportCollection>(
    'api',
    `/accounts/${encodeURIComponent(environmentId)}/activity_reports?page=${page}`,
    { signal },
  );
  const reports: ActivityReportResource[] = embeddedList(list, 'activity_reports');
  return {
    reports,
    totalCount: list.total_count ?? reports.length,
    // contract §1.4: the pager falls back to 40 when per_page is missing.
    perPage: list.per_page || SERVER_PAGE_SIZE_DEFAULT,
  };
}

export type ActivityReportPage = Awaited<ReturnType<typeof fetchReportPage>>;

/** contract §5.6 GET /accounts/:id/activity_reports?page=N, newest first; read again while one is made. */
export function useActivityReports(environmentId: string, page: number) {
  const { phase } = useSession();
  return useQuery({
    queryKey: activityReportKeys.page(environmentId, page),
    queryFn: ({ signal }) => fetchReportPage(environmentId, page, signal),
    enabled: phase === 'authenticated' && environmentId !== '',
    placeholderData: (previous) => previous,
    refetchInterval: (query) =>
      query.state.data?.reports.some((report) => report.status === 'pending') ? PENDING_POLL_MS : false,
  });
}
