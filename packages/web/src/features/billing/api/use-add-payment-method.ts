import type { BillingDetailResource, StripeSourceResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { billingDetailPath, fromBillingDetailResource, type PaymentDetails } from './billing.ts';
import { billingKeys } from './billing-keys.ts';

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
        billingDetailPath(billingDetailId, '/stripe_sources'),
        {
          method: 'POST',
          body: { stripe_token_id: token },
        },
      );
      const updated = await apiRequest<BillingDetailResource>('billing', billingDetailPath(billingDetailId), {
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
