import { z } from 'zod';
import { boundedString } from '../text/bounded-string.ts';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';

/**
 * spec 1 §4/§8 and contract §4.2/§5.5: billing details, payment sources and trials, each text written
 * once; where the spec shows none, Berth's own wording.
 */
export const billingMessages = {
  /** spec 1 §8: a payment failure shows the card provider's message, or this. */
  paymentFailedUnknown: 'unknown',
  /** spec 1 §8 success toast once a card is added. */
  cardAdded: 'Successfully added stripe payment method!',
  stateRequired: 'state / province / district is required',
  invalidZip: 'invalid zip code',
  cardTokenRequired: 'A card token (stripe_token_id) is required',
  /** spec 1 §6: billing is the Account Owner's and the Billing Only Owner's. */
  billingOwnersOnly: 'You must be an account owner or billing owner to manage billing.',
  /** spec 1 §6: invoices are the Account Owner's and the Billing Only Owner's (the spec gives no text). */
  invoicesOwnersOnly: 'You must be an account owner or billing owner to view invoices.',
  paymentMethodNotFound: 'The payment method must be an active payment source of this billing detail',
  billingDetailIdMismatch: 'The billing detail id must be the organization id',
  providerUnavailable: 'The card provider could not be reached. Try again in a moment.',
  paymentsOff: 'Payments are off on this installation (BERTH_PAYMENTS=none): no card is needed',
  detailsTooLong: tooLongMessage('organization_details_json', 16 * 1024),
} as const;

/**
 * The longest `organization_details_json` a billing detail keeps, as JSON text: the console's keys are
 * kept whatever they are, and each change adds to them, so the whole is bounded rather than each key.
 */
export const MAX_ORGANIZATION_DETAILS_LENGTH = 16 * 1024;

const addressField = (label: string, max: number = MAX_LENGTH.text) =>
  boundedString(max, { tooLong: tooLongMessage(label, max) }).trim();
const requiredAddressField = (label: string, max: number = MAX_LENGTH.text) =>
  addressField(label, max).min(1, `${label} must not be empty`);

/** The US and its N/A state choice (spec 1 §3 static lists). */
export const NO_STATE = 'N/A';

/** spec 1 §4: 5 digits, or 5+4. */
export function isUsZipCode(value: string): boolean {
  return /^\d{5}(-\d{4})?$/.test(value.slice(0, 10));
}

/**
 * The billing address the console writes into `organization_details_json.billing_address` (contract
 * §4.2), held to the payment form's rules (spec 1 §4): street address, city, country and zip code
 * required; in the US a state and a 5 or 5+4 digit zip code.
 */
export const billingAddress = z
  .looseObject({
    street_one: requiredAddressField('Street address'),
    street_two: addressField('Street address line 2').optional(),
    city: requiredAddressField('City'),
    state: addressField('State').optional(),
    post_code: requiredAddressField('Zip code', 20),
    country: requiredAddressField('Country', 2),
  })
  .superRefine((address, context) => {
    if (address.country.toUpperCase() !== 'US') return;
    if (!address.state || address.state === NO_STATE) {
      context.addIssue({ code: 'custom', path: ['state'], message: billingMessages.stateRequired });
    }
    if (!isUsZipCode(address.post_code)) {
      context.addIssue({ code: 'custom', path: ['post_code'], message: billingMessages.invalidZip });
    }
  });
export type BillingAddress = z.infer<typeof billingAddress>;

/** Free-form details (contract §4.2): `name` and `billing_address` are checked, other keys kept as sent. */
export const organizationDetailsJson = z.looseObject({
  name: addressField('Name').optional(),
  billing_address: billingAddress.optional(),
});

/** `POST /billing_details` (contract §5.5): `{id: <org id>, organization_details_json: {name}}`. */
export const billingDetailCreateInput = z.looseObject({
  id: boundedString(MAX_LENGTH.id, { required: 'id must not be empty' })
    .trim()
    .min(1, 'id must not be empty'),
  organization_details_json: organizationDetailsJson.nullish(),
});
export type BillingDetailCreateInput = z.infer<typeof billingDetailCreateInput>;

/** `PATCH /billing_details/:id` (contract §5.5): the payment method (a stripe source URL) and the details. */
export const billingDetailUpdateInput = z.looseObject({
  payment_method: boundedString(MAX_LENGTH.reference).trim().min(1).nullish(),
  organization_details_json: organizationDetailsJson.nullish(),
});
export type BillingDetailUpdateInput = z.infer<typeof billingDetailUpdateInput>;

/** `POST /billing_details/:id/stripe_sources` (contract §5.5): a card token from the provider's script. */
export const stripeSourceCreateInput = z.looseObject({
  stripe_token_id: boundedString(MAX_LENGTH.code, { required: billingMessages.cardTokenRequired })
    .trim()
    .min(1, billingMessages.cardTokenRequired),
});
export type StripeSourceCreateInput = z.infer<typeof stripeSourceCreateInput>;

/** spec 1 §7: a trial is active while now is between range_begin and range_end. */
export function isTrialActive(trial: { range_begin: string; range_end: string }, now: Date): boolean {
  const at = now.getTime();
  return Date.parse(trial.range_begin) <= at && at <= Date.parse(trial.range_end);
}

/**
 * spec 1 §7 and contract §4.2: the trial notice ("add a payment method", with its countdown) shows while
 * a trial is active and no payment source is: the end of that trial, or null when no notice is due.
 */
export function trialExpiryWarning(
  trials: readonly { range_begin: string; range_end: string }[],
  sources: readonly { deactivated_at: string | null }[],
  now: Date,
): { endsAt: string } | null {
  if (sources.some((source) => source.deactivated_at === null)) return null;
  const active = trials.filter((trial) => isTrialActive(trial, now));
  if (active.length === 0) return null;
  const last = active.reduce((a, b) => (Date.parse(a.range_end) >= Date.parse(b.range_end) ? a : b));
  return { endsAt: last.range_end };
}
