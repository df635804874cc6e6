import { COST_RATES, endpointsMonthlyCost, formatUsd } from '@berth/core';

/**
 * What one more endpoint adds to the estimated monthly cost, at the rates the costs lists use
 * (spec 2 §9: a dedicated endpoint's hourly rate, a shared one's lower rate, × 730 hours).
 */
export function endpointMonthlyCostText(shared: boolean): string {
  const hourly = shared ? COST_RATES.sharedVhostCostPerHour : COST_RATES.vhostCostPerHour;
  const monthly = endpointsMonthlyCost(1, COST_RATES, { shared });
  return `This endpoint adds ${formatUsd(monthly)} a month to the estimated cost (${formatUsd(hourly)} an hour${shared ? ', the shared rate' : ''}).`;
}

/** Issue 41: the price before creating, read politely when it changes (shared or not). */
export function EndpointMonthlyCost({ shared }: { shared: boolean }) {
  return (
    <p className="field-hint" aria-live="polite">
      {endpointMonthlyCostText(shared)}
    </p>
  );
}
