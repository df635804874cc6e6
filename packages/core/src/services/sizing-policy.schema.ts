import { z } from 'zod';
import { CONTAINER_SIZES_GB } from '../constants/constants.ts';
import { MAX_CONTAINER_COUNT } from '../containers/profiles.ts';

// spec 2 §3 (service sizing policy), §4 (the autoscaling form), §5 (its validation and messages) and §9
// (defaults and limits); contract §4.3 service_sizing_policy and §5.7.

export const AUTOSCALING_MODES = ['vertical', 'horizontal'] as const;
export type AutoscalingMode = (typeof AUTOSCALING_MODES)[number];

/**
 * spec 2 §9's first set of sizing defaults, the ones the contract's console assumes: what a policy holds
 * for every field its request leaves out. (The second set the spec quotes for the autoscaling screen
 * gives the form's ranges below; one set of defaults everywhere keeps the form and the API in step.)
 */
export const SIZING_POLICY_DEFAULTS = {
  scaling_enabled: false,
  autoscaling: 'vertical' as AutoscalingMode,
  default_policy: false,
  use_horizontal_scale: false,
  metric_lookback_seconds: 300,
  percentile: 99,
  post_scale_up_cooldown_seconds: 60,
  post_scale_down_cooldown_seconds: 300,
  post_release_cooldown_seconds: 60,
  mem_cpu_ratio_r_threshold: 4,
  mem_cpu_ratio_c_threshold: 2,
  mem_scale_up_threshold: 0.9,
  mem_scale_down_threshold: 0.75,
  minimum_memory: 2048,
  maximum_memory: null as number | null,
  min_containers: 2 as number | null,
  max_containers: 4 as number | null,
  min_cpu_threshold: 0.1 as number | null,
  max_cpu_threshold: 0.9 as number | null,
  scale_up_step: 1,
  scale_down_step: 1,
};
export type SizingPolicyFields = typeof SIZING_POLICY_DEFAULTS;

/** spec 2 §5 and §9: the bounds of each field. */
export const SIZING_LIMITS = {
  /** Lookback: above 130 (exclusive) and at most 3600 seconds. */
  lookbackAbove: 130,
  lookbackMax: 3600,
  percentileMin: 50,
  percentileMax: 100,
  cooldownMax: 3600,
  stepMax: 9999,
  /**
   * The autoscaling screen's ranges: R ratio 0-16, C ratio 0-8, memory 512 to 784384 MB. The memory range
   * spans the container sizes (spec 2 §9): from the smallest, 0.5 GB, to just above the largest, 752 GB.
   */
  ratioRMax: 16,
  ratioCMax: 8,
  memoryMinMb: CONTAINER_SIZES_GB[0] * 1024,
  memoryMaxMb: 784384,
  /** spec 2 §5: container count cannot exceed 32; high availability needs 2. */
  containersMax: MAX_CONTAINER_COUNT,
  highAvailability: 2,
} as const;

export const sizingPolicyMessages = {
  // spec 2 §5, literal.
  ratio: 'Ratio for R must be larger than ratio for C',
  minContainersRequired: 'Minimum containers is required',
  minContainersPositive: 'Minimum containers must be greater than 0',
  minContainersBelowMax: 'Minimum containers must be less than maximum containers',
  maxContainersRequired: 'Maximum containers is required',
  maxContainersPositive: 'Maximum containers must be greater than 0',
  maxContainersAboveMin: 'Maximum containers must be above minimum containers',
  minCpuRequired: 'Scale down CPU threshold is required',
  minCpuRange: 'Scale down CPU threshold must be between 0 and 1',
  minCpuBelowMax: 'Scale down CPU threshold must be less than scale up threshold',
  maxCpuRequired: 'Scale up CPU threshold is required',
  maxCpuRange: 'Scale up CPU threshold must be between 0 and 1',
  maxCpuAboveMin: 'Scale up CPU threshold must be greater than scale down threshold',
  lookback: 'Metric lookback seconds must be between 130 and 3600',
  percentile: 'Percentile must be between 50 and 100',
  highAvailability: 'Warning: High-availability requires at least 2 containers',
  // Berth's, in the same voice, for the bounds the spec gives without words.
  maxContainersLimit: `Maximum containers cannot exceed ${MAX_CONTAINER_COUNT}`,
  minContainersLimit: `Minimum containers cannot exceed ${MAX_CONTAINER_COUNT}`,
  scaleUpStep: 'Scale up step must be a whole number between 1 and 9999',
  scaleDownStep: 'Scale down step must be a whole number between 1 and 9999',
  cooldown: (label: string) => `${label} cooldown must be between 0 and 3600 seconds`,
  memScaleUp: 'Memory scale up threshold must be between 0 and 1',
  memScaleDown: 'Memory scale down threshold must be between 0 and 1',
  memScaleDownBelowUp: 'Memory scale down threshold must be less than memory scale up threshold',
  ratioR: 'Ratio for R must be between 0 and 16',
  ratioC: 'Ratio for C must be between 0 and 8',
  minimumMemory: `Minimum memory must be between ${SIZING_LIMITS.memoryMinMb} and ${SIZING_LIMITS.memoryMaxMb} MB`,
  maximumMemory: `Maximum memory must be between ${SIZING_LIMITS.memoryMinMb} and ${SIZING_LIMITS.memoryMaxMb} MB`,
  maximumBelowMinimum: 'Maximum memory must be at least minimum memory',
  mode: `Autoscaling must be one of: ${AUTOSCALING_MODES.join(', ')}`,
  boolean: (label: string) => `${label} must be true or false`,
  number: (label: string) => `${label} must be a number`,
  notAllowed: (mode: AutoscalingMode) =>
    `${mode === 'horizontal' ? 'Horizontal' : 'Vertical'} autoscaling is not enabled for this stack`,
  appServicesOnly: 'Autoscaling applies to app services only',
  noPolicy: 'This service has no sizing policy',
  exists: 'This service already has a sizing policy; change it with PUT',
} as const;

const number = (label: string) => z.number({ error: sizingPolicyMessages.number(label) }).finite();
const flag = (label: string) => z.boolean({ error: sizingPolicyMessages.boolean(label) });

/**
 * `POST` and `PUT /services/:id/service_sizing_policies` (contract §5.7): every policy field, in snake
 * case, each optional (POST fills the defaults, PUT keeps what the policy holds). Types only: the rules
 * between fields are `sizingPolicyProblems`, checked on the policy the request would leave.
 */
export const sizingPolicyBody = z.object({
  scaling_enabled: flag('Scaling enabled').optional(),
  autoscaling: z.enum(AUTOSCALING_MODES, { error: sizingPolicyMessages.mode }).optional(),
  default_policy: flag('Default policy').optional(),
  use_horizontal_scale: flag('Use horizontal scale').optional(),
  metric_lookback_seconds: number('Metric lookback seconds').optional(),
  percentile: number('Percentile').optional(),
  post_scale_up_cooldown_seconds: number('Post scale up cooldown').optional(),
  post_scale_down_cooldown_seconds: number('Post scale down cooldown').optional(),
  post_release_cooldown_seconds: number('Post release cooldown').optional(),
  mem_cpu_ratio_r_threshold: number('Ratio for R').optional(),
  mem_cpu_ratio_c_threshold: number('Ratio for C').optional(),
  mem_scale_up_threshold: number('Memory scale up threshold').optional(),
  mem_scale_down_threshold: number('Memory scale down threshold').optional(),
  minimum_memory: number('Minimum memory').optional(),
  maximum_memory: number('Maximum memory').nullable().optional(),
  min_containers: number('Minimum containers').nullable().optional(),
  max_containers: number('Maximum containers').nullable().optional(),
  min_cpu_threshold: number('Scale down CPU threshold').nullable().optional(),
  max_cpu_threshold: number('Scale up CPU threshold').nullable().optional(),
  scale_up_step: number('Scale up step').optional(),
  scale_down_step: number('Scale down step').optional(),
});
export type SizingPolicyBody = z.infer<typeof sizingPolicyBody>;

export type SizingPolicyField = keyof SizingPolicyFields;
export interface SizingPolicyProblem {
  field: SizingPolicyField;
  message: string;
}

/** The policy a request leaves: its fields over `base` (the defaults for a new policy). */
export function mergeSizingPolicy(base: SizingPolicyFields, body: SizingPolicyBody): SizingPolicyFields {
  const merged = { ...base };
  for (const [key, value] of Object.entries(body)) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}

const within = (value: number, min: number, max: number) => value >= min && value <= max;
const wholeWithin = (value: number, min: number, max: number) =>
  Number.isInteger(value) && within(value, min, max);

/**
 * spec 2 §5: what is wrong with a whole policy, field by field (empty when nothing is). The container
 * and CPU rules hold for horizontal policies, the ratio rule for vertical ones; the bounds for both.
 */
export function sizingPolicyProblems(policy: SizingPolicyFields): SizingPolicyProblem[] {
  const problems: SizingPolicyProblem[] = [];
  const add = (field: SizingPolicyField, message: string) => problems.push({ field, message });
  const m = sizingPolicyMessages;
  const lookback = policy.metric_lookback_seconds;
  if (
    !(
      Number.isInteger(lookback) &&
      lookback > SIZING_LIMITS.lookbackAbove &&
      lookback <= SIZING_LIMITS.lookbackMax
    )
  )
    add('metric_lookback_seconds', m.lookback);
  const percentile = policy.percentile;
  if (
    !within(percentile, SIZING_LIMITS.percentileMin, SIZING_LIMITS.percentileMax) ||
    !oneDecimal(percentile)
  )
    add('percentile', m.percentile);
  const cooldowns = [
    ['post_scale_up_cooldown_seconds', 'Post scale up'],
    ['post_scale_down_cooldown_seconds', 'Post scale down'],
    ['post_release_cooldown_seconds', 'Post release'],
  ] as const;
  for (const [field, label] of cooldowns) {
    if (!wholeWithin(policy[field], 0, SIZING_LIMITS.cooldownMax)) add(field, m.cooldown(label));
  }
  if (!wholeWithin(policy.scale_up_step, 1, SIZING_LIMITS.stepMax)) add('scale_up_step', m.scaleUpStep);
  if (!wholeWithin(policy.scale_down_step, 1, SIZING_LIMITS.stepMax)) add('scale_down_step', m.scaleDownStep);

  if (policy.autoscaling === 'horizontal') horizontalProblems(policy, add);
  else verticalProblems(policy, add);
  memoryProblems(policy, add);
  return problems;
}

function horizontalProblems(
  policy: SizingPolicyFields,
  add: (field: SizingPolicyField, message: string) => void,
): void {
  const m = sizingPolicyMessages;
  const { min_containers: min, max_containers: max } = policy;
  if (min === null) add('min_containers', m.minContainersRequired);
  else if (!Number.isInteger(min) || min < 1) add('min_containers', m.minContainersPositive);
  else if (min > SIZING_LIMITS.containersMax) add('min_containers', m.minContainersLimit);
  else if (max !== null && min >= max) add('min_containers', m.minContainersBelowMax);
  if (max === null) add('max_containers', m.maxContainersRequired);
  else if (!Number.isInteger(max) || max < 1) add('max_containers', m.maxContainersPositive);
  else if (max > SIZING_LIMITS.containersMax) add('max_containers', m.maxContainersLimit);
  else if (min !== null && max <= min) add('max_containers', m.maxContainersAboveMin);

  const { min_cpu_threshold: low, max_cpu_threshold: high } = policy;
  const cpuOk = (value: number) => value > 0 && value <= 1 && twoDecimals(value);
  if (low === null) add('min_cpu_threshold', m.minCpuRequired);
  else if (!cpuOk(low)) add('min_cpu_threshold', m.minCpuRange);
  else if (high !== null && cpuOk(high) && low >= high) add('min_cpu_threshold', m.minCpuBelowMax);
  if (high === null) add('max_cpu_threshold', m.maxCpuRequired);
  else if (!cpuOk(high)) add('max_cpu_threshold', m.maxCpuRange);
  else if (low !== null && cpuOk(low) && high <= low) add('max_cpu_threshold', m.maxCpuAboveMin);
}

function verticalProblems(
  policy: SizingPolicyFields,
  add: (field: SizingPolicyField, message: string) => void,
): void {
  const m = sizingPolicyMessages;
  const up = policy.mem_scale_up_threshold;
  const down = policy.mem_scale_down_threshold;
  if (!within(up, 0, 1)) add('mem_scale_up_threshold', m.memScaleUp);
  if (!within(down, 0, 1)) add('mem_scale_down_threshold', m.memScaleDown);
  else if (within(up, 0, 1) && down >= up) add('mem_scale_down_threshold', m.memScaleDownBelowUp);
  const r = policy.mem_cpu_ratio_r_threshold;
  const c = policy.mem_cpu_ratio_c_threshold;
  if (!within(r, 0, SIZING_LIMITS.ratioRMax)) add('mem_cpu_ratio_r_threshold', m.ratioR);
  if (!within(c, 0, SIZING_LIMITS.ratioCMax)) add('mem_cpu_ratio_c_threshold', m.ratioC);
  else if (within(r, 0, SIZING_LIMITS.ratioRMax) && r < c) add('mem_cpu_ratio_r_threshold', m.ratio);
}

/**
 * The memory bounds, in every mode: a horizontal policy keeps them too, and they are in force the moment
 * it turns vertical (the autoscaler picks container sizes between them).
 */
function memoryProblems(
  policy: SizingPolicyFields,
  add: (field: SizingPolicyField, message: string) => void,
): void {
  const m = sizingPolicyMessages;
  const minimum = policy.minimum_memory;
  const maximum = policy.maximum_memory;
  const minimumOk = wholeWithin(minimum, SIZING_LIMITS.memoryMinMb, SIZING_LIMITS.memoryMaxMb);
  if (!minimumOk) add('minimum_memory', m.minimumMemory);
  if (maximum !== null) {
    if (!wholeWithin(maximum, SIZING_LIMITS.memoryMinMb, SIZING_LIMITS.memoryMaxMb))
      add('maximum_memory', m.maximumMemory);
    else if (minimumOk && maximum < minimum) add('maximum_memory', m.maximumBelowMinimum);
  }
}

// Decimals are compared on the value times 10 (or 100) rounded: 0.1 * 10 is 1.0000000000000002 in floats.
function oneDecimal(value: number): boolean {
  return Math.abs(value * 10 - Math.round(value * 10)) < 1e-9;
}
function twoDecimals(value: number): boolean {
  return Math.abs(value * 100 - Math.round(value * 100)) < 1e-9;
}

/** spec 2 §5: the warning (not an error) a horizontal policy below high availability earns. */
export function sizingPolicyWarning(policy: Pick<SizingPolicyFields, 'autoscaling' | 'min_containers'>) {
  return policy.autoscaling === 'horizontal' &&
    policy.min_containers !== null &&
    policy.min_containers < SIZING_LIMITS.highAvailability
    ? sizingPolicyMessages.highAvailability
    : null;
}

/** spec 2 §6: whether the stack offers a mode (the organization's plan must include it too: plans.ts). */
export function autoscalingAllowed(
  stack: { verticalAutoscaling: boolean; horizontalAutoscaling: boolean },
  mode: AutoscalingMode,
): boolean {
  return mode === 'horizontal' ? stack.horizontalAutoscaling : stack.verticalAutoscaling;
}
