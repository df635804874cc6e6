import { PLAN_MESSAGES, toastMessages } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { activePlanHal, billingDetailHal, planHal, planId } from '../../../../test/billing-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, errorBody, roleHal, TEST_CONFIG } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { clearToasts } from '../../../components/ui/toast.tsx';

const PLANS = (
  ['none', 'starter', 'development', 'growth', 'scale', 'production', 'enterprise'] as const
).map(planHal);

function plansServer({
  roleType = 'owner',
  paymentMethod = true,
  active = activePlanHal('growth'),
  billingDetailAnswered = Promise.resolve(),
}: {
  roleType?: string;
  paymentMethod?: boolean;
  active?: ReturnType<typeof activePlanHal> | null;
  /** The billing detail is answered once this settles. */
  billingDetailAnswered?: Promise<void>;
} = {}) {
  signIn();
  let current = active;
  return mockServer({
    ...consoleRoutes({ roles: [roleHal({ type: roleType })] }),
    'GET /billing/billing_details/org-1': async () => {
      await billingDetailAnswered;
      return json(200, billingDetailHal({ paymentMethod }));
    },
    'GET /billing/billing_details/org-1/invoices': () =>
      json(200, {
        _embedded: { invoices: [] },
        _links: {
          self: { href: `${TEST_CONFIG.billingUrl}/billing_details/org-1/invoices` },
          portal: { href: `${TEST_CONFIG.billingUrl}/invoice_portal/org-1?expires=1&signature=a` },
        },
        current_page: 1,
        per_page: 1,
        total_count: 0,
      }),
    'GET /api/plans': () => json(200, collection('plans', PLANS)),
    'GET /api/active_plans': () => json(200, collection('active_plans', current ? [current] : [])),
    'PUT /api/active_plans/active-1': (call) => {
      const name = PLANS.find((plan) => plan.id === (call.body as { plan_id: string }).plan_id)?.name;
      if (!name) return json(422, errorBody(422, 'unprocessable_entity', 'No such plan'));
      current = activePlanHal(name as 'scale');
      return json(200, current);
    },
  });
}

const card = async (name: string) =>
  within(await screen.findByRole('list', { name: 'Plans' }))
    .getByRole('heading', { name })
    .closest('li') as HTMLElement;

afterEach(() => clearToasts());

describe('Plans (spec 1 §2 /plans)', () => {
  it('shows the plan cards, Unavailable where the plan is not available, and changes plan after showing the price difference', async () => {
    const server = plansServer();
    renderApp('/plans');
    expect(within(await card('Growth')).getByText('Current plan')).toBeInTheDocument();
    expect(within(await card('Growth')).getByText('$185.00 a month')).toBeInTheDocument();
    // Not among the organization's available plans.
    expect(within(await card('Production')).getByText('Unavailable')).toBeInTheDocument();
    expect(within(await card('Enterprise')).getByText('Custom')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Choose Scale' }));
    const confirm = screen.getByRole('region', { name: 'Confirm plan change' });
    expect(confirm).toHaveTextContent('From Growth ($185.00 a month) to Scale ($599.00 a month).');
    expect(confirm).toHaveTextContent('Price difference: +$414.00 a month');
    expect(server.callsTo('PUT', '/api/active_plans/active-1')).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Confirm change' }));

    expect(await screen.findByText(toastMessages.saved)).toBeInTheDocument();
    expect(server.callsTo('PUT', '/api/active_plans/active-1')[0]?.body).toEqual({
      plan_id: planId('scale'),
    });
    await waitFor(async () =>
      expect(within(await card('Scale')).getByText('Current plan')).toBeInTheDocument(),
    );
  });

  it('shows a lower price as a negative difference, and Cancel changes nothing', async () => {
    const server = plansServer();
    renderApp('/plans');
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Starter' }));
    expect(screen.getByRole('region', { name: 'Confirm plan change' })).toHaveTextContent(
      'Price difference: -$185.00 a month',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('region', { name: 'Confirm plan change' })).not.toBeInTheDocument();
    expect(server.callsTo('PUT', '/api/active_plans/active-1')).toHaveLength(0);
  });

  it('sends every app page to Plans while there is no payment method, where every other plan is Unavailable', async () => {
    plansServer({ paymentMethod: false });
    const { router } = renderApp('/apps');
    await waitFor(() => expect(router.state.location.pathname).toBe('/plans'));
    expect(await screen.findByText(PLAN_MESSAGES.paymentRequired)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add payment information' })).toHaveAttribute('href', '/billing');
    for (const name of ['Starter', 'Scale', 'Production']) {
      expect(within(await card(name)).getByText('Unavailable')).toBeInTheDocument();
    }
    expect(screen.queryByRole('button', { name: /^Choose / })).not.toBeInTheDocument();
    // The payment page itself stays open.
    await userEvent.click(screen.getByRole('link', { name: 'Add payment information' }));
    expect(await screen.findByRole('form', { name: 'Add payment information' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/billing');
  });

  it('shows no app page before the billing detail has answered, so none flashes before the redirect', async () => {
    let answer = () => {};
    const server = plansServer({
      paymentMethod: false,
      billingDetailAnswered: new Promise<void>((resolve) => {
        answer = resolve;
      }),
    });
    const { router } = renderApp('/apps');
    await waitFor(() => expect(server.callsTo('GET', '/auth/users/user-1/roles')).toHaveLength(1));
    // Everything else has answered: the page still waits for the billing detail.
    await expect(screen.findByRole('heading', { name: 'Apps' }, { timeout: 1500 })).rejects.toThrow();
    expect(screen.getByRole('status', { name: 'Loading your console' })).toBeInTheDocument();
    answer();
    await waitFor(() => expect(router.state.location.pathname).toBe('/plans'));
    expect(await screen.findByText(PLAN_MESSAGES.paymentRequired)).toBeInTheDocument();
  });

  it('sends a Billing Only Owner to add the card (Plans are not theirs), and leaves the invoices open', async () => {
    plansServer({ roleType: 'billing_owner', paymentMethod: false });
    const first = renderApp('/apps');
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/billing'));
    expect(await screen.findByRole('form', { name: 'Add payment information' })).toBeInTheDocument();
    first.unmount();

    plansServer({ roleType: 'billing_owner', paymentMethod: false });
    const second = renderApp('/settings/billing/invoices');
    expect(await screen.findByText('You have no invoices.')).toBeInTheDocument();
    expect(second.router.state.location.pathname).toBe('/settings/billing/invoices');
  });

  it('leaves a member who can neither pay nor change plans on the page they asked for', async () => {
    const server = plansServer({ roleType: 'platform_user', paymentMethod: false });
    const { router } = renderApp('/apps');
    await waitFor(() => expect(server.callsTo('GET', '/billing/billing_details/org-1')).toHaveLength(1));
    expect(await screen.findByRole('heading', { name: 'Apps' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/apps');
  });

  it('does not redirect when the billing detail has a payment method', async () => {
    const server = plansServer();
    const { router } = renderApp('/apps');
    await waitFor(() => expect(server.callsTo('GET', '/billing/billing_details/org-1')).toHaveLength(1));
    expect(await screen.findByRole('heading', { name: 'Apps' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/apps');
  });

  it('moves focus to the confirmation when a plan is chosen, and back to the card after', async () => {
    plansServer();
    renderApp('/plans');
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Scale' }));
    expect(screen.getByRole('heading', { name: 'Change to Scale' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Choose Scale' })).toHaveFocus();

    // By keyboard alone: the card's button, then Confirm change.
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('heading', { name: 'Change to Scale' })).toHaveFocus();
    await userEvent.tab();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Confirm change' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    const scale = await card('Scale');
    await waitFor(() => expect(within(scale).getByText('Current plan')).toBeInTheDocument());
    expect(within(scale).getByRole('heading', { name: 'Scale' })).toHaveFocus();
    expect(scale).toHaveAttribute('aria-current', 'true');
  });

  it('tells anyone but an account owner that plans are not theirs', async () => {
    const server = plansServer({ roleType: 'platform_user' });
    renderApp('/plans');
    expect(await screen.findByText(PLAN_MESSAGES.ownersOnly)).toBeInTheDocument();
    expect(server.callsTo('GET', '/api/plans')).toHaveLength(0);
  });

  it('tells an organization on the legacy plan to contact support', async () => {
    plansServer({ active: null });
    renderApp('/plans');
    expect(await screen.findByText(PLAN_MESSAGES.legacy)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Plans' })).not.toBeInTheDocument();
  });

  it('shows the server refusal of a change', async () => {
    plansServer();
    renderApp('/plans');
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Scale' }));
    // The server refuses this time.
    mockServer({
      ...consoleRoutes({ roles: [roleHal({ type: 'owner' })] }),
      'GET /billing/billing_details/org-1': () => json(200, billingDetailHal()),
      'GET /api/plans': () => json(200, collection('plans', PLANS)),
      'GET /api/active_plans': () => json(200, collection('active_plans', [activePlanHal('growth')])),
      'PUT /api/active_plans/active-1': () =>
        json(403, errorBody(403, 'forbidden', PLAN_MESSAGES.paymentRequired)),
    });
    await userEvent.click(screen.getByRole('button', { name: 'Confirm change' }));
    expect(await screen.findByText(PLAN_MESSAGES.paymentRequired)).toBeInTheDocument();
  });
});
