import { CONTAINER_SIZES_GB } from '../constants/constants.ts';

// Contract §4 enumerations and spec 2 §5/§9: container profiles (instance classes), sizes and limits.

export const INSTANCE_CLASSES = ['m5', 'r5', 'c5', 'm4', 'r4', 'c4', 'm', 'r', 'c'] as const;
export type InstanceClass = (typeof INSTANCE_CLASSES)[number];
export const DEFAULT_INSTANCE_CLASS: InstanceClass = 'm5';
export const DEFAULT_CONTAINER_MEMORY_MB = 512;
export const MAX_CONTAINER_COUNT = 32;

export interface ContainerProfile {
  family: 'm' | 'r' | 'c';
  minimumMb: number;
  maximumMb: number;
  /** CPU share per GB of memory. */
  cpuPerGb: number;
}

const FAMILY = {
  m: { minimumMb: 512, maximumMb: 376832, cpuPerGb: 0.25 },
  r: { minimumMb: 4096, maximumMb: 770048, cpuPerGb: 0.125 },
  c: { minimumMb: 2048, maximumMb: 376832, cpuPerGb: 0.5 },
} as const;

// Legacy 4th-generation classes stop lower (contract §4: m4 245760, r4 483328, c4 59392).
const LEGACY_MAXIMUM_MB: Partial<Record<InstanceClass, number>> = { m4: 245760, r4: 483328, c4: 59392 };

export function profileMessage(instanceClass: string): string {
  return `could not find container profile for ${instanceClass}`;
}

export function containerProfile(instanceClass: string): ContainerProfile | null {
  if (!(INSTANCE_CLASSES as readonly string[]).includes(instanceClass)) return null;
  const family = instanceClass[0] as 'm' | 'r' | 'c';
  const base = FAMILY[family];
  return {
    family,
    minimumMb: base.minimumMb,
    maximumMb: LEGACY_MAXIMUM_MB[instanceClass as InstanceClass] ?? base.maximumMb,
    cpuPerGb: base.cpuPerGb,
  };
}

/** Why a scale request cannot be honoured, or null when it can. */
export function scaleProblem(input: {
  instanceClass: string;
  containerSizeMb?: number;
  containerCount?: number;
}): string | null {
  const profile = containerProfile(input.instanceClass);
  if (!profile) return profileMessage(input.instanceClass);
  if (input.containerCount !== undefined) {
    if (
      !Number.isInteger(input.containerCount) ||
      input.containerCount < 0 ||
      input.containerCount > MAX_CONTAINER_COUNT
    ) {
      return `Container count must be between 0 and ${MAX_CONTAINER_COUNT}`;
    }
  }
  if (input.containerSizeMb !== undefined) {
    const size = input.containerSizeMb;
    if (!Number.isInteger(size) || size < profile.minimumMb || size > profile.maximumMb) {
      return `Container size for ${input.instanceClass} must be between ${profile.minimumMb} MB and ${profile.maximumMb} MB`;
    }
  }
  return null;
}

export function cpuShare(instanceClass: string, memoryMb: number): number | null {
  const profile = containerProfile(instanceClass);
  return profile ? (memoryMb / 1024) * profile.cpuPerGb : null;
}

/** The container sizes (MB) a class offers, smallest first: spec 2 §9's sizes within its limits. */
export function containerSizesMb(instanceClass: string): number[] {
  const profile = containerProfile(instanceClass);
  if (!profile) return [];
  return CONTAINER_SIZES_GB.map((gb) => gb * 1024).filter(
    (mb) => mb >= profile.minimumMb && mb <= profile.maximumMb,
  );
}
