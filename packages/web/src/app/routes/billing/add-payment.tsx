import { billingMessages, hasBillingAccess, isAccountOwner } from '@berth/core';
import { useNavigate } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { useAddPaymentMethod } from '../../../features/billing/api/use-add-payment-method.ts';
import { useBillingDetail } from '../../../features/billing/api/use-billing-detail.ts';
import { PaymentForm } from '../../../features/billing/components/payment-form.tsx';
import { useStripeCard } from '../../../features/billing/components/stripe-card.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { getRuntimeConfig } from '../../../lib/config.ts';
import { paths } from '../../../lib/paths.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 1 §8: a payment failure shows the card provider's message (the server's refusal, or Stripe.js's),
 * or 'unknown' when there is none.
 */
function paymentFailure(error: unknown): string {
  if (isApiError(error)) {
    const body = error.body as { message?: unknown } | null;
    return typeof body?.message === 'string' && body.message
      ? body.message
      : billingMessages.paymentFailedUnknown;
  }
  return error instanceof Error && error.message ? error.message : billingMessages.paymentFailedUnknown;
}

/**
 * spec 1 §2 /billing: add payment information. Billing is the Account Owner's and the Billing Only
 * Owner's (spec 1 §6). The card token comes from Stripe.js with BERTH_PAYMENTS=stripe, or is typed (a
 * card provider test token) with `local`; with `none` no card is needed at all.
 */
function AddPaymentRoute() {
  const { organization, actor } = useConsoleContext();
  const navigate = useNavigate();
  const { payments, stripePublishableKey } = getRuntimeConfig();
  const billingDetailId = organization?.billingDetailId ?? null;
  const billingDetail = useBillingDetail(billingDetailId);
  const addPaymentMethod = useAddPaymentMethod(billingDetailId ?? '');
  const stripe = useStripeCard(payments === 'stripe' ? stripePublishableKey : null);
  const mayManage = hasBillingAccess(actor);

  const header = (
    <PageHeader title="Add payment information" description="The card your organization pays with" />
  );
  let body: React.ReactNode;
  if (!organization || !billingDetailId) {
    body = <Banner variant="warning">Choose or create an organization first.</Banner>;
  } else if (!mayManage) {
    body = <Banner variant="error">{billingMessages.billingOwnersOnly}</Banner>;
  } else if (payments === 'none') {
    body = <Banner variant="info">{billingMessages.paymentsOff}</Banner>;
  } else if (billingDetail.error) {
    body = <Banner variant="error">{billingDetail.error.message}</Banner>;
  } else if (!billingDetail.data) {
    return <FullPageSpinner label="Loading billing details" />;
  } else {
    const existing = billingDetail.data.organizationDetails;
    body = (
      <div className="card card-body form-card">
        <PaymentForm
          provider={payments}
          card={stripe.field}
          failureMessage={paymentFailure}
          onSubmit={async ({ cardToken, ...details }) => {
            const token = payments === 'stripe' ? await stripe.createToken(details) : cardToken;
            await addPaymentMethod.mutateAsync({ token, details, existing });
            showToast(billingMessages.cardAdded);
            // Plans next for the Account Owner, who alone chooses one (spec 1 §6); home for the others.
            navigate(isAccountOwner(actor) ? paths.plans : paths.root);
          }}
        />
      </div>
    );
  }
  return (
    <>
      {header}
      {body}
    </>
  );
}

export { AddPaymentRoute as Component };
