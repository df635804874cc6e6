import { describe, expect, it } from 'vitest';
import {
  formatCents,
  type InvoicePlanTerms,
  type MeteredUsage,
  planCentsFor,
  priceInvoice,
} from './invoice.ts';

const growth: InvoicePlanTerms = {
  name: 'growth',
  costCents: 18_500,
  includedContainerMb: 3072,
  includedDiskGb: 10,
  includedVhosts: 1,
  discountPercent: 15,
};
const november = { start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-12-01T00:00:00Z') };
const none: MeteredUsage = {
  mClassMbHours: 0,
  cClassMbHours: 0,
  rClassMbHours: 0,
  endpointHours: 0,
  sharedEndpointHours: 0,
  diskGbHours: 0,
  extraIopsHours: 0,
  backupMbHours: 0,
};

describe('priceInvoice', () => {
  it('prices a month of usage above what the plan includes, less the discount, plus the plan', () => {
    // 720 hours of 4 GB m-class containers, 2 endpoints, a 20 GB disk and 5 GB of backups.
    const usage = {
      ...none,
      mClassMbHours: 4096 * 720,
      endpointHours: 2 * 720,
      diskGbHours: 20 * 720,
      backupMbHours: 5 * 1024 * 720,
    };
    const invoice = priceInvoice(usage, growth, november);
    expect(invoice.lines).toEqual([
      { description: 'Containers, m class', used: 2880, included: 2160, unit: 'GB-hours', amountCents: 5760 },
      { description: 'Endpoints', used: 1440, included: 720, unit: 'endpoint-hours', amountCents: 4320 },
      // 7,200 GB-hours × $0.20 / 730 = $1.9726 → $1.97
      { description: 'Database disk', used: 14_400, included: 7200, unit: 'GB-hours', amountCents: 197 },
      // 3,600 GB-hours × $0.02 / 730 = $0.0986 → $0.10
      { description: 'Backups', used: 3600, included: 0, unit: 'GB-hours', amountCents: 10 },
    ]);
    expect(invoice.usageCents).toBe(10_287);
    // 15% of $102.87 = $15.4305 → $15.43
    expect(invoice.discountCents).toBe(1543);
    expect(invoice.planCents).toBe(18_500);
    expect(invoice.includedCents).toBe(17_280 + 4320 + 198);
    expect(invoice.totalCents).toBe(27_244);
    expect(formatCents(invoice.totalCents)).toBe('$272.44');
  });

  it('takes included compute from the m class first, then c, then r', () => {
    const usage = {
      ...none,
      mClassMbHours: 1024 * 720,
      cClassMbHours: 4096 * 720,
      rClassMbHours: 1024 * 720,
    };
    const invoice = priceInvoice(usage, { ...growth, costCents: 0, discountPercent: 0 }, november);
    expect(invoice.lines.map((line) => [line.description, line.included, line.amountCents])).toEqual([
      ['Containers, m class', 720, 0],
      // 2 GB of the plan's 3 are left for c: 2 GB × 720 h × $0.10
      ['Containers, c class', 1440, 14_400],
      ['Containers, r class', 0, 3600],
    ]);
    expect(invoice.totalCents).toBe(18_000);
  });

  it('charges only the plan when nothing was used, and nothing for a free plan', () => {
    expect(priceInvoice(none, growth, november).totalCents).toBe(18_500);
    expect(priceInvoice(none, growth, november).lines).toEqual([]);
    const starter = { ...growth, name: 'starter', costCents: 0, discountPercent: 0 };
    expect(priceInvoice(none, starter, november).totalCents).toBe(0);
  });

  it('bills extra IOPS and shared endpoints at their own rates', () => {
    const usage = { ...none, extraIopsHours: 1000 * 730, sharedEndpointHours: 730 };
    const plan = { ...growth, costCents: 0, discountPercent: 0, includedVhosts: 0 };
    const invoice = priceInvoice(usage, plan, november);
    // 1000 IOPS for a month of 730 hours at $0.01 = $10; one shared endpoint for 730 h at $0.04 = $29.20
    expect(invoice.lines.map((line) => line.amountCents)).toEqual([2920, 1000]);
  });
});

describe('planCentsFor', () => {
  it('charges a whole month exactly and a part of one by its hours', () => {
    expect(planCentsFor(18_500, november.start, november.end)).toBe(18_500);
    expect(planCentsFor(18_500, november.start, new Date('2026-11-16T00:00:00Z'))).toBe(9250);
    // Half of November and all of December (31 days): 9,250 + 18,500
    expect(planCentsFor(18_500, new Date('2026-11-16T00:00:00Z'), new Date('2027-01-01T00:00:00Z'))).toBe(
      27_750,
    );
  });
});
