import { type HomeResource, POLL_INTERVAL_MS } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromHomeResource } from '../../../resources/home/home.hal.ts';
import { homeKeys } from './home-keys.ts';

/**
 * GET /organizations/:id/home: the home dashboard in one request. Its latest activities are an operation
 * list, so it is read again as those are (spec 3 §4: every 10 s, paused while the tab is hidden).
 */
export function useHome(organizationId: string | null) {
  const { phase } = useSession();
  return useQuery({
    queryKey: homeKeys.detail(organizationId ?? ''),
    queryFn: async ({ signal }) =>
      fromHomeResource(
        await apiRequest<HomeResource>(
          'api',
          `/organizations/${encodeURIComponent(organizationId ?? '')}/home`,
          { signal },
        ),
      ),
    enabled: phase === 'authenticated' && !!organizationId,
    refetchInterval: POLL_INTERVAL_MS.operationList,
    refetchIntervalInBackground: false,
  });
}
