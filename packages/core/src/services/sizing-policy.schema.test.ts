import { describe, expect, it } from 'vitest';
import { CONTAINER_SIZES_GB } from '../constants/constants.ts';
import {
  autoscalingAllowed,
  sizingPolicyMessages as m,
  mergeSizingPolicy,
  SIZING_LIMITS,
  SIZING_POLICY_DEFAULTS,
  type SizingPolicyBody,
  sizingPolicyBody,
  sizingPolicyProblems,
  sizingPolicyWarning,
} from './sizing-policy.schema.ts';

const horizontal = (body: SizingPolicyBody) =>
  mergeSizingPolicy(SIZING_POLICY_DEFAULTS, { autoscaling: 'horizontal', ...body });
const vertical = (body: SizingPolicyBody) =>
  mergeSizingPolicy(SIZING_POLICY_DEFAULTS, { autoscaling: 'vertical', ...body });
const messages = (policy: ReturnType<typeof horizontal>) =>
  sizingPolicyProblems(policy).map((p) => p.message);

describe('service sizing policy (spec 2 §5, §9)', () => {
  it('holds the spec defaults and accepts them in either mode', () => {
    expect(SIZING_POLICY_DEFAULTS).toMatchObject({
      autoscaling: 'vertical',
      metric_lookback_seconds: 300,
      percentile: 99,
      post_scale_up_cooldown_seconds: 60,
      post_scale_down_cooldown_seconds: 300,
      post_release_cooldown_seconds: 60,
      mem_scale_up_threshold: 0.9,
      mem_scale_down_threshold: 0.75,
      minimum_memory: 2048,
      min_containers: 2,
      max_containers: 4,
      min_cpu_threshold: 0.1,
      max_cpu_threshold: 0.9,
      scale_up_step: 1,
      scale_down_step: 1,
      mem_cpu_ratio_r_threshold: 4,
      mem_cpu_ratio_c_threshold: 2,
    });
    expect(sizingPolicyProblems(horizontal({}))).toEqual([]);
    expect(sizingPolicyProblems(vertical({}))).toEqual([]);
  });

  it('keeps what a body leaves out and takes what it sends, nulls included', () => {
    const merged = mergeSizingPolicy(SIZING_POLICY_DEFAULTS, { percentile: 95, maximum_memory: null });
    expect(merged.percentile).toBe(95);
    expect(merged.metric_lookback_seconds).toBe(300);
    expect(merged.maximum_memory).toBeNull();
  });

  it('checks minimum containers', () => {
    expect(messages(horizontal({ min_containers: null }))).toContain(m.minContainersRequired);
    expect(messages(horizontal({ min_containers: 0 }))).toContain(m.minContainersPositive);
    expect(messages(horizontal({ min_containers: 4, max_containers: 4 }))).toContain(m.minContainersBelowMax);
    expect(messages(horizontal({ min_containers: 33, max_containers: 34 }))).toContain(m.minContainersLimit);
  });

  it('checks maximum containers, at most 32', () => {
    expect(messages(horizontal({ max_containers: null }))).toContain(m.maxContainersRequired);
    expect(messages(horizontal({ max_containers: 0 }))).toContain(m.maxContainersPositive);
    expect(messages(horizontal({ min_containers: 3, max_containers: 3 }))).toContain(m.maxContainersAboveMin);
    expect(messages(horizontal({ max_containers: 33 }))).toContain(m.maxContainersLimit);
    expect(messages(horizontal({ min_containers: 1, max_containers: 32 }))).toEqual([]);
  });

  it('checks the CPU thresholds: in (0, 1], two decimals, down below up', () => {
    expect(messages(horizontal({ min_cpu_threshold: null }))).toContain(m.minCpuRequired);
    expect(messages(horizontal({ min_cpu_threshold: 0 }))).toContain(m.minCpuRange);
    expect(messages(horizontal({ min_cpu_threshold: 0.125 }))).toContain(m.minCpuRange);
    expect(messages(horizontal({ min_cpu_threshold: 0.9 }))).toEqual([m.minCpuBelowMax, m.maxCpuAboveMin]);
    expect(messages(horizontal({ max_cpu_threshold: null }))).toContain(m.maxCpuRequired);
    expect(messages(horizontal({ max_cpu_threshold: 1.5 }))).toContain(m.maxCpuRange);
    expect(messages(horizontal({ min_cpu_threshold: 0.5, max_cpu_threshold: 0.4 }))).toContain(
      m.maxCpuAboveMin,
    );
    expect(messages(horizontal({ min_cpu_threshold: 0.01, max_cpu_threshold: 1 }))).toEqual([]);
  });

  it('checks steps, lookback, percentile and cooldowns', () => {
    expect(messages(horizontal({ scale_up_step: 0 }))).toEqual([m.scaleUpStep]);
    expect(messages(horizontal({ scale_down_step: 10000 }))).toEqual([m.scaleDownStep]);
    expect(messages(horizontal({ scale_up_step: 1.5 }))).toEqual([m.scaleUpStep]);
    expect(messages(horizontal({ metric_lookback_seconds: 130 }))).toEqual([m.lookback]);
    expect(messages(horizontal({ metric_lookback_seconds: 131 }))).toEqual([]);
    expect(messages(horizontal({ metric_lookback_seconds: 3600 }))).toEqual([]);
    expect(messages(horizontal({ metric_lookback_seconds: 3601 }))).toEqual([m.lookback]);
    expect(messages(horizontal({ percentile: 49.9 }))).toEqual([m.percentile]);
    expect(messages(horizontal({ percentile: 99.95 }))).toEqual([m.percentile]);
    expect(messages(horizontal({ percentile: 99.9 }))).toEqual([]);
    expect(messages(horizontal({ post_scale_up_cooldown_seconds: -1 }))).toEqual([
      m.cooldown('Post scale up'),
    ]);
    expect(messages(horizontal({ post_scale_down_cooldown_seconds: 3601 }))).toEqual([
      m.cooldown('Post scale down'),
    ]);
    expect(messages(horizontal({ post_release_cooldown_seconds: 0.5 }))).toEqual([
      m.cooldown('Post release'),
    ]);
    expect(m.cooldown('Post scale up')).toBe('Post scale up cooldown must be between 0 and 3600 seconds');
  });

  it('checks the vertical ratios, thresholds and memory', () => {
    expect(messages(vertical({ mem_cpu_ratio_r_threshold: 1, mem_cpu_ratio_c_threshold: 2 }))).toEqual([
      m.ratio,
    ]);
    expect(messages(vertical({ mem_cpu_ratio_r_threshold: 17 }))).toEqual([m.ratioR]);
    expect(messages(vertical({ mem_cpu_ratio_c_threshold: 9 }))).toEqual([m.ratioC]);
    expect(messages(vertical({ mem_scale_up_threshold: 1.2 }))).toEqual([m.memScaleUp]);
    expect(messages(vertical({ mem_scale_down_threshold: -0.1 }))).toEqual([m.memScaleDown]);
    expect(messages(vertical({ mem_scale_down_threshold: 0.95 }))).toEqual([m.memScaleDownBelowUp]);
    expect(messages(vertical({ minimum_memory: 256 }))).toEqual([m.minimumMemory]);
    expect(messages(vertical({ maximum_memory: 900000 }))).toEqual([m.maximumMemory]);
    expect(messages(vertical({ maximum_memory: 1024 }))).toEqual([m.maximumBelowMinimum]);
    // The container rules belong to horizontal policies.
    expect(messages(vertical({ min_containers: null, max_cpu_threshold: null }))).toEqual([]);
  });

  it('bounds memory to the container sizes in either mode, the minimum not above the maximum', () => {
    for (const policy of [horizontal, vertical]) {
      expect(messages(policy({ minimum_memory: 1 }))).toEqual([m.minimumMemory]);
      expect(messages(policy({ minimum_memory: -2048 }))).toEqual([m.minimumMemory]);
      expect(messages(policy({ minimum_memory: 2048.5 }))).toEqual([m.minimumMemory]);
      expect(messages(policy({ minimum_memory: 10 ** 12 }))).toEqual([m.minimumMemory]);
      expect(messages(policy({ maximum_memory: 10 ** 9 }))).toEqual([m.maximumMemory]);
      expect(messages(policy({ minimum_memory: 4096, maximum_memory: 2048 }))).toEqual([
        m.maximumBelowMinimum,
      ]);
      expect(messages(policy({ minimum_memory: 512, maximum_memory: 784384 }))).toEqual([]);
      expect(messages(policy({ minimum_memory: 4096, maximum_memory: 4096 }))).toEqual([]);
    }
    expect(m.minimumMemory).toBe('Minimum memory must be between 512 and 784384 MB');
    expect(m.maximumMemory).toBe('Maximum memory must be between 512 and 784384 MB');
    // The range spans every container size: the smallest is its floor, the largest fits below its ceiling.
    const sizesMb = CONTAINER_SIZES_GB.map((gb) => gb * 1024);
    expect(SIZING_LIMITS.memoryMinMb).toBe(Math.min(...sizesMb));
    expect(Math.max(...sizesMb)).toBeLessThanOrEqual(SIZING_LIMITS.memoryMaxMb);
  });

  it('warns below high availability without refusing', () => {
    expect(sizingPolicyWarning(horizontal({ min_containers: 1 }))).toBe(
      'Warning: High-availability requires at least 2 containers',
    );
    expect(sizingPolicyProblems(horizontal({ min_containers: 1 }))).toEqual([]);
    expect(sizingPolicyWarning(horizontal({ min_containers: 2 }))).toBeNull();
    expect(sizingPolicyWarning(vertical({ min_containers: 1 }))).toBeNull();
  });

  it("types the body's fields with their labels", () => {
    const result = sizingPolicyBody.safeParse({
      percentile: 'high',
      autoscaling: 'diagonal',
      scaling_enabled: 1,
    });
    expect(result.success).toBe(false);
    const texts = result.error?.issues.map((issue) => issue.message) ?? [];
    expect(texts).toContain('Percentile must be a number');
    expect(texts).toContain(m.mode);
    expect(texts).toContain('Scaling enabled must be true or false');
  });

  it('offers a mode only where the stack allows it', () => {
    const stack = { verticalAutoscaling: true, horizontalAutoscaling: false };
    expect(autoscalingAllowed(stack, 'vertical')).toBe(true);
    expect(autoscalingAllowed(stack, 'horizontal')).toBe(false);
    expect(m.notAllowed('horizontal')).toBe('Horizontal autoscaling is not enabled for this stack');
  });
});
