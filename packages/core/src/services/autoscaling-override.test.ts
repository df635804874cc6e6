import { describe, expect, it } from 'vitest';
import { autoscalingOverride } from './autoscaling-override.ts';
import { SIZING_POLICY_DEFAULTS } from './sizing-policy.schema.ts';

describe('autoscalingOverride (issue 41)', () => {
  it('is nothing without a policy, or with one turned off', () => {
    expect(autoscalingOverride(null)).toBeNull();
    expect(autoscalingOverride({ ...SIZING_POLICY_DEFAULTS, scaling_enabled: false })).toBeNull();
  });

  it('horizontal decides the count, within its bounds', () => {
    expect(
      autoscalingOverride({
        ...SIZING_POLICY_DEFAULTS,
        scaling_enabled: true,
        autoscaling: 'horizontal',
        min_containers: 2,
        max_containers: 6,
      }),
    ).toEqual({
      field: 'count',
      message:
        'Horizontal autoscaling overrides this count: it keeps the service between 2 and 6 containers by CPU use.',
    });
  });

  it('vertical decides the size, within its bounds', () => {
    expect(
      autoscalingOverride({
        ...SIZING_POLICY_DEFAULTS,
        scaling_enabled: true,
        autoscaling: 'vertical',
        minimum_memory: 2048,
        maximum_memory: null,
      }),
    ).toEqual({
      field: 'size',
      message:
        'Vertical autoscaling overrides the container size: it moves between 2048 MB and the profile maximum by memory use.',
    });
  });
});
