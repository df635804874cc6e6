import { type Actor, hasBillingAccess, isAccountOwner, trialExpiryWarning } from '@berth/core';
import type { ReactNode } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { useActor } from '../../../lib/actor.tsx';
import { paths } from '../../../lib/paths.ts';
import { useBillingDetail } from '../api/use-billing-detail.ts';
import { usePaymentSources } from '../api/use-payment-sources.ts';
import { useTrials } from '../api/use-trials.ts';

/** The pages a missing payment method leaves open: where one is added, Plans, and the invoices. */
const OPEN_WITHOUT_PAYMENT: readonly string[] = [paths.plans, paths.billing, paths.invoices];

/**
 * Where the caller goes while the organization has no payment method, or null when nowhere. The Account
 * Owner goes to Plans (contract §4.2, §7), which links to Add payment information. Plans are not the
 * Billing Only Owner's (spec 1 §6), so they go straight to adding the card (spec 1 §2 "go to billing").
 * Other members can do neither: a page that refuses them would leave them no way out, so they stay.
 */
export function paymentLanding(actor: Pick<Actor, 'roleTypes'>): string | null {
  if (isAccountOwner(actor)) return paths.plans;
  if (hasBillingAccess(actor)) return paths.billing;
  return null;
}

/**
 * contract §7: once the billing detail has loaded without a `payment_method` link, every app page sends
 * those who can add one to where they do. The shell shows no page before that answer (boot step 4), so
 * none flashes before the redirect; when the answer is a failure, the page shows.
 */
export function PaymentMethodGuard({
  billingDetailId,
  children,
}: {
  billingDetailId: string | null;
  children: ReactNode;
}) {
  const { pathname } = useLocation();
  const actor = useActor();
  const detail = useBillingDetail(billingDetailId);
  const landing = detail.data && !detail.data.paymentMethodUrl ? paymentLanding(actor) : null;
  if (landing && !OPEN_WITHOUT_PAYMENT.includes(pathname)) return <Navigate to={landing} replace />;
  return children;
}

const DAY_MS = 86_400_000;

/**
 * spec 1 §7: a trial that is running while no payment source is active warns that it will expire, with
 * the days left (contract §4.2's countdown to `range_end`). Those who may add a payment method get the
 * way to it; other members are told who can.
 */
export function TrialNotice({
  billingDetailId,
  now = new Date(),
}: {
  billingDetailId: string | null;
  now?: Date;
}) {
  const actor = useActor();
  const trials = useTrials(billingDetailId);
  const sources = usePaymentSources(billingDetailId);
  if (!trials.data || !sources.data) return null;
  const warning = trialExpiryWarning(
    trials.data.map((trial) => ({ range_begin: trial.rangeBegin, range_end: trial.rangeEnd })),
    sources.data.map((source) => ({ deactivated_at: source.deactivatedAt })),
    now,
  );
  if (!warning) return null;
  const days = Math.max(0, Math.ceil((Date.parse(warning.endsAt) - now.getTime()) / DAY_MS));
  const mayPay = hasBillingAccess(actor);
  return (
    <Banner
      variant="warning"
      title="Your trial is ending"
      actions={mayPay ? <Link to={paths.billing}>Add payment information</Link> : undefined}
    >
      Your trial expires in {days} {days === 1 ? 'day' : 'days'}, on{' '}
      {new Date(warning.endsAt).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' })}.{' '}
      {mayPay
        ? 'Add a payment method to keep your organization running.'
        : 'An Account Owner or Billing Only Owner can add a payment method to keep your organization running.'}
    </Banner>
  );
}
