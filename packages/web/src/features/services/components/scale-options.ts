import { containerProfile, containerSizesMb, MAX_CONTAINER_COUNT, scaleProblem } from '@berth/core';
import type { AllowedFamilies } from '../../../resources/stacks/stack.hal.ts';

/** The current-generation class of each family the scale form offers (contract §4.3: C → c5, M → m5, R → r5). */
export const PROFILE_CHOICES = [
  { instanceClass: 'm5', family: 'm', label: 'General Purpose (M)' },
  { instanceClass: 'c5', family: 'c', label: 'CPU Optimized (C)' },
  { instanceClass: 'r5', family: 'r', label: 'Memory Optimized (R)' },
] as const;

export interface ProfileOption {
  instanceClass: string;
  label: string;
}

/** The profiles the stack allows, plus the service's current one so it never disappears from the select. */
export function profileOptions(allowed: AllowedFamilies, current: string): ProfileOption[] {
  const options: ProfileOption[] = PROFILE_CHOICES.filter((choice) => allowed[choice.family]).map(
    (choice) => ({
      instanceClass: choice.instanceClass,
      label: `${choice.label} - ${choice.instanceClass}`,
    }),
  );
  if (!options.some((option) => option.instanceClass === current)) {
    options.unshift({ instanceClass: current, label: `Current profile - ${current}` });
  }
  return options;
}

/** Sizes (MB) a profile offers (spec 2 §5 minimums and maximums, from core), plus `keepMb` if given. */
export function sizeOptionsMb(instanceClass: string, keepMb?: number): number[] {
  if (!containerProfile(instanceClass)) return keepMb ? [keepMb] : [];
  const sizes = containerSizesMb(instanceClass);
  if (keepMb && !sizes.includes(keepMb)) sizes.push(keepMb);
  return sizes.sort((a, b) => a - b);
}

/** spec 2 §5: choosing a profile raises the size to its minimum (and keeps it within its maximum). */
export function sizeForProfile(instanceClass: string, sizeMb: number): number {
  const profile = containerProfile(instanceClass);
  if (!profile) return sizeMb;
  if (sizeMb < profile.minimumMb) return profile.minimumMb;
  if (sizeMb > profile.maximumMb) return sizeOptionsMb(instanceClass).at(-1) ?? profile.maximumMb;
  return sizeMb;
}

/** The form's problem, if any: count 0 to 32 and the size rules, from core's scaleProblem. */
export function scaleFormProblem(input: {
  count: string;
  instanceClass: string;
  sizeMb: number;
}): string | null {
  const text = input.count.trim();
  const count = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(count)) return `Container count must be between 0 and ${MAX_CONTAINER_COUNT}`;
  return scaleProblem({
    instanceClass: input.instanceClass,
    containerCount: count,
    containerSizeMb: input.sizeMb,
  });
}

export function formatGb(mb: number): string {
  return `${mb / 1024} GB`;
}
