import { describe, expect, it } from 'vitest';
import {
  fractionToPercent,
  isSizingPercentField,
  percentToFraction,
  sizingMessageInPercent,
} from './sizing-percent.ts';
import {
  SIZING_POLICY_DEFAULTS,
  sizingPolicyMessages,
  sizingPolicyProblems,
} from './sizing-policy.schema.ts';

describe('autoscaling thresholds in percent (issue 41)', () => {
  it.each([
    [0.8, 80],
    [0.1, 10],
    [0.07, 7],
    [0.755, 75.5],
    [1, 100],
    [0, 0],
  ])('%d is %d %% and back', (fraction, percent) => {
    expect(fractionToPercent(fraction)).toBe(percent);
    expect(percentToFraction(percent)).toBe(fraction);
  });

  it('names the four threshold fields', () => {
    expect(isSizingPercentField('max_cpu_threshold')).toBe(true);
    expect(isSizingPercentField('mem_scale_up_threshold')).toBe(true);
    expect(isSizingPercentField('percentile')).toBe(false);
    expect(isSizingPercentField('min_containers')).toBe(false);
  });

  it('says the range of a fraction in percent, and leaves the other messages as the spec words them', () => {
    const problems = sizingPolicyProblems({
      ...SIZING_POLICY_DEFAULTS,
      autoscaling: 'horizontal',
      min_cpu_threshold: 1.5,
      max_cpu_threshold: null,
    });
    expect(problems.map((problem) => sizingMessageInPercent(problem.message))).toEqual(
      expect.arrayContaining([
        'Scale down CPU threshold must be between 0 % and 100 %',
        sizingPolicyMessages.maxCpuRequired,
      ]),
    );
    expect(sizingMessageInPercent(sizingPolicyMessages.memScaleUp)).toBe(
      'Memory scale up threshold must be between 0 % and 100 %',
    );
    expect(sizingMessageInPercent(sizingPolicyMessages.minCpuBelowMax)).toBe(
      sizingPolicyMessages.minCpuBelowMax,
    );
  });
});
