import {
  type SizingPolicyBody,
  type SizingPolicyResource,
  type SizingRecommendationResource,
  scalingLabel,
} from '@berth/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { allPages } from '../../../lib/all-pages.ts';
import { apiRequest, isApiError } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { startupPaths } from '../../../lib/startup-paths.ts';
import { serviceKeys } from '../../../resources/services/service-keys.ts';
import {
  fromSizingPolicyResource,
  fromSizingRecommendationResource,
  type SizingPolicy,
  type SizingRecommendation,
  sizingKeys,
} from '../../../resources/sizing/sizing.hal.ts';

const policyPath = (serviceId: string) =>
  `/services/${encodeURIComponent(serviceId)}/service_sizing_policies`;

/** contract §7 step 7: every sizing policy the caller can see (whole: it follows the pages). */
export function useSizingPolicies() {
  const { phase } = useSession();
  return useQuery({
    queryKey: sizingKeys.policies(),
    queryFn: async ({ signal }): Promise<SizingPolicy[]> =>
      (
        await allPages<SizingPolicyResource>(
          'api',
          startupPaths.sizingPolicies,
          'service_sizing_policies',
          signal,
        )
      ).map(fromSizingPolicyResource),
    enabled: phase === 'authenticated',
  });
}

/** contract §7 step 7: the newest sizing recommendation of each service the caller can see. */
export function useSizingRecommendations() {
  const { phase } = useSession();
  return useQuery({
    queryKey: sizingKeys.recommendations(),
    queryFn: async ({ signal }): Promise<SizingRecommendation[]> =>
      (
        await allPages<SizingRecommendationResource>(
          'api',
          startupPaths.sizingRecommendations,
          'manual_service_sizing_recommendations',
          signal,
        )
      ).map(fromSizingRecommendationResource),
    enabled: phase === 'authenticated',
  });
}

/** contract §5.7 GET /services/:id/service_sizing_policies: the service's own policy, null when it has none. */
export function useServicePolicy(serviceId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: sizingKeys.policyOf(serviceId),
    enabled: options.enabled !== false,
    queryFn: async ({ signal }): Promise<SizingPolicy | null> => {
      try {
        return fromSizingPolicyResource(
          await apiRequest<SizingPolicyResource>('api', policyPath(serviceId), { signal }),
        );
      } catch (error) {
        // contract §9 item 5: 404 is how the server says the service has no policy.
        if (isApiError(error) && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/** POST a new policy, or PUT over the one the service has (contract §5.7); DELETE at the singular path. */
export function useSaveServicePolicy(serviceId: string) {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: sizingKeys.all });
    // The service's link to its policy changes with it.
    void queryClient.invalidateQueries({ queryKey: serviceKeys.all });
  };
  const save = useMutation({
    mutationFn: async (input: { exists: boolean; body: SizingPolicyBody }) =>
      fromSizingPolicyResource(
        await apiRequest<SizingPolicyResource>('api', policyPath(serviceId), {
          method: input.exists ? 'PUT' : 'POST',
          body: input.body,
        }),
      ),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () =>
      apiRequest('api', `/services/${encodeURIComponent(serviceId)}/service_sizing_policy`, {
        method: 'DELETE',
      }),
    onSuccess: refresh,
  });
  return { save, remove };
}

/**
 * spec 2 §4: the Scaling Recommendations label of a service, from the start-up lists of policies and
 * recommendations (a service with autoscaling on reads Autoscaling).
 */
export function useScalingLabels() {
  const policies = useSizingPolicies();
  const recommendations = useSizingRecommendations();
  const autoscaled = useMemo(
    () =>
      new Set(
        (policies.data ?? []).filter((policy) => policy.fields.scaling_enabled).map((p) => p.serviceId),
      ),
    [policies.data],
  );
  const byService = useMemo(
    () =>
      new Map(
        (recommendations.data ?? []).map((recommendation) => [recommendation.serviceId, recommendation]),
      ),
    [recommendations.data],
  );
  return useCallback(
    (service: { id: string; instanceClass: string; containerMemoryMb: number }) =>
      scalingLabel(service, byService.get(service.id), autoscaled.has(service.id)),
    [autoscaled, byService],
  );
}
