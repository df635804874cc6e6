import { billingMessages } from '@berth/core';
import { useEffect, useRef, useState } from 'react';
import type { PaymentDetails } from '../api/billing.ts';
import './billing.css';

/** spec 1 §7: the card provider's script, loaded with advanced fraud signals off. */
export const STRIPE_JS_URL = 'https://js.stripe.com/v3/?advancedFraudSignals=false';

interface StripeCardElement {
  mount(element: HTMLElement): void;
  destroy(): void;
}

interface StripeTokenAnswer {
  token?: { id: string };
  error?: { message?: string };
}

interface StripeInstance {
  elements(): { create(type: 'card'): StripeCardElement };
  createToken(card: StripeCardElement, data: Record<string, string>): Promise<StripeTokenAnswer>;
}

type StripeFactory = (publishableKey: string) => StripeInstance;

let loading: Promise<StripeFactory> | null = null;

/** Adds Stripe.js to the page once; the console never loads it unless payments go through Stripe. */
function loadStripeJs(): Promise<StripeFactory> {
  const existing = (window as unknown as { Stripe?: StripeFactory }).Stripe;
  if (existing) return Promise.resolve(existing);
  loading ??= new Promise<StripeFactory>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = STRIPE_JS_URL;
    script.async = true;
    script.onload = () => {
      const factory = (window as unknown as { Stripe?: StripeFactory }).Stripe;
      if (factory) resolve(factory);
      else reject(new Error('The card provider could not be loaded.'));
    };
    script.onerror = () => {
      loading = null;
      reject(new Error('The card provider could not be loaded.'));
    };
    document.head.append(script);
  });
  return loading;
}

/**
 * The card field of Stripe Elements, and a way to turn what was typed into a card token (with the
 * billing address, so the provider can check it). Failures carry the card provider's message, or
 * 'unknown' (spec 1 §8).
 */
export function useStripeCard(publishableKey: string | null) {
  // The field's element once it is on the page (the form shows after the billing detail has loaded).
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const stripe = useRef<{ instance: StripeInstance; card: StripeCardElement } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    if (!publishableKey || !element) return;
    let cancelled = false;
    loadStripeJs()
      .then((factory) => {
        if (cancelled) return;
        const instance = factory(publishableKey);
        const card = instance.elements().create('card');
        card.mount(element);
        stripe.current = { instance, card };
      })
      .catch((error: unknown) => setLoadError(error instanceof Error ? error.message : String(error)));
    return () => {
      cancelled = true;
      stripe.current?.card.destroy();
      stripe.current = null;
    };
  }, [publishableKey, element]);

  async function createToken(details: PaymentDetails): Promise<string> {
    if (!stripe.current) throw new Error('Card fields are missing: the card provider has not loaded.');
    const answer = await stripe.current.instance.createToken(stripe.current.card, {
      name: details.nameOnCard,
      address_line1: details.address1,
      address_line2: details.address2,
      address_city: details.city,
      address_state: details.state,
      address_zip: details.zipcode,
      address_country: details.country,
    });
    if (answer.token) return answer.token.id;
    throw new Error(answer.error?.message || billingMessages.paymentFailedUnknown);
  }

  const field = (
    // Laid out as the form's other fields; the card provider's frame names its own inputs inside the group.
    <fieldset className="field stripe-card-field">
      <legend className="field-label">Card</legend>
      <div ref={setElement} className="input stripe-card" data-testid="stripe-card" />
      {loadError ? (
        <p className="field-error" role="alert">
          {loadError}
        </p>
      ) : null}
    </fieldset>
  );
  return { field, createToken };
}
