import type { TrialResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { allPages } from '../../../lib/all-pages.ts';
import { useSession } from '../../../lib/session-store.ts';
import { billingDetailPath, fromTrialResource } from './billing.ts';
import { billingKeys } from './billing-keys.ts';

/** contract §7 step 9: the billing detail's trials. */
export function useTrials(billingDetailId: string | null) {
  const { phase } = useSession();
  return useQuery({
    queryKey: billingKeys.trials(billingDetailId ?? ''),
    queryFn: async ({ signal }) =>
      (
        await allPages<TrialResource>(
          'billing',
          billingDetailPath(billingDetailId ?? '', '/trials'),
          'trials',
          signal,
        )
      ).map(fromTrialResource),
    enabled: phase === 'authenticated' && !!billingDetailId,
  });
}
