import { billingMessages } from '@berth/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { billingDetailHal, stripeSourceHal } from '../../../../test/billing-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, roleHal, TEST_CONFIG } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { clearToasts } from '../../../components/ui/toast.tsx';
import { STRIPE_JS_URL } from '../../../features/billing/components/stripe-card.tsx';
import { setRuntimeConfig } from '../../../lib/config.ts';

function stripeServer() {
  signIn();
  setRuntimeConfig({ ...TEST_CONFIG, payments: 'stripe', stripePublishableKey: 'pk_test_berth' });
  return mockServer({
    ...consoleRoutes({ roles: [roleHal({ type: 'owner' })] }),
    'GET /billing/billing_details/org-1': () => json(200, billingDetailHal({ paymentMethod: false })),
    'POST /billing/billing_details/org-1/stripe_sources': () => json(201, stripeSourceHal({ id: 'src-7' })),
    'PATCH /billing/billing_details/org-1': () => json(200, billingDetailHal()),
    'GET /api/plans': () => json(200, collection('plans', [])),
    'GET /api/active_plans': () => json(200, collection('active_plans', [])),
  });
}

/** Stripe.js as the page would have it once loaded: a card element and createToken. */
function fakeStripe(answer: { token?: { id: string }; error?: { message?: string } }) {
  const card = { mount: vi.fn(), destroy: vi.fn() };
  const createToken = vi.fn(async () => answer);
  const factory = vi.fn(() => ({ elements: () => ({ create: () => card }), createToken }));
  vi.stubGlobal('Stripe', factory);
  return { card, createToken, factory };
}

async function fillAddress() {
  const fill = async (name: string, value: string) => {
    const field = screen.getByRole('textbox', { name });
    await userEvent.clear(field);
    await userEvent.type(field, value);
  };
  await fill('Name on card', 'Ada Lovelace');
  await fill('Street address', '1 Harbour Road');
  await fill('City', 'Portland');
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'State / province / district' }), 'OR');
  await fill('Zip code', '97201');
}

afterEach(() => {
  clearToasts();
  setRuntimeConfig(TEST_CONFIG);
  vi.unstubAllGlobals();
  for (const script of document.head.querySelectorAll('script[src^="https://js.stripe.com"]'))
    script.remove();
});

describe('Add payment information with Stripe (spec 1 §7)', () => {
  it('loads Stripe.js with advanced fraud signals off when the page has none', async () => {
    stripeServer();
    renderApp('/billing');
    await screen.findByRole('form', { name: 'Add payment information' });
    await waitFor(() =>
      expect(document.head.querySelector('script[src^="https://js.stripe.com"]')).toHaveAttribute(
        'src',
        STRIPE_JS_URL,
      ),
    );
    expect(STRIPE_JS_URL).toContain('advancedFraudSignals=false');
    expect(screen.queryByRole('textbox', { name: 'Card token' })).not.toBeInTheDocument();
  });

  it('makes the card token with Stripe.js and adds it as the payment method', async () => {
    const stripe = fakeStripe({ token: { id: 'tok_1Berth' } });
    const server = stripeServer();
    renderApp('/billing');
    await screen.findByRole('form', { name: 'Add payment information' });
    await waitFor(() => expect(stripe.card.mount).toHaveBeenCalledWith(screen.getByTestId('stripe-card')));
    // The card field is named like the form's other fields.
    expect(screen.getByRole('group', { name: 'Card' })).toContainElement(screen.getByTestId('stripe-card'));
    expect(stripe.factory).toHaveBeenCalledWith('pk_test_berth');
    await fillAddress();
    await userEvent.click(screen.getByRole('button', { name: 'Add payment method' }));
    expect(await screen.findByText(billingMessages.cardAdded)).toBeInTheDocument();
    expect(stripe.createToken).toHaveBeenCalledWith(stripe.card, {
      name: 'Ada Lovelace',
      address_line1: '1 Harbour Road',
      address_line2: '',
      address_city: 'Portland',
      address_state: 'OR',
      address_zip: '97201',
      address_country: 'US',
    });
    expect(server.callsTo('POST', '/billing/billing_details/org-1/stripe_sources')[0]?.body).toEqual({
      stripe_token_id: 'tok_1Berth',
    });
  });

  it("shows Stripe's message when it refuses the card, or 'unknown'", async () => {
    fakeStripe({ error: { message: 'Your card number is incomplete.' } });
    const server = stripeServer();
    renderApp('/billing');
    await screen.findByRole('form', { name: 'Add payment information' });
    await fillAddress();
    await userEvent.click(screen.getByRole('button', { name: 'Add payment method' }));
    expect(await screen.findByText('Your card number is incomplete.')).toBeInTheDocument();
    expect(server.callsTo('POST', '/billing/billing_details/org-1/stripe_sources')).toHaveLength(0);
  });
});
