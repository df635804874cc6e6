import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stripeSourceHal, trialHal } from '../../../../test/billing-fixtures.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection } from '../../../../test/fixtures.ts';
import { renderWithProviders, signIn } from '../../../../test/render.tsx';
import { TrialNotice } from './payment-guard.tsx';

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

describe('the trial notice (spec 1 §7)', () => {
  it('warns of the expiry while a trial runs and no payment source is active', async () => {
    trialServer([stripeSourceHal({ deactivatedAt: '2026-11-10T00:00:00Z' })]);
    renderWithProviders(<TrialNotice billingDetailId="org-1" now={NOW} />);
    expect(await screen.findByText('Your trial is ending')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Your trial expires in 5 days, on November 25, 2026');
    expect(screen.getByRole('link', { name: 'Add payment information' })).toHaveAttribute('href', '/billing');
  });

  it('says nothing once a payment source is active, or when the trial is over', async () => {
    const server = trialServer([stripeSourceHal()]);
    const first = renderWithProviders(<TrialNotice billingDetailId="org-1" now={NOW} />);
    await waitFor(() =>
      expect(server.callsTo('GET', '/billing/billing_details/org-1/stripe_sources')).toHaveLength(1),
    );
    // Both answers in, and rendered: no notice.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Your trial is ending')).not.toBeInTheDocument();
    first.unmount();

    trialServer([], '2026-11-19T00:00:00Z');
    renderWithProviders(<TrialNotice billingDetailId="org-1" now={NOW} />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Your trial is ending')).not.toBeInTheDocument();
  });
});
