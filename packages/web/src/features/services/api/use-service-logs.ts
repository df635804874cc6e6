import type { ServiceLogsBody } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { serviceKeys } from '../../../resources/services/service-keys.ts';

/** How often a followed log is read again. */
export const LOG_FOLLOW_MS = 5000;

/** GET /services/:id/logs?tail=N (a Berth addition): the newest lines, read again while `follow`. */
export function useServiceLogs(id: string, tail: number, options: { follow: boolean; enabled: boolean }) {
  return useQuery({
    queryKey: serviceKeys.logs(id, tail),
    queryFn: async ({ signal }) =>
      (
        await apiRequest<ServiceLogsBody>('api', `/services/${encodeURIComponent(id)}/logs?tail=${tail}`, {
          signal,
        })
      ).lines,
    enabled: options.enabled,
    refetchInterval: options.follow ? LOG_FOLLOW_MS : false,
  });
}
