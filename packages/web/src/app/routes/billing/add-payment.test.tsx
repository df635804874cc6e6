import { billingMessages } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { billingDetailHal, stripeSourceHal } from '../../../../test/billing-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, errorBody, roleHal, TEST_CONFIG } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { clearToasts } from '../../../components/ui/toast.tsx';
import { setRuntimeConfig } from '../../../lib/config.ts';

function paymentServer({
  roleType = 'owner',
  refuse,
}: {
  roleType?: string;
  refuse?: { status: number; body: unknown };
} = {}) {
  signIn();
  let detail = billingDetailHal({ paymentMethod: false });
  return mockServer({
    ...consoleRoutes({ roles: [roleHal({ type: roleType })] }),
    'GET /billing/billing_details/org-1': () => json(200, detail),
    'GET /billing/billing_details/org-1/stripe_sources': () => json(200, collection('stripe_sources', [])),
    'POST /billing/billing_details/org-1/stripe_sources': () =>
      refuse ? json(refuse.status, refuse.body) : json(201, stripeSourceHal({ id: 'src-9' })),
    'PATCH /billing/billing_details/org-1': () => {
      detail = billingDetailHal({ paymentMethod: true });
      return json(200, detail);
    },
    'GET /api/plans': () => json(200, collection('plans', [])),
    'GET /api/active_plans': () => json(200, collection('active_plans', [])),
  });
}

const form = () => screen.findByRole('form', { name: 'Add payment information' });
const field = (name: string) => screen.getByRole('textbox', { name });
const choice = (name: string) => screen.getByRole('combobox', { name });
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Add payment method' }));

/** The spec's static lists are selects (spec 1 §3): the state by its code, the country by its code. */
const SELECTS = new Set(['State / province / district', 'Country']);

async function fillCard(values: Partial<Record<string, string>> = {}) {
  const all = {
    'Name on card': 'Ada Lovelace',
    'Card token': 'tok_visa',
    'Street address': '12 St James Square',
    City: 'London',
    'State / province / district': 'NY',
    'Zip code': '10001',
    ...values,
  };
  for (const [label, value = ''] of Object.entries(all)) {
    if (SELECTS.has(label)) {
      await userEvent.selectOptions(choice(label), value);
      continue;
    }
    await userEvent.clear(field(label));
    if (value) await userEvent.type(field(label), value);
  }
}

afterEach(() => {
  clearToasts();
  setRuntimeConfig(TEST_CONFIG);
});

describe('Add payment information (spec 1 §2 /billing)', () => {
  it("requires zip code, name on card, street address, city and country with spec 1 §5's message, and focuses the first", async () => {
    const server = paymentServer();
    renderApp('/billing');
    await form();
    await userEvent.selectOptions(choice('Country'), '');
    await submit();
    for (const message of [
      'Name on card must not be empty',
      'Street address must not be empty',
      'City must not be empty',
      'Zip code must not be empty',
      'Country must not be empty',
      billingMessages.cardTokenRequired,
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(field('Name on card')).toHaveFocus();
    expect(field('Name on card')).toHaveAccessibleDescription(
      expect.stringContaining('Name on card must not be empty'),
    );
    expect(server.callsTo('POST', '/billing/billing_details/org-1/stripe_sources')).toHaveLength(0);
  });

  it("offers spec 1 §3's static lists: the US states and territories with N/A first, and the countries by code", async () => {
    paymentServer();
    renderApp('/billing');
    await form();
    const states = within(choice('State / province / district')).getAllByRole('option');
    expect(states[0]).toHaveTextContent('N/A');
    expect(states.map((option) => option.getAttribute('value'))).toEqual(
      expect.arrayContaining(['N/A', 'NY', 'OR', 'PR', 'DC']),
    );
    expect(choice('State / province / district')).toHaveValue('N/A');
    expect(choice('Country')).toHaveValue('US');
    expect(within(choice('Country')).getByRole('option', { name: 'United Kingdom' })).toHaveValue('GB');
    expect(within(choice('Country')).getAllByRole('option')).toHaveLength(250);
  });

  it('holds a US address to a state and a 5 or 5+4 digit zip code', async () => {
    const server = paymentServer();
    renderApp('/billing');
    await form();
    await fillCard({ 'State / province / district': 'N/A', 'Zip code': '1234' });
    await submit();
    expect(await screen.findByText(billingMessages.stateRequired)).toBeInTheDocument();
    expect(screen.getByText(billingMessages.invalidZip)).toBeInTheDocument();
    expect(server.callsTo('POST', '/billing/billing_details/org-1/stripe_sources')).toHaveLength(0);
    // Outside the US neither rule applies.
    await fillCard({ 'State / province / district': 'N/A', 'Zip code': 'SW1Y 4LG' });
    await userEvent.selectOptions(choice('Country'), 'GB');
    await submit();
    await waitFor(() =>
      expect(server.callsTo('POST', '/billing/billing_details/org-1/stripe_sources')).toHaveLength(1),
    );
  });

  it('adds the card as the payment method with the billing address, then goes to Plans', async () => {
    const server = paymentServer();
    const { router } = renderApp('/billing');
    await form();
    await fillCard({ 'Zip code': '10001-1234' });
    await submit();
    expect(await screen.findByText(billingMessages.cardAdded)).toBeInTheDocument();
    expect(server.callsTo('POST', '/billing/billing_details/org-1/stripe_sources')[0]?.body).toEqual({
      stripe_token_id: 'tok_visa',
    });
    expect(server.callsTo('PATCH', '/billing/billing_details/org-1')[0]?.body).toEqual({
      payment_method: `${TEST_CONFIG.billingUrl}/stripe_sources/src-9`,
      organization_details_json: {
        name: 'Analytical Engines',
        billing_address: {
          street_one: '12 St James Square',
          street_two: '',
          city: 'London',
          state: 'NY',
          post_code: '10001-1234',
          country: 'US',
        },
      },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/plans'));
  });

  it("shows the card provider's message when the card is refused, or 'unknown'", async () => {
    paymentServer({
      refuse: { status: 402, body: errorBody(402, 'card_declined', 'Your card was declined.') },
    });
    renderApp('/billing');
    await form();
    await fillCard({ 'Card token': 'tok_chargeDeclined' });
    await submit();
    expect(await screen.findByText('Your card was declined.')).toBeInTheDocument();
  });

  it("says 'unknown' when the refusal carries no message", async () => {
    paymentServer({ refuse: { status: 502, body: {} } });
    renderApp('/billing');
    await form();
    await fillCard();
    await submit();
    const banner = await screen.findByRole('alert');
    expect(within(banner).getByText(billingMessages.paymentFailedUnknown)).toBeInTheDocument();
  });

  it("sends a Billing Only Owner home once the card is added (Plans are the Account Owner's)", async () => {
    const server = paymentServer({ roleType: 'billing_owner' });
    const { router } = renderApp('/billing');
    await form();
    await fillCard();
    await submit();
    expect(await screen.findByText(billingMessages.cardAdded)).toBeInTheDocument();
    // Home, at "/" (issue 38).
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(server.callsTo('PATCH', '/billing/billing_details/org-1')).toHaveLength(1);
  });

  it('is open to billing owners and refused to other members', async () => {
    paymentServer({ roleType: 'billing_owner' });
    const first = renderApp('/billing');
    expect(await form()).toBeInTheDocument();
    first.unmount();
    paymentServer({ roleType: 'platform_user' });
    renderApp('/billing');
    expect(await screen.findByText(billingMessages.billingOwnersOnly)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add payment information' })).not.toBeInTheDocument();
  });

  it('needs no card when payments are off', async () => {
    setRuntimeConfig({ ...TEST_CONFIG, payments: 'none' });
    paymentServer();
    renderApp('/billing');
    expect(await screen.findByText(billingMessages.paymentsOff)).toBeInTheDocument();
  });
});
