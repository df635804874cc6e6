import { describe, expect, it } from 'vitest';
import {
  backupMonthlyCost,
  COST_RATES,
  classRatePerGbHour,
  containersMonthlyCost,
  diskMonthlyCost,
  endpointsMonthlyCost,
  estimateMonthlyCost,
  formatUsd,
  instanceClassFamily,
  iopsMonthlyCost,
  stackMonthlyCost,
} from './costs.ts';

describe('rates (spec 2 §9)', () => {
  it('holds the fixed rates', () => {
    expect(COST_RATES).toEqual({
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
    });
  });

  it.each([
    ['m5', 'm', 0.08],
    ['m4', 'm', 0.08],
    ['m', 'm', 0.08],
    ['r4', 'r', 0.05],
    ['r5', 'r', 0.05],
    ['c5', 'c', 0.1],
    ['C4', 'c', 0.1],
  ] as const)('%s is class %s at %d per GB-hour', (name, family, rate) => {
    expect(instanceClassFamily(name)).toBe(family);
    expect(classRatePerGbHour(name)).toBe(rate);
  });

  it('prices an unknown class like the default m5', () => {
    expect(instanceClassFamily('t3')).toBeNull();
    expect(classRatePerGbHour('t3')).toBe(0.08);
    expect(classRatePerGbHour('')).toBe(0.08);
  });
});

describe('cost parts', () => {
  it('containers: count × GB × class rate × 730', () => {
    // 1 × 0.5 GB × 0.08 × 730
    expect(
      containersMonthlyCost({ containerCount: 1, containerMemoryMb: 512, instanceClass: 'm5' }),
    ).toBeCloseTo(29.2, 10);
    // 2 × 1 GB × 0.08 × 730
    expect(
      containersMonthlyCost({ containerCount: 2, containerMemoryMb: 1024, instanceClass: 'm5' }),
    ).toBeCloseTo(116.8, 10);
    // 3 × 4 GB × 0.05 × 730
    expect(
      containersMonthlyCost({ containerCount: 3, containerMemoryMb: 4096, instanceClass: 'r4' }),
    ).toBeCloseTo(438, 10);
    // 1 × 2 GB × 0.1 × 730
    expect(
      containersMonthlyCost({ containerCount: 1, containerMemoryMb: 2048, instanceClass: 'c5' }),
    ).toBeCloseTo(146, 10);
    expect(containersMonthlyCost({ containerCount: 0, containerMemoryMb: 2048, instanceClass: 'c5' })).toBe(
      0,
    );
  });

  it('endpoints: count × vhost rate × 730', () => {
    expect(endpointsMonthlyCost(1)).toBeCloseTo(43.8, 10);
    expect(endpointsMonthlyCost(2)).toBeCloseTo(87.6, 10);
    expect(endpointsMonthlyCost(1, COST_RATES, { shared: true })).toBeCloseTo(29.2, 10);
    expect(endpointsMonthlyCost(0)).toBe(0);
  });

  it('disk, IOPS above 3000 and backups', () => {
    expect(diskMonthlyCost(10)).toBeCloseTo(2, 10);
    expect(diskMonthlyCost(100)).toBeCloseTo(20, 10);
    expect(iopsMonthlyCost(3000)).toBe(0);
    expect(iopsMonthlyCost(2000)).toBe(0);
    expect(iopsMonthlyCost(5000)).toBeCloseTo(20, 10);
    expect(iopsMonthlyCost(16000)).toBeCloseTo(130, 10);
    expect(backupMonthlyCost(50)).toBeCloseTo(1, 10);
  });

  it('a dedicated stack costs $499 a month, a shared one nothing', () => {
    expect(stackMonthlyCost({ dedicated: true })).toBe(499);
    expect(stackMonthlyCost({ dedicated: false })).toBe(0);
  });

  it('uses the rates it is given', () => {
    const rates = { ...COST_RATES, mClassGbPerHour: 1, diskCostGbPerMonth: 1 };
    expect(
      containersMonthlyCost({ containerCount: 1, containerMemoryMb: 1024, instanceClass: 'm5' }, rates),
    ).toBe(730);
    expect(diskMonthlyCost(3, rates)).toBe(3);
  });
});

describe('estimateMonthlyCost (contract §4.3)', () => {
  it('adds containers, endpoints, disk, extra IOPS and backups', () => {
    const total = estimateMonthlyCost({
      containers: [
        { containerCount: 2, containerMemoryMb: 1024, instanceClass: 'm5' }, // 116.8
        { containerCount: 1, containerMemoryMb: 4096, instanceClass: 'r5' }, // 146
      ],
      endpoints: 1, // 43.8
      diskGb: 10, // 2
      provisionedIops: 4000, // 10
      backupGb: 25, // 0.5
    });
    expect(total).toBeCloseTo(319.1, 10);
  });

  it('is zero for nothing', () => {
    expect(estimateMonthlyCost({})).toBe(0);
  });
});

describe('formatUsd', () => {
  it.each([
    [0, '$0.00'],
    [29.2, '$29.20'],
    [29.200000000000003, '$29.20'],
    [1234.5, '$1,234.50'],
    [499, '$499.00'],
    [0.004, '$0.00'],
    [Number.NaN, '$0.00'],
  ])('%d → %s', (amount, text) => {
    expect(formatUsd(amount)).toBe(text);
  });
});
