import {
  type AllowedProfileFamilies,
  containerProfile,
  containerSizesMb,
  cpuShare,
  FAMILY_CLASSES,
  percentileOf,
  type SizingPolicyFields,
} from '@berth/core';

/** What a service's containers used over a policy's lookback window, one figure per moment measured. */
export interface ServiceLoad {
  /** The containers' mean CPU use as a share of their CPU allowance (1 = all of it). */
  cpu: number[];
  /** The containers' mean memory use as a share of their limit. */
  memory: number[];
}

export interface ServiceSize {
  containerCount: number;
  memoryMb: number;
  instanceClass: string;
}

export interface AutoscaleDecision {
  direction: 'up' | 'down';
  containerCount?: number;
  containerSize?: number;
  instanceProfile?: string;
  /** Why, in words: the operation's note and the first line of its log. */
  reason: string;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const ordinal = (p: number) =>
  `${p}${p % 10 === 1 && p !== 11 ? 'st' : p % 10 === 2 && p !== 12 ? 'nd' : 'th'}`;

/**
 * What the autoscaler does for one service under its policy (issue 13), or null to leave it as it is.
 * Horizontal: the container count, between the policy's minimum and maximum, steps up when CPU use at the
 * policy's percentile is above the scale-up threshold and down when below the scale-down one. Vertical:
 * the container size steps to the next size up when memory use is above its scale-up threshold and down
 * when below its scale-down one, within the minimum and maximum memory; a step may also move the service
 * to the profile its memory-to-CPU use calls for (R above the R ratio, C below the C ratio, else M), when
 * the stack allows it and that profile offers the new size. A class never changes on its own: a service
 * that fits its size is left alone.
 */
export function autoscaleDecision(
  policy: SizingPolicyFields,
  service: ServiceSize,
  load: ServiceLoad,
  allowed: AllowedProfileFamilies,
): AutoscaleDecision | null {
  const window = `at the ${ordinal(policy.percentile)} percentile over ${policy.metric_lookback_seconds} s`;
  if (policy.autoscaling === 'horizontal') return horizontal(policy, service, load, window);
  return vertical(policy, service, load, allowed, window);
}

function horizontal(
  policy: SizingPolicyFields,
  service: ServiceSize,
  load: ServiceLoad,
  window: string,
): AutoscaleDecision | null {
  const min = policy.min_containers ?? 1;
  const max = policy.max_containers ?? min;
  const count = service.containerCount;
  const to = (next: number) => `${count} → ${next} container${next === 1 ? '' : 's'}`;
  if (count < min) {
    return {
      direction: 'up',
      containerCount: min,
      reason: `Below the policy's minimum of ${min}: ${to(min)}`,
    };
  }
  if (count > max) {
    return {
      direction: 'down',
      containerCount: max,
      reason: `Above the policy's maximum of ${max}: ${to(max)}`,
    };
  }
  const cpu = percentileOf(load.cpu, policy.percentile);
  if (cpu === null) return null;
  const high = policy.max_cpu_threshold ?? 1;
  const low = policy.min_cpu_threshold ?? 0;
  if (cpu > high && count < max) {
    const next = Math.min(count + policy.scale_up_step, max);
    return {
      direction: 'up',
      containerCount: next,
      reason: `CPU use ${window} was ${round2(cpu)}, above the scale-up threshold ${high}: ${to(next)}`,
    };
  }
  if (cpu < low && count > min) {
    const next = Math.max(count - policy.scale_down_step, min);
    return {
      direction: 'down',
      containerCount: next,
      reason: `CPU use ${window} was ${round2(cpu)}, below the scale-down threshold ${low}: ${to(next)}`,
    };
  }
  return null;
}

function vertical(
  policy: SizingPolicyFields,
  service: ServiceSize,
  load: ServiceLoad,
  allowed: AllowedProfileFamilies,
  window: string,
): AutoscaleDecision | null {
  const memory = percentileOf(load.memory, policy.percentile);
  if (memory === null) return null;
  const current = service.memoryMb;
  const ceiling = policy.maximum_memory ?? Number.POSITIVE_INFINITY;
  const sizes = containerSizesMb(service.instanceClass);
  let size = current;
  let direction: 'up' | 'down';
  let why: string;
  if (memory > policy.mem_scale_up_threshold) {
    const next = sizes.find((mb) => mb > current && mb <= ceiling);
    if (next === undefined) return null;
    size = next;
    direction = 'up';
    why = `Memory use ${window} was ${round2(memory)}, above the scale-up threshold ${policy.mem_scale_up_threshold}`;
  } else if (memory < policy.mem_scale_down_threshold) {
    const next = sizes.filter((mb) => mb < current && mb >= policy.minimum_memory).at(-1);
    if (next === undefined) return null;
    size = next;
    direction = 'down';
    why = `Memory use ${window} was ${round2(memory)}, below the scale-down threshold ${policy.mem_scale_down_threshold}`;
  } else {
    return null;
  }
  const instanceClass = profileFor(policy, service, load, allowed, size);
  const changesClass = instanceClass !== service.instanceClass;
  return {
    direction,
    containerSize: size,
    ...(changesClass ? { instanceProfile: instanceClass } : {}),
    reason: `${why}: ${current} → ${size} MB${changesClass ? ` on ${instanceClass}` : ''}`,
  };
}

/** The class the memory-to-CPU ratio calls for at the new size, where the stack allows it and it fits. */
function profileFor(
  policy: SizingPolicyFields,
  service: ServiceSize,
  load: ServiceLoad,
  allowed: AllowedProfileFamilies,
  sizeMb: number,
): string {
  const memory = percentileOf(load.memory, policy.percentile);
  const cpu = percentileOf(load.cpu, policy.percentile);
  const share = cpuShare(service.instanceClass, service.memoryMb);
  if (memory === null || cpu === null || !share || cpu <= 0) return service.instanceClass;
  // GB of memory used per core of CPU used.
  const ratio = (memory * service.memoryMb) / 1024 / (cpu * share);
  const family =
    ratio > policy.mem_cpu_ratio_r_threshold ? 'r' : ratio < policy.mem_cpu_ratio_c_threshold ? 'c' : 'm';
  if (containerProfile(service.instanceClass)?.family === family || !allowed[family])
    return service.instanceClass;
  const instanceClass = FAMILY_CLASSES[family];
  return containerSizesMb(instanceClass).includes(sizeMb) ? instanceClass : service.instanceClass;
}
