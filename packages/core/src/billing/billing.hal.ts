import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp, isoTimestampOrNull } from '../hal/hal.ts';

/**
 * Contract §4.2 billing_detail: its id is the organization's; a `payment_method` link means "has a
 * payment method" (without it the console sends every app page to Plans).
 */
export const billingDetailResource = z
  .strictObject({
    id: halId,
    _type: z.literal('billing_detail'),
    organization_details_json: z.record(z.string(), z.unknown()).nullable(),
    /** spec 1 §3: invoiced outside Berth, with the portal the Invoices screen frames. */
    invoiced_externally: z.boolean(),
    external_invoice_portal_url: z.string().nullable(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'organization', 'stripe_sources', 'trials'], ['payment_method']),
  })
  .meta({ id: 'BillingDetail' });
export type BillingDetailResource = z.infer<typeof billingDetailResource>;

/** Contract §4.2 stripe_source: a card (or the free source of BERTH_PAYMENTS=none); null `deactivated_at` = active. */
export const stripeSourceResource = z
  .strictObject({
    id: halId,
    _type: z.literal('stripe_source'),
    deactivated_at: isoTimestampOrNull,
    description: z.string(),
    stripe_token_id: z.string(),
    stripe_type: z.string(),
    stripe_metadata: z.record(z.string(), z.unknown()).nullable(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'billing_detail']),
  })
  .meta({ id: 'StripeSource' });
export type StripeSourceResource = z.infer<typeof stripeSourceResource>;

export const stripeSourceCollection = halCollection('stripe_sources', stripeSourceResource).meta({
  id: 'StripeSourceCollection',
});
export type StripeSourceCollection = z.infer<typeof stripeSourceCollection>;

/** Contract §4.2 trial: active while now is within `range_begin`..`range_end`. */
export const trialResource = z
  .strictObject({
    id: halId,
    _type: z.literal('trial'),
    range_begin: isoTimestamp,
    range_end: isoTimestamp,
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'billing_detail']),
  })
  .meta({ id: 'Trial' });
export type TrialResource = z.infer<typeof trialResource>;

export const trialCollection = halCollection('trials', trialResource).meta({ id: 'TrialCollection' });
export type TrialCollection = z.infer<typeof trialCollection>;
