import type { HomeResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromHomeResource } from '../../../resources/home/home.hal.ts';
import { homeKeys } from './home-keys.ts';

/**
 * GET /organizations/:id/home: the home dashboard in one request. It counts across the organization, so
 * it is not polled: each visit (and a return to the tab) reads it again, showing the last answer meanwhile.
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
    staleTime: 0,
  });
}
