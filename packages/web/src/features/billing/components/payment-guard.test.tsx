import type { RoleType } from '@berth/core';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stripeSourceHal, trialHal } from '../../../../test/billing-fixtures.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection } from '../../../../test/fixtures.ts';
import { renderWithProviders, signIn } from '../../../../test/render.tsx';
import { ActorProvider } from '../../../lib/actor.tsx';
import { paths } from '../../../lib/paths.ts';
import { paymentLanding, TrialNotice } from './payment-guard.tsx';

const NOW = new Date('2026-11-20T12:00:00Z');

function trialServer(sources: ReturnType<typeof stripeSourceHal>[], end = '2026-11-25T12:00:00Z') {
  signIn();
  return mockServer({
    'GET /billing/billing_details/org-1/trials': () =>
      json(200, collection('trials', [trialHal('2026-11-01T00:00:00Z', end)])),
    'GET /billing/billing_details/org-1/stripe_sources': () =>
      json(200, collection('stripe_sources', sources)),
  });
}

/** The notice as the shell shows it, to a caller of the given role. */
function renderNotice(roleType: RoleType = 'owner') {
  return renderWithProviders(
    <ActorProvider actor={{ roleTypes: [roleType], permissions: [] }}>
      <TrialNotice billingDetailId="org-1" now={NOW} />
    </ActorProvider>,
  );
}

describe('the trial notice (spec 1 §7)', () => {
  it('warns of the expiry while a trial runs and no payment source is active', async () => {
    trialServer([stripeSourceHal({ deactivatedAt: '2026-11-10T00:00:00Z' })]);
    renderNotice();
    expect(await screen.findByText('Your trial is ending')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Your trial expires in 5 days, on November 25, 2026. Add a payment method to keep your organization running.',
    );
    expect(screen.getByRole('link', { name: 'Add payment information' })).toHaveAttribute('href', '/billing');
  });

  it('tells a member who cannot pay who can, without a link to a page that refuses them', async () => {
    trialServer([]);
    renderNotice('platform_user');
    expect(await screen.findByText('Your trial is ending')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'An Account Owner or Billing Only Owner can add a payment method to keep your organization running.',
    );
    expect(screen.queryByRole('link', { name: 'Add payment information' })).not.toBeInTheDocument();
  });

  it('says nothing once a payment source is active, or when the trial is over', async () => {
    const server = trialServer([stripeSourceHal()]);
    const first = renderNotice();
    await waitFor(() =>
      expect(server.callsTo('GET', '/billing/billing_details/org-1/stripe_sources')).toHaveLength(1),
    );
    // Both answers in, and rendered: no notice.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Your trial is ending')).not.toBeInTheDocument();
    first.unmount();

    trialServer([], '2026-11-19T00:00:00Z');
    renderNotice();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Your trial is ending')).not.toBeInTheDocument();
  });
});

describe('where a missing payment method sends the caller (contract §7, spec 1 §2 and §6)', () => {
  it('sends the Account Owner to Plans, the Billing Only Owner to add the card, and no other member anywhere', () => {
    expect(paymentLanding({ roleTypes: ['owner'] })).toBe(paths.plans);
    expect(paymentLanding({ roleTypes: ['billing_owner'] })).toBe(paths.billing);
    expect(paymentLanding({ roleTypes: ['platform_owner'] })).toBeNull();
    expect(paymentLanding({ roleTypes: ['platform_user'] })).toBeNull();
    expect(paymentLanding({ roleTypes: [] })).toBeNull();
  });
});
