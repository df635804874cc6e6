// spec 1 §3, §8 and §9; contract §4.2: the plans, their figures, their messages, and the one place each
// limit is read from (the server refuses with it, the console shows it).

import { instanceClassFamily } from '../costs/costs.ts';

/** spec 1 §3: the plan names, cheapest first (the order a refusal looks for the plan that lifts a limit). */
export const PLAN_NAMES = [
  'none',
  'starter',
  'development',
  'growth',
  'scale',
  'production',
  'enterprise',
] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export function isPlanName(value: string): value is PlanName {
  return (PLAN_NAMES as readonly string[]).includes(value);
}

/**
 * `cpu_allowed_profiles` (contract: opaque to the console, integer advised): a bit per container profile
 * family a plan may run, general purpose (m), compute optimized (c), memory optimized (r).
 */
export const CPU_PROFILE_FLAGS = { m: 1, c: 2, r: 4 } as const;
const PROFILE_NAMES = { m: 'general purpose', c: 'compute optimized', r: 'memory optimized' } as const;

/** Whether a plan's `cpu_allowed_profiles` lets containers run on the instance class (m5, c5, r4, ...). */
export function allowsInstanceClass(cpuAllowedProfiles: number, instanceClass: string): boolean {
  const family = instanceClassFamily(instanceClass);
  return family !== null && (cpuAllowedProfiles & CPU_PROFILE_FLAGS[family]) !== 0;
}

/** A plan's figures, as stored and served (contract §4.2 plan, plus Berth's discount). */
export interface PlanFigures {
  name: PlanName;
  costCents: number;
  /** MB of container memory the organization may run in all, and how much of it the price includes. */
  containerMemoryLimit: number;
  includedContainerMb: number;
  /** GB of database disk in all, and included. */
  diskLimit: number;
  includedDiskGb: number;
  /** Endpoints in all, and included. */
  vhostLimit: number;
  includedVhosts: number;
  /** null: as many environments as wanted. */
  environmentLimit: number | null;
  ephemeralSessionLimit: number;
  manualBackupLimitPerDb: number;
  automatedBackupLimitPerDb: number;
  cpuAllowedProfiles: number;
  horizontalAutoscaling: boolean;
  verticalAutoscaling: boolean;
  complianceDashboardAccess: boolean;
  /** Percent off usage above what the plan includes (spec 1 §9: growth 15, scale 20). */
  discountPercent: number;
}

const ALL_PROFILES = CPU_PROFILE_FLAGS.m | CPU_PROFILE_FLAGS.c | CPU_PROFILE_FLAGS.r;

/**
 * spec 1 §9's figures, seeded by migration 0025_plans.sql (a test holds the seeded rows to this table);
 * the operator changes them afterwards with `npm run admin -- plans set`. Where the spec gives no figure
 * the values are Berth's: each plan allows at least what the one before it does.
 */
export const PLAN_CATALOG: Record<PlanName, PlanFigures> = {
  // No plan: nothing may be made until the operator or an owner picks one.
  none: {
    name: 'none',
    costCents: 0,
    containerMemoryLimit: 0,
    includedContainerMb: 0,
    diskLimit: 0,
    includedDiskGb: 0,
    vhostLimit: 0,
    includedVhosts: 0,
    environmentLimit: 0,
    ephemeralSessionLimit: 0,
    manualBackupLimitPerDb: 0,
    automatedBackupLimitPerDb: 0,
    cpuAllowedProfiles: CPU_PROFILE_FLAGS.m,
    horizontalAutoscaling: false,
    verticalAutoscaling: false,
    complianceDashboardAccess: false,
    discountPercent: 0,
  },
  // $0: 3 GB compute, 20 GB database storage, 1 endpoint, shared stacks.
  starter: {
    name: 'starter',
    costCents: 0,
    containerMemoryLimit: 3 * 1024,
    includedContainerMb: 3 * 1024,
    diskLimit: 20,
    includedDiskGb: 20,
    vhostLimit: 1,
    includedVhosts: 1,
    environmentLimit: 2,
    ephemeralSessionLimit: 1,
    manualBackupLimitPerDb: 5,
    automatedBackupLimitPerDb: 7,
    cpuAllowedProfiles: CPU_PROFILE_FLAGS.m,
    horizontalAutoscaling: false,
    verticalAutoscaling: false,
    complianceDashboardAccess: false,
    discountPercent: 0,
  },
  // $0, for trying things out: starter's resources in more environments.
  development: {
    name: 'development',
    costCents: 0,
    containerMemoryLimit: 3 * 1024,
    includedContainerMb: 3 * 1024,
    diskLimit: 20,
    includedDiskGb: 20,
    vhostLimit: 1,
    includedVhosts: 1,
    environmentLimit: 3,
    ephemeralSessionLimit: 1,
    manualBackupLimitPerDb: 5,
    automatedBackupLimitPerDb: 7,
    cpuAllowedProfiles: CPU_PROFILE_FLAGS.m,
    horizontalAutoscaling: false,
    verticalAutoscaling: false,
    complianceDashboardAccess: false,
    discountPercent: 0,
  },
  // From $185: includes 3 GB, 10 GB, 1 endpoint; available 11 GB, 60 GB, 3; 15% off; 2 SSH sessions.
  growth: {
    name: 'growth',
    costCents: 18500,
    containerMemoryLimit: 11 * 1024,
    includedContainerMb: 3 * 1024,
    diskLimit: 60,
    includedDiskGb: 10,
    vhostLimit: 3,
    includedVhosts: 1,
    environmentLimit: 10,
    ephemeralSessionLimit: 2,
    manualBackupLimitPerDb: 10,
    automatedBackupLimitPerDb: 30,
    cpuAllowedProfiles: CPU_PROFILE_FLAGS.m,
    horizontalAutoscaling: false,
    verticalAutoscaling: false,
    complianceDashboardAccess: false,
    discountPercent: 15,
  },
  // From $599: includes 10 GB, 100 GB, 4; available 40 GB, 200 GB, 20; 20% off; 3 SSH sessions.
  scale: {
    name: 'scale',
    costCents: 59900,
    containerMemoryLimit: 40 * 1024,
    includedContainerMb: 10 * 1024,
    diskLimit: 200,
    includedDiskGb: 100,
    vhostLimit: 20,
    includedVhosts: 4,
    environmentLimit: 25,
    ephemeralSessionLimit: 3,
    manualBackupLimitPerDb: 20,
    automatedBackupLimitPerDb: 90,
    cpuAllowedProfiles: ALL_PROFILES,
    horizontalAutoscaling: true,
    verticalAutoscaling: true,
    complianceDashboardAccess: false,
    discountPercent: 20,
  },
  // From $499 (a dedicated stack's price): room for production workloads.
  production: {
    name: 'production',
    costCents: 49900,
    containerMemoryLimit: 256 * 1024,
    includedContainerMb: 0,
    diskLimit: 2000,
    includedDiskGb: 0,
    vhostLimit: 100,
    includedVhosts: 0,
    environmentLimit: null,
    ephemeralSessionLimit: 10,
    manualBackupLimitPerDb: 50,
    automatedBackupLimitPerDb: 365,
    cpuAllowedProfiles: ALL_PROFILES,
    horizontalAutoscaling: true,
    verticalAutoscaling: true,
    complianceDashboardAccess: true,
    discountPercent: 0,
  },
  // Custom (99.95% uptime SLA): agreed with support, so figures as large as the platform goes.
  enterprise: {
    name: 'enterprise',
    costCents: 0,
    containerMemoryLimit: 1024 * 1024,
    includedContainerMb: 0,
    diskLimit: 16000,
    includedDiskGb: 0,
    vhostLimit: 1000,
    includedVhosts: 0,
    environmentLimit: null,
    ephemeralSessionLimit: 50,
    manualBackupLimitPerDb: 200,
    automatedBackupLimitPerDb: 1000,
    cpuAllowedProfiles: ALL_PROFILES,
    horizontalAutoscaling: true,
    verticalAutoscaling: true,
    complianceDashboardAccess: true,
    discountPercent: 0,
  },
};

/**
 * Plans an owner cannot leave by themselves: the custom contract goes through support (spec 1 §8: "A
 * legacy plan tells the user to contact support"), as does an organization with no active plan at all,
 * which the console takes for the legacy enterprise plan (contract §4.2).
 */
export const LEGACY_PLAN_NAMES: readonly PlanName[] = ['enterprise'];

/** spec 1 §8. */
export const PLAN_MESSAGES = {
  paymentRequired: 'You must add a payment method before changing your plan.',
  ownersOnly: 'You must be an account owner to view and manage plans.',
  legacy:
    'Your organization is on a legacy plan, which cannot be changed here. Please contact support to change your plan.',
  unavailable: (name: string) =>
    `The ${name} plan is not available to this organization. Please contact support to move to it.`,
} as const;

/** The numbered limits: how many may exist (null: no limit). */
export type CountedLimit =
  | 'environments'
  | 'endpoints'
  | 'containerMemory'
  | 'disk'
  | 'manualBackups'
  | 'automatedBackups'
  | 'ephemeralSessions';
/** The features a plan has or lacks. */
export type FeatureLimit = 'horizontalAutoscaling' | 'verticalAutoscaling';
export type LimitName = CountedLimit | FeatureLimit | 'cpuProfile';

type Limits = Omit<PlanFigures, 'name'>;

/** Each counted limit: the plan field it is read from and how a refusal counts it. */
export const COUNTED_LIMITS: Record<
  CountedLimit,
  { read: (plan: Limits) => number | null; what: (count: number | null) => string }
> = {
  environments: { read: (p) => p.environmentLimit, what: (n) => plural(n, 'environment') },
  endpoints: { read: (p) => p.vhostLimit, what: (n) => plural(n, 'endpoint') },
  containerMemory: {
    read: (p) => p.containerMemoryLimit,
    what: (n) => `${formatMb(n)} of container memory`,
  },
  disk: { read: (p) => p.diskLimit, what: (n) => `${n ?? 'any number of'} GB of database disk` },
  manualBackups: {
    read: (p) => p.manualBackupLimitPerDb,
    what: (n) => `${plural(n, 'manual backup')} per database`,
  },
  automatedBackups: {
    read: (p) => p.automatedBackupLimitPerDb,
    what: (n) => `${plural(n, 'automated backup')} per database`,
  },
  ephemeralSessions: { read: (p) => p.ephemeralSessionLimit, what: (n) => plural(n, 'SSH session') },
};

export const FEATURE_LIMITS: Record<FeatureLimit, { read: (plan: Limits) => boolean; what: string }> = {
  horizontalAutoscaling: { read: (p) => p.horizontalAutoscaling, what: 'horizontal autoscaling' },
  verticalAutoscaling: { read: (p) => p.verticalAutoscaling, what: 'vertical autoscaling' },
};

/** The plan feature a sizing policy's autoscaling mode needs (its policy is made and run under it). */
export function autoscalingFeature(mode: 'horizontal' | 'vertical'): FeatureLimit {
  return mode === 'horizontal' ? 'horizontalAutoscaling' : 'verticalAutoscaling';
}

/** null is no limit. */
function plural(count: number | null, noun: string): string {
  if (count === null) return `any number of ${noun}s`;
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function formatMb(mb: number | null): string {
  if (mb === null) return 'any amount';
  return mb % 1024 === 0 ? `${mb / 1024} GB` : `${mb} MB`;
}

/** Whether `wanted` (the total there would be) fits the plan's counted limit. */
export function fitsLimit(limit: CountedLimit, plan: Limits, wanted: number): boolean {
  const allowed = COUNTED_LIMITS[limit].read(plan);
  return allowed === null || wanted <= allowed;
}

/**
 * The plan that lifts a limit: the cheapest whose figures pass `passes` among those the organization's
 * owners may choose (`choosable`), else the cheapest of all (which only support can move it to), or null.
 */
function liftingPlan<P extends Limits & { name: string }>(
  plans: readonly P[],
  passes: (plan: P) => boolean,
  choosable: readonly string[],
) {
  const lifting = [...plans]
    .sort((a, b) => PLAN_NAMES.indexOf(a.name as PlanName) - PLAN_NAMES.indexOf(b.name as PlanName))
    .filter(passes);
  return lifting.find((plan) => choosable.includes(plan.name)) ?? lifting[0] ?? null;
}

const LIFT_ADVICE = 'Change your plan on the Plans page to lift the limit.';
const SUPPORT_ADVICE = 'Please contact support to move to it.';
const NO_LIFT_ADVICE = 'No plan allows more: please contact support.';

/** How to get onto the lifting plan: the Plans page when the owners may choose it, else support. */
function liftAdvice(lifting: string, choosable: readonly string[]): string {
  return choosable.includes(lifting) ? LIFT_ADVICE : SUPPORT_ADVICE;
}

export interface LimitRefusal {
  limit: LimitName;
  message: string;
  /** The plan that lifts the limit, or null when none does. */
  liftedBy: string | null;
}

/**
 * A refusal of a counted limit: names the limit and its number on the organization's plan, and the
 * cheapest plan that allows `wanted` (see liftingPlan). `choosable`: the plans its owners may choose.
 */
export function countedLimitRefusal<P extends Limits & { name: string }>(
  limit: CountedLimit,
  current: P,
  plans: readonly P[],
  wanted: number,
  choosable: readonly string[] = PLAN_NAMES,
): LimitRefusal {
  const rule = COUNTED_LIMITS[limit];
  const lifting = liftingPlan(plans, (plan) => fitsLimit(limit, plan, wanted), choosable);
  const lift = lifting
    ? `The ${lifting.name} plan allows ${rule.what(rule.read(lifting))}. ${liftAdvice(lifting.name, choosable)}`
    : NO_LIFT_ADVICE;
  return {
    limit,
    liftedBy: lifting?.name ?? null,
    message: `The ${current.name} plan allows ${rule.what(rule.read(current))}. ${lift}`,
  };
}

/** A refusal of a feature the organization's plan lacks. */
export function featureLimitRefusal<P extends Limits & { name: string }>(
  limit: FeatureLimit,
  current: P,
  plans: readonly P[],
  choosable: readonly string[] = PLAN_NAMES,
): LimitRefusal {
  const rule = FEATURE_LIMITS[limit];
  const liftedBy = liftingPlan(plans, (plan) => rule.read(plan), choosable)?.name ?? null;
  const lift = liftedBy ? `The ${liftedBy} plan does. ${liftAdvice(liftedBy, choosable)}` : NO_LIFT_ADVICE;
  return { limit, liftedBy, message: `The ${current.name} plan does not include ${rule.what}. ${lift}` };
}

/** A refusal of a container profile (instance class) the organization's plan does not run. */
export function cpuProfileRefusal<P extends Limits & { name: string }>(
  instanceClass: string,
  current: P,
  plans: readonly P[],
  choosable: readonly string[] = PLAN_NAMES,
): LimitRefusal {
  const family = instanceClassFamily(instanceClass) ?? 'm';
  const allows = (plan: P) => allowsInstanceClass(plan.cpuAllowedProfiles, instanceClass);
  const liftedBy = liftingPlan(plans, allows, choosable)?.name ?? null;
  const lift = liftedBy ? `The ${liftedBy} plan does. ${liftAdvice(liftedBy, choosable)}` : NO_LIFT_ADVICE;
  return {
    limit: 'cpuProfile',
    liftedBy,
    message: `The ${current.name} plan does not include ${PROFILE_NAMES[family]} containers (${instanceClass}). ${lift}`,
  };
}
