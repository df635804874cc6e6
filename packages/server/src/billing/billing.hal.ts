import type { BillingDetailResource, StripeSourceResource, TrialResource } from '@berth/core';
import type { FamilyUrls } from '../config.ts';
import { iso, links } from '../http/hal.ts';
import type { BillingDetailView, PaymentSourceView, TrialRow } from './billing.service.ts';

export const billingDetailHref = (urls: FamilyUrls, id: string) => `${urls.billing}/billing_details/${id}`;
export const stripeSourceHref = (urls: FamilyUrls, id: string) => `${urls.billing}/stripe_sources/${id}`;

/** Contract §4.2 billing_detail: `payment_method` only while it has one (its absence sends pages to Plans). */
export function toBillingDetailHal(
  view: BillingDetailView,
  urls: FamilyUrls,
  invoicePortalUrl: string | null,
): BillingDetailResource {
  const { row } = view;
  const self = billingDetailHref(urls, row.id);
  return {
    id: row.id,
    _type: 'billing_detail',
    organization_details_json: view.organizationDetails,
    invoiced_externally: false,
    external_invoice_portal_url: invoicePortalUrl,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    _links: links({
      self,
      organization: `${urls.auth}/organizations/${row.id}`,
      stripe_sources: `${self}/stripe_sources`,
      trials: `${self}/trials`,
      payment_method: view.paymentMethodId ? stripeSourceHref(urls, view.paymentMethodId) : null,
    }),
  };
}

/** Contract §4.2 stripe_source; members without billing access see whether it is active, not which card it is. */
export function toStripeSourceHal(view: PaymentSourceView, urls: FamilyUrls): StripeSourceResource {
  const { row, detailed } = view;
  return {
    id: row.id,
    _type: 'stripe_source',
    deactivated_at: iso(row.deactivatedAt),
    description: detailed ? row.description : '',
    stripe_token_id: detailed ? row.stripeTokenId : '',
    stripe_type: row.stripeType,
    stripe_metadata: detailed ? (row.metadata ?? null) : null,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    _links: links({
      self: stripeSourceHref(urls, row.id),
      billing_detail: billingDetailHref(urls, row.billingDetailId),
    }),
  };
}

export function toTrialHal(row: TrialRow, urls: FamilyUrls): TrialResource {
  return {
    id: row.id,
    _type: 'trial',
    range_begin: iso(row.rangeBegin),
    range_end: iso(row.rangeEnd),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    _links: links({
      self: `${urls.billing}/trials/${row.id}`,
      billing_detail: billingDetailHref(urls, row.billingDetailId),
    }),
  };
}
