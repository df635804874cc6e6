import { isAccountOwner, LEGACY_PLAN_NAMES, PLAN_MESSAGES, type PlanName, toastMessages } from '@berth/core';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { useActivePlan } from '../../../features/billing/api/use-active-plan.ts';
import { useBillingDetail } from '../../../features/billing/api/use-billing-detail.ts';
import { useChangePlan } from '../../../features/billing/api/use-change-plan.ts';
import { usePlans } from '../../../features/billing/api/use-plans.ts';
import { PlanCards } from '../../../features/billing/components/plan-cards.tsx';
import { paths } from '../../../lib/paths.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 1 §2 /plans: plan selection, the Account Owner's alone (spec 1 §6). Every app page comes here
 * while the billing detail has no payment method (contract §7), and then no plan can be chosen until
 * one is added.
 */
function PlansRoute() {
  const { organization, actor } = useConsoleContext();
  const isOwner = isAccountOwner(actor);
  const billingDetail = useBillingDetail(organization?.billingDetailId ?? null);
  const plans = usePlans({ enabled: isOwner });
  const active = useActivePlan(organization?.id ?? null, { enabled: isOwner });
  const change = useChangePlan();

  const header = (
    <PageHeader title="Plans" description="The plan your organization is on and what each offers" />
  );
  if (!organization) {
    return (
      <>
        {header}
        <Banner variant="warning">Choose or create an organization first.</Banner>
      </>
    );
  }
  if (!isOwner) {
    return (
      <>
        {header}
        <Banner variant="error">{PLAN_MESSAGES.ownersOnly}</Banner>
      </>
    );
  }
  const failed = plans.error ?? active.error ?? billingDetail.error;
  if (failed) {
    return (
      <>
        {header}
        <Banner variant="error">{failed.message}</Banner>
      </>
    );
  }
  if (!plans.data || active.data === undefined || (organization.billingDetailId && !billingDetail.data)) {
    return <FullPageSpinner label="Loading plans" />;
  }
  const paymentRequired = billingDetail.data ? !billingDetail.data.paymentMethodUrl : false;
  const current = active.data ? plans.data.find((plan) => plan.id === active.data?.planId) : null;
  // contract §4.2: no active plan (with a payment method) is the legacy enterprise plan; so is a legacy one.
  const legacy = !active.data || (current && LEGACY_PLAN_NAMES.includes(current.name as PlanName));

  return (
    <>
      {header}
      <div className="section-stack">
        {paymentRequired ? (
          <Banner
            variant="warning"
            title="Payment method required"
            actions={<Link to={paths.billing}>Add payment information</Link>}
          >
            {PLAN_MESSAGES.paymentRequired}
          </Banner>
        ) : null}
        {legacy || !active.data ? (
          <Banner variant="info">{PLAN_MESSAGES.legacy}</Banner>
        ) : (
          <PlanCards
            plans={plans.data}
            active={active.data}
            paymentRequired={paymentRequired}
            onChange={async (plan) => {
              const activePlanId = active.data?.id ?? '';
              await change.mutateAsync({ activePlanId, planId: plan.id });
              showToast(toastMessages.saved);
            }}
          />
        )}
      </div>
    </>
  );
}

export { PlansRoute as Component };
