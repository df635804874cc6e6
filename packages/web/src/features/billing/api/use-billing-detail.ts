import type { BillingDetailResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { billingDetailPath, fromBillingDetailResource } from './billing.ts';
import { billingKeys } from './billing-keys.ts';

/** contract §7 step 4: the selected organization's billing detail (none when it has no `billing_detail` link). */
export function useBillingDetail(billingDetailId: string | null) {
  const { phase } = useSession();
  return useQuery({
    queryKey: billingKeys.detail(billingDetailId ?? ''),
    queryFn: async ({ signal }) =>
      fromBillingDetailResource(
        await apiRequest<BillingDetailResource>('billing', billingDetailPath(billingDetailId ?? ''), {
          signal,
        }),
      ),
    enabled: phase === 'authenticated' && !!billingDetailId,
  });
}
