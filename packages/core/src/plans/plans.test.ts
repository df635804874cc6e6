import { describe, expect, it } from 'vitest';
import {
  allowsInstanceClass,
  COUNTED_LIMITS,
  countedLimitRefusal,
  cpuProfileRefusal,
  featureLimitRefusal,
  fitsLimit,
  PLAN_CATALOG,
  PLAN_NAMES,
} from './plans.ts';

const plans = PLAN_NAMES.map((name) => PLAN_CATALOG[name]);

describe('the plan catalog', () => {
  it('holds spec 1 §9’s figures', () => {
    expect(PLAN_CATALOG.starter).toMatchObject({
      costCents: 0,
      containerMemoryLimit: 3072,
      diskLimit: 20,
      vhostLimit: 1,
    });
    expect(PLAN_CATALOG.growth).toMatchObject({
      costCents: 18500,
      includedContainerMb: 3072,
      includedDiskGb: 10,
      includedVhosts: 1,
      containerMemoryLimit: 11 * 1024,
      diskLimit: 60,
      vhostLimit: 3,
      discountPercent: 15,
      ephemeralSessionLimit: 2,
    });
    expect(PLAN_CATALOG.scale).toMatchObject({
      costCents: 59900,
      includedContainerMb: 10 * 1024,
      includedDiskGb: 100,
      includedVhosts: 4,
      containerMemoryLimit: 40 * 1024,
      diskLimit: 200,
      vhostLimit: 20,
      discountPercent: 20,
      ephemeralSessionLimit: 3,
    });
    expect(PLAN_CATALOG.production.costCents).toBe(49900);
  });

  it('never lets a later self-serve plan allow less than the one before it', () => {
    const order = ['starter', 'development', 'growth', 'scale', 'production', 'enterprise'] as const;
    for (let i = 1; i < order.length; i += 1) {
      const [before, after] = [PLAN_CATALOG[order[i - 1] ?? 'starter'], PLAN_CATALOG[order[i] ?? 'starter']];
      for (const rule of Object.values(COUNTED_LIMITS)) {
        const [a, b] = [rule.read(before), rule.read(after)];
        expect(b === null || (a !== null && b >= a), `${after.name} after ${before.name}`).toBe(true);
      }
    }
  });
});

describe('limits', () => {
  it('null is no limit', () => {
    expect(fitsLimit('environments', PLAN_CATALOG.production, 10_000)).toBe(true);
    expect(fitsLimit('environments', PLAN_CATALOG.starter, 3)).toBe(false);
    expect(fitsLimit('environments', PLAN_CATALOG.starter, 2)).toBe(true);
  });

  it('profiles by family', () => {
    expect(allowsInstanceClass(PLAN_CATALOG.growth.cpuAllowedProfiles, 'm5')).toBe(true);
    expect(allowsInstanceClass(PLAN_CATALOG.growth.cpuAllowedProfiles, 'r4')).toBe(false);
    expect(allowsInstanceClass(PLAN_CATALOG.scale.cpuAllowedProfiles, 'r4')).toBe(true);
    expect(allowsInstanceClass(PLAN_CATALOG.scale.cpuAllowedProfiles, 't3')).toBe(false);
  });

  it('a refusal names the limit, its number and the cheapest plan that lifts it', () => {
    expect(countedLimitRefusal('containerMemory', PLAN_CATALOG.growth, plans, 20 * 1024)).toEqual({
      limit: 'containerMemory',
      liftedBy: 'scale',
      message:
        'The growth plan allows 11 GB of container memory. The scale plan allows 40 GB of container memory. Change your plan on the Plans page to lift the limit.',
    });
    expect(countedLimitRefusal('environments', PLAN_CATALOG.scale, plans, 26).message).toBe(
      'The scale plan allows 25 environments. The production plan allows any number of environments. Change your plan on the Plans page to lift the limit.',
    );
    expect(countedLimitRefusal('ephemeralSessions', PLAN_CATALOG.growth, plans, 3).message).toBe(
      'The growth plan allows 2 SSH sessions. The scale plan allows 3 SSH sessions. Change your plan on the Plans page to lift the limit.',
    );
    expect(countedLimitRefusal('endpoints', PLAN_CATALOG.enterprise, plans, 5000)).toEqual({
      limit: 'endpoints',
      liftedBy: null,
      message: 'The enterprise plan allows 1000 endpoints. No plan allows more: please contact support.',
    });
    expect(featureLimitRefusal('verticalAutoscaling', PLAN_CATALOG.none, plans).liftedBy).toBe('scale');
    expect(cpuProfileRefusal('r5', PLAN_CATALOG.starter, plans).message).toBe(
      'The starter plan does not include memory optimized containers (r5). The scale plan does. Change your plan on the Plans page to lift the limit.',
    );
  });

  it('names the cheapest plan the owners may choose that lifts it, else the cheapest there is, through support', () => {
    expect(countedLimitRefusal('endpoints', PLAN_CATALOG.starter, plans, 2, ['starter', 'scale'])).toEqual({
      limit: 'endpoints',
      liftedBy: 'scale',
      message:
        'The starter plan allows 1 endpoint. The scale plan allows 20 endpoints. Change your plan on the Plans page to lift the limit.',
    });
    expect(countedLimitRefusal('endpoints', PLAN_CATALOG.starter, plans, 2, ['starter']).message).toBe(
      'The starter plan allows 1 endpoint. The growth plan allows 3 endpoints. Please contact support to move to it.',
    );
    expect(featureLimitRefusal('horizontalAutoscaling', PLAN_CATALOG.growth, plans, []).message).toBe(
      'The growth plan does not include horizontal autoscaling. The scale plan does. Please contact support to move to it.',
    );
    expect(cpuProfileRefusal('c5', PLAN_CATALOG.growth, plans, ['growth', 'production']).liftedBy).toBe(
      'production',
    );
  });
});
