import { COST_RATES, DEDICATED_STACK_PLANS, type DedicatedStackRequest, formatUsd } from '@berth/core';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { SupportRequestConfirmation } from '../../../components/ui/support-request.tsx';
import { CreateStackForm } from '../../../features/stacks/components/create-stack-form.tsx';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

const PLAN_NAMES = DEDICATED_STACK_PLANS.map((plan) => plan.charAt(0).toUpperCase() + plan.slice(1));

/**
 * spec 2 §2 /create/stack: the dedicated stack request. It is a support request (spec 2 §7 names no
 * path for it), so a valid form leads to the confirmation of what will be sent.
 */
function CreateStackRoute() {
  const { organization, user } = useConsoleContext();
  const denial = useActionDenial('stack.request');
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
        <Banner variant="info" title="Plans">
          Dedicated stacks are offered on the {PLAN_NAMES.slice(0, -1).join(', ')} and {PLAN_NAMES.at(-1)}{' '}
          plans. Berth does not manage plans yet, so the console cannot check yours: support confirms it when
          handling the request.
        </Banner>
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
