import { type CostResource, MAX_PAGE_SIZE } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { allPages } from '../../../lib/all-pages.ts';
import { useSession } from '../../../lib/session-store.ts';
import { type CostList, costsById } from '../../../resources/costs/cost.hal.ts';
import { costKeys } from '../../../resources/costs/cost-keys.ts';

/** contract §5.12 GET /costs/:orgId/{list}: one estimated monthly cost per resource of the organization. */
export function useCosts(organizationId: string | null, list: CostList, options: { enabled?: boolean } = {}) {
  const { phase } = useSession();
  return useQuery({
    queryKey: costKeys.list(organizationId ?? '', list),
    queryFn: async ({ signal }) => {
      return costsById(
        await allPages<CostResource>(
          'api',
          `/costs/${encodeURIComponent(organizationId ?? '')}/${list}?per_page=${MAX_PAGE_SIZE}`,
          'costs',
          signal,
        ),
      );
    },
    enabled: phase === 'authenticated' && !!organizationId && options.enabled !== false,
  });
}
