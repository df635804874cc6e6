import type { ActivePlanResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromActivePlanResource } from './billing.ts';
import { billingKeys } from './billing-keys.ts';

/** contract §5.12 GET /active_plans?organization_id: the plan in force, or null (the legacy plan). */
export function useActivePlan(organizationId: string | null, options: { enabled?: boolean } = {}) {
  const { phase } = useSession();
  return useQuery({
    queryKey: billingKeys.activePlan(organizationId ?? ''),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<{ _embedded?: { active_plans?: ActivePlanResource[] } }>(
        'api',
        `/active_plans?organization_id=${encodeURIComponent(organizationId ?? '')}`,
        { signal },
      );
      const [active] = embeddedList(list, 'active_plans');
      return active ? fromActivePlanResource(active) : null;
    },
    enabled: phase === 'authenticated' && !!organizationId && options.enabled !== false,
  });
}
