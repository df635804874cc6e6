import { formatCents } from '@berth/core';
import { useEffect, useRef, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import type { ActivePlan, Plan } from '../api/billing.ts';
import './billing.css';

const title = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const gb = (mb: number) => `${Number((mb / 1024).toFixed(1))} GB`;
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** A plan's monthly price as its card shows it (spec 1 §9: enterprise is custom). */
export function planPrice(plan: Pick<Plan, 'name' | 'costCents'>): string {
  if (plan.name === 'enterprise') return 'Custom';
  return `${formatCents(plan.costCents)} a month`;
}

/** The change's price difference per month: "+$414.00", "-$185.00" or "$0.00". */
export function priceDifference(from: number, to: number): string {
  const difference = to - from;
  if (difference === 0) return formatCents(0);
  return `${difference > 0 ? '+' : '-'}${formatCents(Math.abs(difference))}`;
}

function PlanFacts({ plan }: { plan: Plan }) {
  return (
    <ul className="plan-card-facts">
      <li>
        {gb(plan.includedContainerMb)} compute included, up to {gb(plan.containerMemoryLimit)}
      </li>
      <li>
        {plan.includedDiskGb} GB storage included, up to {plan.diskLimit} GB
      </li>
      <li>
        {count(plan.includedVhosts, 'endpoint')} included, up to {plan.vhostLimit}
      </li>
      <li>
        {plan.environmentLimit === null
          ? 'Any number of environments'
          : count(plan.environmentLimit, 'environment')}
      </li>
      {plan.discountPercent > 0 ? <li>{plan.discountPercent}% off usage above the plan</li> : null}
      {plan.horizontalAutoscaling || plan.verticalAutoscaling ? <li>Autoscaling</li> : null}
    </ul>
  );
}

export interface PlanCardsProps {
  plans: readonly Plan[];
  active: ActivePlan;
  /** spec 1 §9: cards show Unavailable while payment is required. */
  paymentRequired: boolean;
  onChange: (plan: Plan) => Promise<unknown>;
}

/**
 * spec 1 §9 plan cards: each plan's price and figures; Unavailable when the plan is not among the
 * organization's available plans or payment is required. Choosing one shows what the change does to the
 * monthly price before it is confirmed.
 */
export function PlanCards({ plans, active, paymentRequired, onChange }: PlanCardsProps) {
  const [chosen, setChosen] = useState<Plan | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const current = plans.find((plan) => plan.id === active.planId) ?? null;
  // Keyboard and screen reader users follow the change: to the confirmation when it opens (it appears
  // above the cards), and back to the card when it closes.
  const confirmHeading = useRef<HTMLHeadingElement>(null);
  const cardHeadings = useRef(new Map<string, HTMLHeadingElement>());
  const chooseButtons = useRef(new Map<string, HTMLButtonElement>());
  const [focusAfterClose, setFocusAfterClose] = useState<{ planId: string; to: 'button' | 'card' } | null>(
    null,
  );
  useEffect(() => {
    if (chosen) confirmHeading.current?.focus();
  }, [chosen]);
  useEffect(() => {
    if (!focusAfterClose) return;
    const { planId, to } = focusAfterClose;
    (to === 'button' ? chooseButtons : cardHeadings).current.get(planId)?.focus();
    setFocusAfterClose(null);
  }, [focusAfterClose]);

  function close(plan: Plan, to: 'button' | 'card') {
    setChosen(null);
    setFocusAfterClose({ planId: plan.id, to });
  }

  async function confirm(plan: Plan) {
    setPending(true);
    setFailure(null);
    try {
      await onChange(plan);
      // The chosen plan's card is now the current one: it has no button left to return to.
      close(plan, 'card');
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="section-stack">
      {chosen ? (
        <section className="card card-body plan-change" aria-label="Confirm plan change">
          <h2 className="section-title" ref={confirmHeading} tabIndex={-1}>
            Change to {title(chosen.name)}
          </h2>
          <p>
            From {current ? `${title(current.name)} (${planPrice(current)})` : 'your current plan'} to{' '}
            {title(chosen.name)} ({planPrice(chosen)}).
          </p>
          <p className="plan-change-difference">
            Price difference: <strong>{priceDifference(active.costCents, chosen.costCents)} a month</strong>
          </p>
          {failure ? <Banner variant="error">{failure}</Banner> : null}
          <div className="form-actions">
            <Button variant="secondary" onClick={() => close(chosen, 'button')} disabled={pending}>
              Cancel
            </Button>
            <Button onClick={() => void confirm(chosen)} disabled={pending}>
              {pending ? 'Changing…' : 'Confirm change'}
            </Button>
          </div>
        </section>
      ) : null}
      <ul className="plan-cards" aria-label="Plans">
        {plans
          .filter((plan) => plan.name !== 'none')
          .map((plan) => {
            const isCurrent = plan.id === active.planId;
            const unavailable = !isCurrent && (paymentRequired || !active.availablePlans.includes(plan.name));
            return (
              <li
                key={plan.id}
                className={isCurrent ? 'card plan-card plan-card-current' : 'card plan-card'}
                aria-current={isCurrent ? 'true' : undefined}
              >
                <h2
                  className="plan-card-name"
                  tabIndex={-1}
                  ref={(heading) => {
                    if (heading) cardHeadings.current.set(plan.id, heading);
                    else cardHeadings.current.delete(plan.id);
                  }}
                >
                  {title(plan.name)}
                </h2>
                <p className="plan-card-price">{planPrice(plan)}</p>
                <PlanFacts plan={plan} />
                <div className="plan-card-action">
                  {isCurrent ? (
                    <span className="plan-card-status">Current plan</span>
                  ) : unavailable ? (
                    <span className="plan-card-status plan-card-unavailable">Unavailable</span>
                  ) : (
                    <Button
                      variant="secondary"
                      ref={(button) => {
                        if (button) chooseButtons.current.set(plan.id, button);
                        else chooseButtons.current.delete(plan.id);
                      }}
                      onClick={() => {
                        setFailure(null);
                        setChosen(plan);
                      }}
                    >
                      Choose {title(plan.name)}
                    </Button>
                  )}
                </div>
              </li>
            );
          })}
      </ul>
    </div>
  );
}
