// Issue 37: an invoice from metered usage, priced by the cost model (costs.ts) in whole cents. Every sum is
// done on integers (BigInt), so a total is the same to the cent whatever database the usage came from.

import { HOURS_PER_MONTH } from '../constants/constants.ts';
import { COST_RATES, type CostRates, INCLUDED_IOPS, MB_PER_GB } from './costs.ts';

/**
 * An organization's usage over a period, summed from hourly samples: each quantity is "units × hours"
 * (one hour sampled at 2 GB of m-class containers adds 2048 to `mClassMbHours`).
 */
export interface MeteredUsage {
  mClassMbHours: number;
  cClassMbHours: number;
  rClassMbHours: number;
  endpointHours: number;
  sharedEndpointHours: number;
  diskGbHours: number;
  /** Provisioned IOPS above the included baseline (INCLUDED_IOPS per disk), × hours. */
  extraIopsHours: number;
  backupMbHours: number;
}

/** What the organization's plan gives and costs (spec 1 §9), read when the period closes. */
export interface InvoicePlanTerms {
  name: string;
  costCents: number;
  includedContainerMb: number;
  includedDiskGb: number;
  includedVhosts: number;
  /** Percent off the usage above what the plan includes (growth 15, scale 20). */
  discountPercent: number;
}

export interface InvoiceLine {
  description: string;
  /** What was used, in `unit` (GB-hours, endpoint-hours). */
  used: number;
  /** How much of it the plan includes. */
  included: number;
  unit: string;
  amountCents: number;
}

export interface PricedInvoice {
  lines: InvoiceLine[];
  /** The plan's own price for the period. */
  planCents: number;
  /** Usage above what the plan includes, before the discount. */
  usageCents: number;
  /** The price of the usage the plan includes (shown, not charged). */
  includedCents: number;
  discountCents: number;
  totalCents: number;
}

const HOUR_MS = 3_600_000;
/** Rates are dollars with at most five decimals: held as millicents (1/1000 cent) they are whole numbers. */
const MILLICENTS_PER_DOLLAR = 100_000n;

function millicents(dollars: number): bigint {
  return BigInt(Math.round(dollars * Number(MILLICENTS_PER_DOLLAR)));
}

/** numerator / denominator rounded half up, both non-negative. */
function roundedDivision(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** Whole hours from start to end (a period's bounds fall on the hour). */
export function hoursBetween(start: Date, end: Date): number {
  return Math.max(0, Math.floor((end.getTime() - start.getTime()) / HOUR_MS));
}

function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

function nextMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/** The first instant of the calendar month (UTC) after the one `at` lies in: where periods close. */
export function periodBoundaryAfter(at: Date): Date {
  return nextMonthStart(at);
}

/** The first instant of the calendar month (UTC) `at` lies in. */
export function periodBoundaryAtOrBefore(at: Date): Date {
  return monthStart(at);
}

/**
 * The plan's monthly price for [start, end): each calendar month it overlaps costs its share by hours, so a
 * whole month costs exactly the plan's price, whatever its length.
 */
export function planCentsFor(costCents: number, start: Date, end: Date): number {
  let total = 0n;
  for (let month = monthStart(start); month < end; month = nextMonthStart(month)) {
    const next = nextMonthStart(month);
    const from = start > month ? start : month;
    const to = end < next ? end : next;
    const overlap = BigInt(hoursBetween(from, to));
    total += roundedDivision(BigInt(costCents) * overlap, BigInt(hoursBetween(month, next)));
  }
  return Number(total);
}

interface Meter {
  description: string;
  unit: string;
  /** Quantity used, in units × hours. */
  used: bigint;
  /** Millicents per unit-hour = rateMillicents / divisor. */
  rateMillicents: bigint;
  divisor: bigint;
  /** The allowance this meter draws from, if any (meters sharing one draw in order). */
  allowance?: 'compute' | 'disk' | 'endpoints';
  /** How this meter's quantity counts against its allowance (MB of compute per unit). */
  shown: (quantity: bigint) => number;
}

function priceOf(meter: Meter, quantity: bigint): bigint {
  return roundedDivision(quantity * meter.rateMillicents, meter.divisor * 1000n);
}

/**
 * Prices a period's usage (issue 37): containers by class per GB-hour, endpoints per hour, disk, extra IOPS
 * and backups at their monthly rate over HOURS_PER_MONTH; the plan's included compute, disk and endpoints
 * (each × the period's hours) are taken off first (compute from the m, then c, then r class; endpoints from
 * dedicated, then shared); the plan's discount comes off what is left; the plan's price for the period is
 * added. Every line is rounded to the cent once, and the total is the sum of the rounded lines.
 */
export function priceInvoice(
  usage: MeteredUsage,
  plan: InvoicePlanTerms,
  period: { start: Date; end: Date },
  rates: CostRates = COST_RATES,
): PricedInvoice {
  const hours = BigInt(hoursBetween(period.start, period.end));
  const monthHours = BigInt(HOURS_PER_MONTH);
  const mbPerGb = BigInt(MB_PER_GB);
  const whole = (n: number) => BigInt(Math.max(0, Math.round(n)));
  const gbHours = (mbHours: bigint) => Number(mbHours) / MB_PER_GB;
  const meters: Meter[] = [
    ...(
      [
        ['m', usage.mClassMbHours, rates.mClassGbPerHour],
        ['c', usage.cClassMbHours, rates.cClassGbPerHour],
        ['r', usage.rClassMbHours, rates.rClassGbPerHour],
      ] as const
    ).map(([family, mbHours, rate]) => ({
      description: `Containers, ${family} class`,
      unit: 'GB-hours',
      used: whole(mbHours),
      rateMillicents: millicents(rate),
      divisor: mbPerGb,
      allowance: 'compute' as const,
      shown: gbHours,
    })),
    {
      description: 'Endpoints',
      unit: 'endpoint-hours',
      used: whole(usage.endpointHours),
      rateMillicents: millicents(rates.vhostCostPerHour),
      divisor: 1n,
      allowance: 'endpoints',
      shown: Number,
    },
    {
      description: 'Shared endpoints',
      unit: 'endpoint-hours',
      used: whole(usage.sharedEndpointHours),
      rateMillicents: millicents(rates.sharedVhostCostPerHour),
      divisor: 1n,
      allowance: 'endpoints',
      shown: Number,
    },
    {
      description: 'Database disk',
      unit: 'GB-hours',
      used: whole(usage.diskGbHours),
      rateMillicents: millicents(rates.diskCostGbPerMonth),
      divisor: monthHours,
      allowance: 'disk',
      shown: Number,
    },
    {
      description: `Provisioned IOPS above ${INCLUDED_IOPS}`,
      unit: 'IOPS-hours',
      used: whole(usage.extraIopsHours),
      rateMillicents: millicents(rates.diskIopsCostPerMonth),
      divisor: monthHours,
      shown: Number,
    },
    {
      description: 'Backups',
      unit: 'GB-hours',
      used: whole(usage.backupMbHours),
      rateMillicents: millicents(rates.backupCostGbPerMonth),
      divisor: monthHours * mbPerGb,
      shown: gbHours,
    },
  ];
  const allowances = {
    compute: whole(plan.includedContainerMb) * hours,
    disk: whole(plan.includedDiskGb) * hours,
    endpoints: whole(plan.includedVhosts) * hours,
  };
  let usageCents = 0n;
  let includedCents = 0n;
  const lines: InvoiceLine[] = [];
  for (const meter of meters) {
    let included = 0n;
    if (meter.allowance) {
      const left = allowances[meter.allowance];
      included = left < meter.used ? left : meter.used;
      allowances[meter.allowance] = left - included;
    }
    if (meter.used === 0n) continue;
    const full = priceOf(meter, meter.used);
    const billed = priceOf(meter, meter.used - included);
    usageCents += billed;
    includedCents += full - billed;
    lines.push({
      description: meter.description,
      used: meter.shown(meter.used),
      included: meter.shown(included),
      unit: meter.unit,
      amountCents: Number(billed),
    });
  }
  const percent = BigInt(Math.min(100, Math.max(0, Math.round(plan.discountPercent))));
  const discountCents = roundedDivision(usageCents * percent, 100n);
  const planCents = BigInt(planCentsFor(Math.max(0, Math.round(plan.costCents)), period.start, period.end));
  return {
    lines,
    planCents: Number(planCents),
    usageCents: Number(usageCents),
    includedCents: Number(includedCents),
    discountCents: Number(discountCents),
    totalCents: Number(planCents + usageCents - discountCents),
  };
}

/** Cents as US dollars with two decimals, from integers only ($1,234.05). */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}
