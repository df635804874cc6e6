/**
 * The payment providers behind BERTH_PAYMENTS (README "Payments"): `none` charges nobody and needs no
 * provider (each billing detail carries a free source, billing.service.ts); `local` and `stripe` keep
 * customers and their cards. The billing service talks to them through this interface only.
 */
export type PaymentsMode = 'none' | 'local' | 'stripe';

/** A card the provider keeps for a customer: what Berth stores of it (never the card number). */
export interface ProviderCard {
  /** The provider's id of the card (Stripe's `card_…`). */
  externalId: string;
  /** "Visa ending in 4242". */
  description: string;
  /** Brand, funding, last four digits and expiry, as the provider tells them. */
  metadata: Record<string, unknown>;
}

export interface PaymentProvider {
  readonly mode: Exclude<PaymentsMode, 'none'>;
  /**
   * A customer for an organization. Asked again with the same `requestKey` (two tabs, a retry), the same
   * customer; a new key (the organization's last customer was deleted) makes a new one.
   */
  createCustomer(organization: { id: string; name: string }, requestKey: string): Promise<string>;
  /**
   * Keeps the card behind a card token (made by Stripe.js in the console) for the customer.
   * PaymentRefused when the card provider refuses the token or the card, with its message.
   */
  attachCard(customerId: string, cardToken: string): Promise<ProviderCard>;
}

/** What a provider's event (a Stripe webhook) means for the payment sources; others are acknowledged and left. */
export type PaymentEvent =
  | { kind: 'card_removed'; externalId: string }
  | { kind: 'card_updated'; card: ProviderCard }
  | { kind: 'customer_removed'; customerId: string }
  | { kind: 'other'; type: string };

/** The card provider refused a card or a token: its message is shown to the payer as it is (spec 1 §8). */
export class PaymentRefused extends Error {
  constructor(
    message: string,
    /** The provider's code (`card_declined`, `resource_missing`, …). */
    readonly code: string,
    /** 402 for a refused card, 422 for a token it does not know. */
    readonly status: 402 | 422,
  ) {
    super(message);
    this.name = 'PaymentRefused';
  }
}

/** The card provider did not answer or failed on its side: nothing was kept, the payer may try again. */
export class PaymentProviderUnavailable extends Error {
  constructor(readonly reason: string) {
    super(`The card provider could not be reached: ${reason}`);
    this.name = 'PaymentProviderUnavailable';
  }
}

/** "Visa ending in 4242", as the console lists a card. */
export function cardDescription(brand: string, last4: string): string {
  return `${brand} ending in ${last4}`;
}
