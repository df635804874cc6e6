import {
  type ActivePlanResource,
  type BillingDetailResource,
  type InvoiceCollection,
  MAX_PAGE_SIZE,
  type PlanResource,
  type StripeSourceResource,
  type TrialResource,
} from '@berth/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { allPages } from '../../../lib/all-pages.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import {
  fromActivePlanResource,
  fromBillingDetailResource,
  fromInvoiceResource,
  fromPlanResource,
  fromStripeSourceResource,
  fromTrialResource,
} from './billing.ts';
import { billingKeys } from './billing-keys.ts';

const path = (billingDetailId: string, rest = '') =>
  `/billing_details/${encodeURIComponent(billingDetailId)}${rest}`;

/** contract §7 step 4: the selected organization's billing detail (none when it has no `billing_detail` link). */
export function useBillingDetail(billingDetailId: string | null) {
  const { phase } = useSession();
  return useQuery({
    queryKey: billingKeys.detail(billingDetailId ?? ''),
    queryFn: async ({ signal }) =>
      fromBillingDetailResource(
        await apiRequest<BillingDetailResource>('billing', path(billingDetailId ?? ''), { signal }),
      ),
    enabled: phase === 'authenticated' && !!billingDetailId,
  });
}

/** contract §7 step 9: the billing detail's payment sources. */
export function usePaymentSources(billingDetailId: string | null) {
  const { phase } = useSession();
  return useQuery({
    queryKey: billingKeys.sources(billingDetailId ?? ''),
    queryFn: async ({ signal }) =>
      (
        await allPages<StripeSourceResource>(
          'billing',
          path(billingDetailId ?? '', '/stripe_sources'),
          'stripe_sources',
          signal,
        )
      ).map(fromStripeSourceResource),
    enabled: phase === 'authenticated' && !!billingDetailId,
  });
}

/** contract §7 step 9: the billing detail's trials. */
export function useTrials(billingDetailId: string | null) {
  const { phase } = useSession();
  return useQuery({
    queryKey: billingKeys.trials(billingDetailId ?? ''),
    queryFn: async ({ signal }) =>
      (
        await allPages<TrialResource>('billing', path(billingDetailId ?? '', '/trials'), 'trials', signal)
      ).map(fromTrialResource),
    enabled: phase === 'authenticated' && !!billingDetailId,
  });
}

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

/** contract §5.12 PUT /active_plans/:id with plan_id; the plan and every limit-bound list read again. */
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

export interface PaymentDetails {
  nameOnCard: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  zipcode: string;
  country: string;
}

/**
 * spec 1 §7: POST /billing_details/:id/stripe_sources with the card token, then PATCH the billing detail
 * with it as `payment_method` and the billing address (keeping the keys already there).
 */
export function useAddPaymentMethod(billingDetailId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      token,
      details,
      existing,
    }: {
      token: string;
      details: PaymentDetails;
      existing: Record<string, unknown>;
    }) => {
      const source = await apiRequest<StripeSourceResource>(
        'billing',
        path(billingDetailId, '/stripe_sources'),
        {
          method: 'POST',
          body: { stripe_token_id: token },
        },
      );
      const updated = await apiRequest<BillingDetailResource>('billing', path(billingDetailId), {
        method: 'PATCH',
        body: {
          payment_method: source._links.self.href,
          organization_details_json: {
            ...existing,
            billing_address: {
              street_one: details.address1,
              street_two: details.address2,
              city: details.city,
              state: details.state,
              post_code: details.zipcode,
              country: details.country,
            },
          },
        },
      });
      return fromBillingDetailResource(updated);
    },
    onSuccess: (detail) => {
      queryClient.setQueryData(billingKeys.detail(detail.id), detail);
      void queryClient.invalidateQueries({ queryKey: billingKeys.sources(detail.id) });
    },
  });
}

/** Issue 37: GET /billing_details/:id/invoices, the invoices and the portal link the Invoices screen frames. */
export function useInvoices(billingDetailId: string | null, options: { enabled?: boolean } = {}) {
  const { phase } = useSession();
  return useQuery({
    queryKey: billingKeys.invoices(billingDetailId ?? ''),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<InvoiceCollection>('billing', path(billingDetailId ?? '', '/invoices'), {
        signal,
      });
      return {
        invoices: list._embedded.invoices.map(fromInvoiceResource),
        portalUrl: list._links.portal?.href ?? null,
      };
    },
    // The portal link is good for an hour: read anew each time the screen opens.
    staleTime: 0,
    enabled: phase === 'authenticated' && !!billingDetailId && options.enabled !== false,
  });
}
