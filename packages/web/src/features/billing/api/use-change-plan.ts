import type { ActivePlanResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromActivePlanResource } from './billing.ts';
import { billingKeys } from './billing-keys.ts';

/** contract §5.12 PUT /active_plans/:id with plan_id; the plan in force is the answer. */
export function useChangePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ activePlanId, planId }: { activePlanId: string; planId: string }) => {
      const answer = await apiRequest<
        ActivePlanResource | { _embedded: { active_plan: ActivePlanResource } }
      >('api', `/active_plans/${encodeURIComponent(activePlanId)}`, {
        method: 'PUT',
        body: { plan_id: planId },
      });
      // contract §8.6: the bare active plan, or one wrapped in `_embedded`.
      return fromActivePlanResource('_embedded' in answer ? answer._embedded.active_plan : answer);
    },
    onSuccess: (active) => {
      queryClient.setQueryData(billingKeys.activePlan(active.organizationId), active);
    },
  });
}
