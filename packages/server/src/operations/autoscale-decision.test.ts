import { mergeSizingPolicy, SIZING_POLICY_DEFAULTS, type SizingPolicyBody } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { autoscaleDecision, type ServiceLoad } from './autoscale-decision.ts';

const all = { m: true, c: true, r: true };
const policy = (body: SizingPolicyBody) => mergeSizingPolicy(SIZING_POLICY_DEFAULTS, body);
const load = (cpu: number, memory: number): ServiceLoad => ({ cpu: [cpu, cpu], memory: [memory, memory] });
const web = { containerCount: 2, memoryMb: 2048, instanceClass: 'm5' };

describe('autoscaling decisions (issue 13)', () => {
  it('reads the load at the policy percentile', () => {
    const spiky: ServiceLoad = { cpu: [...Array.from({ length: 98 }, () => 0.5), 0.95, 0.95], memory: [0.5] };
    const horizontal = { autoscaling: 'horizontal' as const };
    expect(
      autoscaleDecision(policy({ ...horizontal, percentile: 99 }), web, spiky, all)?.containerCount,
    ).toBe(3);
    expect(autoscaleDecision(policy({ ...horizontal, percentile: 95 }), web, spiky, all)).toBeNull();
  });

  it('steps a horizontal policy by its steps within its bounds, and brings a count into them', () => {
    const horizontal = policy({
      autoscaling: 'horizontal',
      max_containers: 6,
      scale_up_step: 3,
      scale_down_step: 5,
    });
    expect(autoscaleDecision(horizontal, web, load(0.95, 0.5), all)).toMatchObject({
      direction: 'up',
      containerCount: 5,
    });
    expect(
      autoscaleDecision(horizontal, { ...web, containerCount: 5 }, load(0.95, 0.5), all)?.containerCount,
    ).toBe(6);
    expect(autoscaleDecision(horizontal, { ...web, containerCount: 6 }, load(0.01, 0.5), all)).toMatchObject({
      direction: 'down',
      containerCount: 2,
    });
    expect(autoscaleDecision(horizontal, { ...web, containerCount: 1 }, load(0.5, 0.5), all)).toMatchObject({
      direction: 'up',
      containerCount: 2,
      reason: "Below the policy's minimum of 2: 1 → 2 containers",
    });
    expect(
      autoscaleDecision(horizontal, { ...web, containerCount: 9 }, load(0.5, 0.5), all)?.containerCount,
    ).toBe(6);
    expect(autoscaleDecision(horizontal, web, load(0.5, 0.5), all)).toBeNull();
    expect(autoscaleDecision(horizontal, web, { cpu: [], memory: [] }, all)).toBeNull();
  });

  it('steps a vertical policy through the sizes by memory, within its minimum and maximum', () => {
    const vertical = policy({ autoscaling: 'vertical', minimum_memory: 1024, maximum_memory: 4096 });
    // 0.95 of 2 GB over all of 0.5 cores: 3.8 GB per core, between C (2) and R (4): stays M.
    expect(autoscaleDecision(vertical, web, load(1, 0.95), all)).toEqual({
      direction: 'up',
      containerSize: 4096,
      reason:
        'Memory use at the 99th percentile over 300 s was 0.95, above the scale-up threshold 0.9: 2048 → 4096 MB',
    });
    expect(autoscaleDecision(vertical, { ...web, memoryMb: 4096 }, load(1, 0.95), all)).toBeNull();
    expect(autoscaleDecision(vertical, web, load(0.5, 0.3), all)).toMatchObject({
      direction: 'down',
      containerSize: 1024,
    });
    expect(autoscaleDecision(vertical, { ...web, memoryMb: 1024 }, load(0.5, 0.3), all)).toBeNull();
    expect(autoscaleDecision(vertical, web, load(0.5, 0.8), all)).toBeNull();
  });

  it('moves a step to the profile its memory-to-CPU use calls for, where the stack allows it', () => {
    const vertical = policy({ autoscaling: 'vertical', minimum_memory: 512 });
    const big = { containerCount: 1, memoryMb: 7168, instanceClass: 'm5' };
    // 0.95 × 7 GB over 0.05 × 1.75 cores: some 76 GB per core, above R's 4: memory-optimized.
    expect(autoscaleDecision(vertical, big, load(0.05, 0.95), all)).toMatchObject({
      containerSize: 15360,
      instanceProfile: 'r5',
    });
    expect(
      autoscaleDecision(vertical, big, load(0.05, 0.95), { m: true, c: true, r: false }),
    ).not.toHaveProperty('instanceProfile');
    // Memory light, CPU heavy: compute-optimized.
    expect(autoscaleDecision(vertical, big, load(1, 0.3), all)).toMatchObject({
      containerSize: 4096,
      instanceProfile: 'c5',
    });
    // R starts at 4 GB: a step to 1 GB stays on M.
    expect(autoscaleDecision(vertical, { ...big, memoryMb: 2048 }, load(0.01, 0.3), all)).toEqual(
      expect.objectContaining({ containerSize: 1024 }),
    );
    expect(autoscaleDecision(vertical, { ...big, memoryMb: 2048 }, load(0.01, 0.3), all)).not.toHaveProperty(
      'instanceProfile',
    );
  });
});
