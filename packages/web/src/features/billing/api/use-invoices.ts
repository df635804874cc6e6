import type { InvoiceCollection } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { pagesByNextLink } from '../../../lib/all-pages.ts';
import { useSession } from '../../../lib/session-store.ts';
import { billingDetailPath, fromInvoiceResource } from './billing.ts';
import { billingKeys } from './billing-keys.ts';

/**
 * Issue 37: GET /billing_details/:id/invoices, every page of them (the list is paged: its `next` link is
 * followed), and the portal link the Invoices screen frames.
 */
export function useInvoices(billingDetailId: string | null, options: { enabled?: boolean } = {}) {
  const { phase } = useSession();
  return useQuery({
    queryKey: billingKeys.invoices(billingDetailId ?? ''),
    queryFn: async ({ signal }) => {
      const pages = await pagesByNextLink<InvoiceCollection>(
        'billing',
        billingDetailPath(billingDetailId ?? '', '/invoices'),
        signal,
      );
      return {
        invoices: pages.flatMap((page) => page._embedded.invoices.map(fromInvoiceResource)),
        portalUrl: pages[0]?._links.portal?.href ?? null,
      };
    },
    // The portal link is good for an hour: read anew each time the screen opens.
    staleTime: 0,
    enabled: phase === 'authenticated' && !!billingDetailId && options.enabled !== false,
  });
}
