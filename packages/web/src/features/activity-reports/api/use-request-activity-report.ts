import type { ActivityReportResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { activityReportKeys } from './activity-report-keys.ts';

/** POST /accounts/:id/activity_reports: a report of the last 7 days, made by the server in a moment. */
export function useRequestActivityReport(environmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<ActivityReportResource>(
        'api',
        `/accounts/${encodeURIComponent(environmentId)}/activity_reports`,
        { method: 'POST', body: {} },
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: activityReportKeys.ofEnvironment(environmentId) });
    },
  });
}
