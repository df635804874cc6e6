// spec 2 §9 and contract §4.3 (cost rates): the cost model, written once for the server's cost lists
// and the console's estimates. Amounts are US dollars per month, kept unrounded; round for display only.

import { HOURS_PER_MONTH } from '../constants/constants.ts';

export interface CostRates {
  /** Per GB of container memory per hour, by instance class family. */
  mClassGbPerHour: number;
  cClassGbPerHour: number;
  rClassGbPerHour: number;
  vhostCostPerHour: number;
  sharedVhostCostPerHour: number;
  diskCostGbPerMonth: number;
  /** Per provisioned IOPS above the included baseline, per month. */
  diskIopsCostPerMonth: number;
  backupCostGbPerMonth: number;
  stackCostPerMonth: number;
  vpnTunnelCostPerMonth: number;
  hidsCostPerMonth: number;
}

/** spec 2 §9: the fixed rates. */
export const COST_RATES: CostRates = {
  mClassGbPerHour: 0.08,
  cClassGbPerHour: 0.1,
  rClassGbPerHour: 0.05,
  vhostCostPerHour: 0.06,
  sharedVhostCostPerHour: 0.04,
  diskCostGbPerMonth: 0.2,
  diskIopsCostPerMonth: 0.01,
  backupCostGbPerMonth: 0.02,
  stackCostPerMonth: 499,
  vpnTunnelCostPerMonth: 99,
  hidsCostPerMonth: 0.02,
};

/** spec 2 §9: IOPS above this baseline are billed extra. */
export const INCLUDED_IOPS = 3000;
export const MB_PER_GB = 1024;

export type InstanceClassFamily = 'm' | 'c' | 'r';

/** The family letter of an instance class name: m5 → m, r4 → r, c5 → c; null when it is none of them. */
export function instanceClassFamily(instanceClass: string): InstanceClassFamily | null {
  const letter = instanceClass.trim().charAt(0).toLowerCase();
  return letter === 'm' || letter === 'c' || letter === 'r' ? letter : null;
}

/**
 * The per-GB-hour rate of an instance class. Classes are validated where they are set (scale); one the
 * model does not know is priced like the default class (m5) so a single odd row cannot break a cost list.
 */
export function classRatePerGbHour(instanceClass: string, rates: CostRates = COST_RATES): number {
  switch (instanceClassFamily(instanceClass) ?? 'm') {
    case 'm':
      return rates.mClassGbPerHour;
    case 'c':
      return rates.cClassGbPerHour;
    case 'r':
      return rates.rClassGbPerHour;
  }
}

export interface ContainerSizing {
  containerCount: number;
  /** Memory per container, MB. */
  containerMemoryMb: number;
  instanceClass: string;
}

/** containers × GB × class rate × 730 h. */
export function containersMonthlyCost(sizing: ContainerSizing, rates: CostRates = COST_RATES): number {
  const count = Math.max(0, sizing.containerCount);
  const gb = Math.max(0, sizing.containerMemoryMb) / MB_PER_GB;
  return count * gb * classRatePerGbHour(sizing.instanceClass, rates) * HOURS_PER_MONTH;
}

/** endpoints × vhost rate × 730 h (shared endpoints have their own, lower rate). */
export function endpointsMonthlyCost(
  endpoints: number,
  rates: CostRates = COST_RATES,
  options: { shared?: boolean } = {},
): number {
  const rate = options.shared ? rates.sharedVhostCostPerHour : rates.vhostCostPerHour;
  return Math.max(0, endpoints) * rate * HOURS_PER_MONTH;
}

/** disk GB × rate. */
export function diskMonthlyCost(sizeGb: number, rates: CostRates = COST_RATES): number {
  return Math.max(0, sizeGb) * rates.diskCostGbPerMonth;
}

/** max(0, IOPS − 3000) × IOPS rate. */
export function iopsMonthlyCost(provisionedIops: number, rates: CostRates = COST_RATES): number {
  return Math.max(0, provisionedIops - INCLUDED_IOPS) * rates.diskIopsCostPerMonth;
}

/** backup GB × rate. */
export function backupMonthlyCost(sizeGb: number, rates: CostRates = COST_RATES): number {
  return Math.max(0, sizeGb) * rates.backupCostGbPerMonth;
}

/** A dedicated stack costs the stack rate; shared stacks cost their tenants nothing. */
export function stackMonthlyCost(stack: { dedicated: boolean }, rates: CostRates = COST_RATES): number {
  return stack.dedicated ? rates.stackCostPerMonth : 0;
}

export interface CostInputs {
  containers?: readonly ContainerSizing[];
  endpoints?: number;
  sharedEndpoints?: number;
  diskGb?: number;
  provisionedIops?: number;
  backupGb?: number;
}

/**
 * contract §4.3: containers × GB × class rate × 730 + endpoints × vhost rate × 730 + disk GB × rate
 * + max(0, IOPS − 3000) × IOPS rate + backup GB × rate.
 */
export function estimateMonthlyCost(inputs: CostInputs, rates: CostRates = COST_RATES): number {
  let total = 0;
  for (const sizing of inputs.containers ?? []) total += containersMonthlyCost(sizing, rates);
  total += endpointsMonthlyCost(inputs.endpoints ?? 0, rates);
  total += endpointsMonthlyCost(inputs.sharedEndpoints ?? 0, rates, { shared: true });
  total += diskMonthlyCost(inputs.diskGb ?? 0, rates);
  total += iopsMonthlyCost(inputs.provisionedIops ?? 0, rates);
  total += backupMonthlyCost(inputs.backupGb ?? 0, rates);
  return total;
}

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** spec 2 §9: costs are shown in USD with two decimals ($1,234.50). Display only: never round stored sums. */
export function formatUsd(amount: number): string {
  return usd.format(Number.isFinite(amount) ? amount : 0);
}
