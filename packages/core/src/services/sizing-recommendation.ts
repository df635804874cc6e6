import { containerProfile, containerSizesMb, cpuShare } from '../containers/profiles.ts';
import { containersMonthlyCost, formatUsd } from '../costs/costs.ts';

// spec 2 §4 (the Scaling Recommendations label), §9 and spec 3 §9 (thresholds): manual sizing
// recommendations, computed daily from each service's 95th percentile CPU and maximum memory over 14 days.

export const RECOMMENDATION = {
  /** Savings (USD per month) count, and a recommendation reads Scale Up or Down, only from this size. */
  savingThreshold: 150,
  /** A recommendation is shown for 2 days. */
  validMs: 2 * 86_400_000,
  windowDays: 14,
  percentile: 95,
  /** Memory and CPU are sized so the measured peak uses at most this share of the new size. */
  headroom: 0.8,
} as const;

/** spec 3 §9: the savings a service with autoscaling on shows (it sizes itself). */
export const AUTOSCALING_SAVINGS = -0.1;

/** The current-generation class of each family a recommendation or the autoscaler may name. */
export const FAMILY_CLASSES = { m: 'm5', c: 'c5', r: 'r5' } as const;
export type AllowedProfileFamilies = Record<keyof typeof FAMILY_CLASSES, boolean>;

export interface SizingMeasurement {
  /** The 95th percentile of a container's CPU use, in cores. */
  cpuCores: number;
  /** The most memory a container held, MB. */
  ramMb: number;
}

export interface CurrentSizing {
  instanceClass: string;
  containerMemoryMb: number;
  containerCount: number;
}

export interface SizingAdvice {
  ramTargetMb: number;
  instanceClass: string;
  containerMemoryMb: number;
  /** USD per month the advice saves over the current size (negative: it costs more). */
  costSavings: number;
}

/**
 * The cheapest size of an allowed family that holds the measured peak with headroom: memory at least
 * `ramMb / 0.8` and a CPU share at least `cpuCores / 0.8`. Savings are over all the service's containers.
 * With nothing big enough, the largest size of the current family.
 */
export function adviseSizing(
  measured: SizingMeasurement,
  current: CurrentSizing,
  allowed: AllowedProfileFamilies,
): SizingAdvice {
  const ramTargetMb = Math.ceil(measured.ramMb / RECOMMENDATION.headroom);
  const cpuTarget = measured.cpuCores / RECOMMENDATION.headroom;
  const currentFamily = containerProfile(current.instanceClass)?.family ?? 'm';
  const candidates: { instanceClass: string; memoryMb: number; cost: number }[] = [];
  for (const [family, instanceClass] of Object.entries(FAMILY_CLASSES)) {
    if (!allowed[family as keyof typeof FAMILY_CLASSES] && family !== currentFamily) continue;
    const fits = containerSizesMb(instanceClass).find(
      (mb) => mb >= ramTargetMb && (cpuShare(instanceClass, mb) ?? 0) >= cpuTarget,
    );
    if (fits === undefined) continue;
    const cost = containersMonthlyCost({ containerCount: 1, containerMemoryMb: fits, instanceClass });
    candidates.push({ instanceClass, memoryMb: fits, cost });
  }
  // Cheapest first; at equal cost the service keeps its family.
  candidates.sort(
    (a, b) =>
      a.cost - b.cost ||
      Number(containerProfile(b.instanceClass)?.family === currentFamily) -
        Number(containerProfile(a.instanceClass)?.family === currentFamily),
  );
  const fallbackClass = FAMILY_CLASSES[currentFamily];
  const best = candidates[0] ?? {
    instanceClass: fallbackClass,
    memoryMb: containerSizesMb(fallbackClass).at(-1) ?? current.containerMemoryMb,
  };
  const count = Math.max(current.containerCount, 1);
  const now = containersMonthlyCost({ ...current, containerCount: count });
  const then = containersMonthlyCost({
    containerCount: count,
    containerMemoryMb: best.memoryMb,
    instanceClass: best.instanceClass,
  });
  return {
    ramTargetMb,
    instanceClass: best.instanceClass,
    containerMemoryMb: best.memoryMb,
    costSavings: Math.round((now - then) * 100) / 100,
  };
}

/** The value at percentile `p` (0-100) of the numbers, by nearest rank; null for none. */
export function percentileOf(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1] ?? null;
}

export interface RecommendationLike {
  costSavings: number;
  instanceClassAtTime: string;
  containerMemoryMbAtTime: number;
  createdAt: string;
}

export type ScalingLabel =
  | { kind: 'autoscaling'; text: 'Autoscaling'; savings: number }
  | { kind: 'right_sized'; text: 'Right Sized'; savings: number }
  | { kind: 'scale_up'; text: 'Scale Up'; savings: number }
  | { kind: 'scale_down'; text: 'Scale Down'; detail: string; savings: number };

/**
 * spec 2 §4: what the Scaling Recommendations column and detail read. A service with autoscaling on
 * reads Autoscaling (savings -0.1). A recommendation applies only while the service keeps the class and
 * memory it had then and for 2 days; a saving under 150 either way (or none) reads Right Sized, a
 * negative one Scale Up, a positive one Scale Down with 'Save up to $X'. `savings` is the sort key and
 * what the savings totals count.
 */
export function scalingLabel(
  service: { instanceClass: string; containerMemoryMb: number },
  recommendation: RecommendationLike | undefined,
  autoscaling: boolean,
  now: number = Date.now(),
): ScalingLabel {
  if (autoscaling) return { kind: 'autoscaling', text: 'Autoscaling', savings: AUTOSCALING_SAVINGS };
  const applies =
    recommendation !== undefined &&
    recommendation.instanceClassAtTime === service.instanceClass &&
    recommendation.containerMemoryMbAtTime === service.containerMemoryMb &&
    now - Date.parse(recommendation.createdAt) < RECOMMENDATION.validMs;
  const saving = applies ? recommendation.costSavings : 0;
  if (Math.abs(saving) < RECOMMENDATION.savingThreshold) {
    return { kind: 'right_sized', text: 'Right Sized', savings: 0 };
  }
  if (saving < 0) return { kind: 'scale_up', text: 'Scale Up', savings: saving };
  return {
    kind: 'scale_down',
    text: 'Scale Down',
    detail: `Save up to ${formatUsd(saving)}`,
    savings: saving,
  };
}
