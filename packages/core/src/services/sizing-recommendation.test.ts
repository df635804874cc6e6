import { describe, expect, it } from 'vitest';
import { adviseSizing, percentileOf, RECOMMENDATION, scalingLabel } from './sizing-recommendation.ts';

const all = { m: true, c: true, r: true };
const NOW = Date.parse('2026-11-27T12:00:00Z');
const recommendation = (costSavings: number, createdAt = '2026-11-27T00:00:00Z') => ({
  costSavings,
  instanceClassAtTime: 'm5',
  containerMemoryMbAtTime: 4096,
  createdAt,
});
const service = { instanceClass: 'm5', containerMemoryMb: 4096 };

describe('sizing recommendations (spec 2 §4, §9)', () => {
  it('takes the nearest-rank percentile', () => {
    expect(percentileOf([], 95)).toBeNull();
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentileOf(hundred, 95)).toBe(95);
    expect(percentileOf([3, 1, 2], 100)).toBe(3);
    expect(percentileOf([3, 1, 2], 50)).toBe(2);
  });

  it('sizes down a service that uses little of its memory, over all its containers', () => {
    const advice = adviseSizing(
      { cpuCores: 0.2, ramMb: 1500 },
      { instanceClass: 'm5', containerMemoryMb: 4096, containerCount: 2 },
      all,
    );
    // 1500 / 0.8 = 1875 MB: 2 GB holds it, with 0.5 CPU (needs 0.25).
    expect(advice).toMatchObject({ ramTargetMb: 1875, instanceClass: 'm5', containerMemoryMb: 2048 });
    // 2 containers × 2 GB × $0.08 × 730 h.
    expect(advice.costSavings).toBeCloseTo(233.6, 2);
  });

  it('moves a memory-heavy, CPU-light service to R when that is cheaper, and sizes up what is too small', () => {
    const memoryHeavy = adviseSizing(
      { cpuCores: 0.1, ramMb: 6000 },
      { instanceClass: 'm5', containerMemoryMb: 15360, containerCount: 1 },
      all,
    );
    expect(memoryHeavy).toMatchObject({ instanceClass: 'r5', containerMemoryMb: 15360 });
    const tooSmall = adviseSizing(
      { cpuCores: 0.1, ramMb: 500 },
      { instanceClass: 'm5', containerMemoryMb: 512, containerCount: 1 },
      { m: true, c: false, r: false },
    );
    expect(tooSmall).toMatchObject({ instanceClass: 'm5', containerMemoryMb: 1024 });
    expect(tooSmall.costSavings).toBeLessThan(0);
  });

  it('reads Autoscaling for a service that sizes itself', () => {
    expect(scalingLabel(service, recommendation(500), true, NOW)).toEqual({
      kind: 'autoscaling',
      text: 'Autoscaling',
      savings: -0.1,
    });
  });

  it('reads Right Sized with no recommendation, a zero saving or one under 150', () => {
    expect(scalingLabel(service, undefined, false, NOW).text).toBe('Right Sized');
    expect(scalingLabel(service, recommendation(0), false, NOW).text).toBe('Right Sized');
    expect(scalingLabel(service, recommendation(149.99), false, NOW).text).toBe('Right Sized');
    expect(scalingLabel(service, recommendation(-100), false, NOW).text).toBe('Right Sized');
  });

  it('reads Scale Down with the saving, or Scale Up for a negative one', () => {
    expect(scalingLabel(service, recommendation(233.6), false, NOW)).toEqual({
      kind: 'scale_down',
      text: 'Scale Down',
      detail: 'Save up to $233.60',
      savings: 233.6,
    });
    expect(scalingLabel(service, recommendation(-300), false, NOW)).toMatchObject({
      text: 'Scale Up',
      savings: -300,
    });
  });

  it('ignores a recommendation older than 2 days or made for another size', () => {
    const old = new Date(NOW - RECOMMENDATION.validMs - 1).toISOString();
    expect(scalingLabel(service, recommendation(500, old), false, NOW).text).toBe('Right Sized');
    expect(scalingLabel({ ...service, containerMemoryMb: 2048 }, recommendation(500), false, NOW).text).toBe(
      'Right Sized',
    );
    expect(scalingLabel({ ...service, instanceClass: 'r5' }, recommendation(500), false, NOW).text).toBe(
      'Right Sized',
    );
  });
});
