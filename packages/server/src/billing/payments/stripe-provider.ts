import Stripe from 'stripe';
import {
  cardDescription,
  type PaymentEvent,
  type PaymentProvider,
  PaymentProviderUnavailable,
  PaymentRefused,
  type ProviderCard,
} from './payment-provider.ts';

export interface StripeSettings {
  /** STRIPE_SECRET_KEY: `sk_live_…` or `sk_test_…`. */
  secretKey: string;
  /** STRIPE_WEBHOOK_SECRET: the `whsec_…` of the webhook endpoint, which signs each event. */
  webhookSecret: string;
  /** BERTH_STRIPE_API_URL: Stripe's API, or a stand-in speaking its protocol (stripe-mock, tests). */
  apiUrl: string;
}

export interface StripePaymentProvider extends PaymentProvider {
  readonly mode: 'stripe';
  /** The event of a webhook delivery; throws StripeSignatureVerificationError when its signature fails. */
  webhookEvent(payload: Buffer, signature: string): PaymentEvent;
}

function providerCard(card: Stripe.Card): ProviderCard {
  return {
    externalId: card.id,
    description: cardDescription(card.brand, card.last4),
    metadata: {
      brand: card.brand,
      funding: card.funding,
      last4: card.last4,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
    },
  };
}

function isCard(source: { object?: string }): source is Stripe.Card {
  return source.object === 'card';
}

/** Stripe's failures as the billing service knows them: the card provider's own message when it refused. */
function translated(error: unknown): Error {
  if (error instanceof Stripe.errors.StripeCardError) {
    return new PaymentRefused(error.message, error.code ?? 'card_declined', 402);
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    return new PaymentRefused(error.message, error.code ?? 'invalid_request', 422);
  }
  if (error instanceof Stripe.errors.StripeError) return new PaymentProviderUnavailable(error.message);
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * BERTH_PAYMENTS=stripe, through the `stripe` package: a customer per organization, and card sources
 * made from the card tokens Stripe.js gives the console. Webhook deliveries are read only once their
 * signature (STRIPE_WEBHOOK_SECRET) holds.
 */
export function createStripePaymentProvider(settings: StripeSettings): StripePaymentProvider {
  const api = new URL(settings.apiUrl);
  const protocol = api.protocol === 'http:' ? 'http' : 'https';
  const stripe = new Stripe(settings.secretKey, {
    // Node's request takes an IPv6 address without the brackets a URL writes it with.
    host: api.hostname.startsWith('[') ? api.hostname.slice(1, -1) : api.hostname,
    port: api.port || (protocol === 'http' ? 80 : 443),
    protocol,
    // A card attached twice is harmless (idempotency keys below), a lost answer is not: one retry.
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
  });

  return {
    mode: 'stripe',

    async createCustomer(organization, requestKey) {
      try {
        const customer = await stripe.customers.create(
          { name: organization.name.slice(0, 256), metadata: { berth_organization_id: organization.id } },
          // The same organization asking twice (two tabs, a retry) gets the one customer.
          { idempotencyKey: `berth-customer-${requestKey}` },
        );
        return customer.id;
      } catch (error) {
        throw translated(error);
      }
    },

    async attachCard(customerId, cardToken) {
      let source: Stripe.CustomerSource;
      try {
        source = await stripe.customers.createSource(customerId, { source: cardToken });
      } catch (error) {
        throw translated(error);
      }
      if (!isCard(source)) {
        throw new PaymentRefused('Only cards can be added as a payment method', 'unsupported_source', 422);
      }
      return providerCard(source);
    },

    webhookEvent(payload, signature) {
      const event = stripe.webhooks.constructEvent(payload, signature, settings.webhookSecret);
      const object = event.data.object as { object?: string; id?: string };
      switch (event.type) {
        case 'customer.source.deleted':
          return isCard(object)
            ? { kind: 'card_removed', externalId: object.id }
            : { kind: 'other', type: event.type };
        case 'customer.source.updated':
          return isCard(object)
            ? { kind: 'card_updated', card: providerCard(object) }
            : { kind: 'other', type: event.type };
        case 'customer.deleted':
          return { kind: 'customer_removed', customerId: String(object.id) };
        default:
          return { kind: 'other', type: event.type };
      }
    },
  };
}
