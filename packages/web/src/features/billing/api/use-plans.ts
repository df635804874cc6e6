import { MAX_PAGE_SIZE, type PlanResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { allPages } from '../../../lib/all-pages.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromPlanResource } from './billing.ts';
import { billingKeys } from './billing-keys.ts';

/** contract §5.12 GET /plans. */
export function usePlans(options: { enabled?: boolean } = {}) {
  const { phase } = useSession();
  return useQuery({
    queryKey: billingKeys.plans,
    queryFn: async ({ signal }) =>
      (await allPages<PlanResource>('api', `/plans?per_page=${MAX_PAGE_SIZE}`, 'plans', signal)).map(
        fromPlanResource,
      ),
    enabled: phase === 'authenticated' && options.enabled !== false,
  });
}
