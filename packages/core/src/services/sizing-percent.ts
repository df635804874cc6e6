import { type SizingPolicyField, sizingPolicyMessages } from './sizing-policy.schema.ts';

// Issue 41: the autoscaling form shows its thresholds as percentages (80 %) while the contract stores
// fractions (0.8); the rules stay on fractions (sizingPolicyProblems) and the form speaks in percent.

/** The policy fields that hold a fraction of 1, shown in percent. */
export const SIZING_PERCENT_FIELDS = [
  'min_cpu_threshold',
  'max_cpu_threshold',
  'mem_scale_down_threshold',
  'mem_scale_up_threshold',
] as const satisfies readonly SizingPolicyField[];
export type SizingPercentField = (typeof SIZING_PERCENT_FIELDS)[number];

export function isSizingPercentField(field: string): field is SizingPercentField {
  return (SIZING_PERCENT_FIELDS as readonly string[]).includes(field);
}

/** 0.8 → 80; rounded to hundredths of a percent, so 0.07 is 7, not 7.000000000000001. */
export function fractionToPercent(fraction: number): number {
  return Math.round(fraction * 10_000) / 100;
}

/** 80 → 0.8; rounded to the contract's precision, so 7 is 0.07, not 0.07000000000000001. */
export function percentToFraction(percent: number): number {
  return Math.round(percent * 100) / 10_000;
}

/** The rule messages that name the fraction's range, said in percent; every other message is unchanged. */
const IN_PERCENT: ReadonlyMap<string, string> = new Map([
  [sizingPolicyMessages.minCpuRange, 'Scale down CPU threshold must be between 0 % and 100 %'],
  [sizingPolicyMessages.maxCpuRange, 'Scale up CPU threshold must be between 0 % and 100 %'],
  [sizingPolicyMessages.memScaleUp, 'Memory scale up threshold must be between 0 % and 100 %'],
  [sizingPolicyMessages.memScaleDown, 'Memory scale down threshold must be between 0 % and 100 %'],
]);

export function sizingMessageInPercent(message: string): string {
  return IN_PERCENT.get(message) ?? message;
}
