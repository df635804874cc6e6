import { randomBytes } from 'node:crypto';
import {
  cardDescription,
  type PaymentProvider,
  PaymentRefused,
  type ProviderCard,
} from './payment-provider.ts';

/** A test card behind one of Stripe's documented test tokens. */
interface TestCard {
  brand: string;
  funding: 'credit' | 'debit';
  last4: string;
}

/**
 * Stripe's documented test tokens (docs "Testing": tokens), and what Stripe answers when one is
 * attached to a customer: a card, or the card error its declining cards give.
 */
const TEST_CARDS: Record<string, TestCard> = {
  tok_visa: { brand: 'Visa', funding: 'credit', last4: '4242' },
  tok_visa_debit: { brand: 'Visa', funding: 'debit', last4: '5556' },
  tok_mastercard: { brand: 'MasterCard', funding: 'credit', last4: '4444' },
  tok_mastercard_debit: { brand: 'MasterCard', funding: 'debit', last4: '8210' },
  tok_amex: { brand: 'American Express', funding: 'credit', last4: '8431' },
};
const DECLINES: Record<string, { code: string; message: string }> = {
  tok_chargeDeclined: { code: 'card_declined', message: 'Your card was declined.' },
  tok_chargeDeclinedInsufficientFunds: {
    code: 'card_declined',
    message: 'Your card has insufficient funds.',
  },
  tok_chargeDeclinedExpiredCard: { code: 'expired_card', message: 'Your card has expired.' },
  tok_chargeDeclinedIncorrectCvc: {
    code: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
  tok_chargeDeclinedProcessingError: {
    code: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
};

/**
 * BERTH_PAYMENTS=local: the whole payment flow as with Stripe, with nothing charged and no account
 * anywhere. It takes Stripe's test tokens (what Stripe.js gives for its test card numbers in test
 * mode) and refuses any other token as Stripe refuses an unknown one.
 */
export function createLocalPaymentProvider(): PaymentProvider {
  return {
    mode: 'local',

    async createCustomer(organization) {
      // One customer per organization, whoever asks and however often.
      return `cus_local_${organization.id.replaceAll('-', '')}`;
    },

    async attachCard(_customerId, cardToken): Promise<ProviderCard> {
      const decline = Object.hasOwn(DECLINES, cardToken) ? DECLINES[cardToken] : undefined;
      if (decline) throw new PaymentRefused(decline.message, decline.code, 402);
      const card = Object.hasOwn(TEST_CARDS, cardToken) ? TEST_CARDS[cardToken] : undefined;
      if (!card) {
        throw new PaymentRefused(`No such token: '${cardToken.slice(0, 100)}'`, 'resource_missing', 422);
      }
      const now = new Date();
      return {
        externalId: `card_local_${randomBytes(12).toString('hex')}`,
        description: cardDescription(card.brand, card.last4),
        // Stripe's test cards take any future expiry; Stripe.js test tokens carry a year ahead.
        metadata: {
          brand: card.brand,
          funding: card.funding,
          last4: card.last4,
          exp_month: now.getUTCMonth() + 1,
          exp_year: now.getUTCFullYear() + 1,
        },
      };
    },
  };
}
