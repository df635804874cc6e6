import type { SizingPolicyFields } from './sizing-policy.schema.ts';

// Issue 41: the manual scale form says when autoscaling, not the numbers typed there, decides the
// service's container count (horizontal) or size (vertical).

export interface AutoscalingOverride {
  /** What autoscaling decides instead of the manual form. */
  field: 'count' | 'size';
  message: string;
}

/** What an enabled policy overrides in the manual scale form, or null when there is none in force. */
export function autoscalingOverride(
  policy: Pick<
    SizingPolicyFields,
    | 'scaling_enabled'
    | 'autoscaling'
    | 'min_containers'
    | 'max_containers'
    | 'minimum_memory'
    | 'maximum_memory'
  > | null,
): AutoscalingOverride | null {
  if (!policy?.scaling_enabled) return null;
  if (policy.autoscaling === 'horizontal') {
    const range =
      policy.min_containers !== null && policy.max_containers !== null
        ? `between ${policy.min_containers} and ${policy.max_containers} containers`
        : 'its container count';
    return {
      field: 'count',
      message: `Horizontal autoscaling overrides this count: it keeps the service ${range} by CPU use.`,
    };
  }
  const ceiling = policy.maximum_memory === null ? 'the profile maximum' : `${policy.maximum_memory} MB`;
  return {
    field: 'size',
    message: `Vertical autoscaling overrides the container size: it moves between ${policy.minimum_memory} MB and ${ceiling} by memory use.`,
  };
}
