import type { StripeSourceResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { allPages } from '../../../lib/all-pages.ts';
import { useSession } from '../../../lib/session-store.ts';
import { billingDetailPath, fromStripeSourceResource } from './billing.ts';
import { billingKeys } from './billing-keys.ts';

/** contract §7 step 9: the billing detail's payment sources. */
export function usePaymentSources(billingDetailId: string | null) {
  const { phase } = useSession();
  return useQuery({
    queryKey: billingKeys.sources(billingDetailId ?? ''),
    queryFn: async ({ signal }) =>
      (
        await allPages<StripeSourceResource>(
          'billing',
          billingDetailPath(billingDetailId ?? '', '/stripe_sources'),
          'stripe_sources',
          signal,
        )
      ).map(fromStripeSourceResource),
    enabled: phase === 'authenticated' && !!billingDetailId,
  });
}
