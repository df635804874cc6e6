import { trialExpiryWarning } from '@berth/core';
import type { ReactNode } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { paths } from '../../../lib/paths.ts';
import { useBillingDetail, usePaymentSources, useTrials } from '../api/use-billing.ts';

/** The pages a missing payment method leaves open: where one is added, and where the redirect lands. */
const OPEN_WITHOUT_PAYMENT: readonly string[] = [paths.plans, paths.billing];

/**
 * contract §7: once the billing detail has loaded without a `payment_method` link, every app page goes to
 * Plans (which says a payment method is needed and links to Add payment information). Until it has
 * loaded, or when it failed to load, the page shows: the guard acts on an answer, never on its absence.
 */
export function PaymentMethodGuard({
  billingDetailId,
  children,
}: {
  billingDetailId: string | null;
  children: ReactNode;
}) {
  const { pathname } = useLocation();
  const detail = useBillingDetail(billingDetailId);
  if (detail.data && !detail.data.paymentMethodUrl && !OPEN_WITHOUT_PAYMENT.includes(pathname)) {
    return <Navigate to={paths.plans} replace />;
  }
  return children;
}

const DAY_MS = 86_400_000;

/**
 * spec 1 §7: a trial that is running while no payment source is active warns that it will expire, with
 * the days left (contract §4.2's countdown to `range_end`).
 */
export function TrialNotice({
  billingDetailId,
  now = new Date(),
}: {
  billingDetailId: string | null;
  now?: Date;
}) {
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
  return (
    <Banner
      variant="warning"
      title="Your trial is ending"
      actions={<Link to={paths.billing}>Add payment information</Link>}
    >
      Your trial expires in {days} {days === 1 ? 'day' : 'days'}, on{' '}
      {new Date(warning.endsAt).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' })}. Add a
      payment method to keep your organization running.
    </Banner>
  );
}
