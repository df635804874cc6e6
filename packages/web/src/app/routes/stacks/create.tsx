import {
  COST_RATES,
  DEDICATED_STACK_PLANS,
  type DedicatedStackRequest,
  formatUsd,
  planOffersDedicatedStacks,
} from '@berth/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { SupportRequestConfirmation } from '../../../components/ui/support-request.tsx';
import { useActivePlan } from '../../../features/billing/api/use-active-plan.ts';
import { usePlans } from '../../../features/billing/api/use-plans.ts';
import { CreateStackForm } from '../../../features/stacks/components/create-stack-form.tsx';
import { paths } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const PLAN_NAMES = DEDICATED_STACK_PLANS.map(capitalized);
const OFFERED_ON = `${PLAN_NAMES.slice(0, -1).join(', ')} and ${PLAN_NAMES.at(-1)}`;

/**
 * The organization's plan (issue 37), when it is known: null while it loads or cannot be read, and
 * 'legacy' for an organization made before plans, which is held to the enterprise figures.
 */
function usePlanName(organizationId: string | null): string | 'legacy' | null {
  const active = useActivePlan(organizationId);
  const plans = usePlans({ enabled: Boolean(active.data) });
  if (!active.isSuccess) return null;
  if (active.data === null) return 'legacy';
  return plans.data?.find((plan) => plan.id === active.data?.planId)?.name ?? null;
}

/**
 * spec 2 §2 /create/stack: the dedicated stack request. It is a support request (spec 2 §7 names no
 * path for it), so a valid form leads to the confirmation of what will be sent.
 */
function CreateStackRoute() {
  const { organization, user } = useConsoleContext();
  const roleDenial = useActionDenial('stack.request');
  const planName = usePlanName(organization?.id ?? null);
  // spec 2 §2: offered only to the growth, scale, production and enterprise plans.
  const offered = planName === 'legacy' || (planName !== null && planOffersDedicatedStacks(planName));
  const planDenial =
    planName !== null && !offered ? `Dedicated stacks are offered on the ${OFFERED_ON} plans.` : null;
  const denial = roleDenial ?? planDenial;
  const [request, setRequest] = useState<DedicatedStackRequest | null>(null);
  // Cancel goes back to the form as it was filled in.
  const [draft, setDraft] = useState<DedicatedStackRequest | undefined>(undefined);

  return (
    <>
      <PageHeader
        title="Request Dedicated Stack"
        description={`A dedicated stack is an isolated network for your organization's environments, at ${formatUsd(COST_RATES.stackCostPerMonth)} per month.`}
      />
      <div className="section-stack">
        {planDenial ? (
          <Banner variant="warning" title="Plans">
            {planDenial} Your organization is on the {capitalized(planName ?? '')} plan:{' '}
            <Link to={paths.plans}>change the plan</Link> to request one.
          </Banner>
        ) : (
          <Banner variant="info" title="Plans">
            Dedicated stacks are offered on the {OFFERED_ON} plans
            {offered && planName !== 'legacy'
              ? `; your organization's plan, ${capitalized(planName ?? '')}, is one`
              : ''}
            .
          </Banner>
        )}
        {request ? (
          <SupportRequestConfirmation
            title="Dedicated Stack request"
            request={{
              subject: `Dedicated stack request: ${request.name} (${request.region})`,
              body: [
                `Please provision a dedicated stack named ${request.name} in ${request.region}.`,
                `Organization: ${organization?.name ?? ''} (id ${organization?.id ?? ''})`,
                `Requested by: ${user?.name ?? ''} <${user?.email ?? ''}>`,
                'The terms of the dedicated stack were accepted.',
              ].join('\n'),
            }}
            onCancel={() => setRequest(null)}
          />
        ) : (
          <div className="card form-card">
            <div className="card-body">
              <CreateStackForm
                denial={denial}
                defaultValues={draft}
                onSubmit={(values) => {
                  setDraft(values);
                  setRequest(values);
                }}
              />
            </div>
          </div>
        )}
      </div>
    </>
  );
}

export { CreateStackRoute as Component };
