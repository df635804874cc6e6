import {
  allowsInstanceClass,
  type CountedLimit,
  countedLimitRefusal,
  cpuProfileRefusal,
  FEATURE_LIMITS,
  type FeatureLimit,
  featureLimitRefusal,
  fitsLimit,
  LEGACY_PLAN_NAMES,
  type LimitRefusal,
  type PlanName,
} from '@berth/core';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { activePlans, organizations, plans } from '../../db/schema.ts';
import { ApiError } from '../../http/errors.ts';

export type PlanRow = typeof plans.$inferSelect;

/** The plan an organization without an active plan is held to: the legacy one the console assumes. */
export const LEGACY_PLAN = 'enterprise';

/**
 * A limit's refusal as the API answers it: 422 `plan_limit`, the message naming the limit, its number and
 * the plan that lifts it; `details` say the same for the console's link to Plans.
 */
export function planLimitError(refusal: LimitRefusal, current: PlanRow): ApiError {
  return new ApiError(422, 'plan_limit', refusal.message, {
    limit: [refusal.limit],
    plan: [current.name],
    ...(refusal.liftedBy ? { lifted_by: [refusal.liftedBy] } : {}),
  });
}

/**
 * The plan in force for an organization (its active plan's, else the legacy plan), every plan, and the
 * plans its Account Owners may move it to themselves (none from a legacy plan: support moves it).
 */
export async function planInForce(tx: DbOrTx, organizationId: string) {
  const all = await tx.select().from(plans);
  const [active] = await tx
    .select({ planId: activePlans.planId, availablePlans: activePlans.availablePlans })
    .from(activePlans)
    .where(eq(activePlans.organizationId, organizationId));
  const current = active
    ? all.find((plan) => plan.id === active.planId)
    : all.find((plan) => plan.name === LEGACY_PLAN);
  if (!current) throw new Error(`No plan in force for organization ${organizationId}`);
  const legacy = !active || LEGACY_PLAN_NAMES.includes(current.name as PlanName);
  return { current, plans: all, choosable: legacy ? [] : active.availablePlans };
}

/**
 * Every creation a limit counts runs in a transaction that first takes this lock: creations in one
 * organization are then counted one after another, so two at the last slot never both pass. NO KEY
 * UPDATE conflicts with itself, not with inserts that merely reference the organization.
 */
export async function lockOrganization(tx: DbOrTx, organizationId: string): Promise<void> {
  await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for('no key update');
}

/**
 * The organization's plan, read under its lock (see lockOrganization), with the checks each creation
 * makes against it. Call inside the transaction that makes the resource.
 */
export async function planLimits(tx: DbOrTx, organizationId: string) {
  await lockOrganization(tx, organizationId);
  const { current, plans: all, choosable } = await planInForce(tx, organizationId);
  return {
    plan: current,
    /** Refuses when `wanted` (the total once made) is over the counted limit. */
    requireCount(limit: CountedLimit, wanted: number): void {
      if (fitsLimit(limit, current, wanted)) return;
      throw planLimitError(countedLimitRefusal(limit, current, all, wanted, choosable), current);
    },
    requireFeature(limit: FeatureLimit): void {
      if (FEATURE_LIMITS[limit].read(current)) return;
      throw planLimitError(featureLimitRefusal(limit, current, all, choosable), current);
    },
    requireProfile(instanceClass: string): void {
      if (allowsInstanceClass(current.cpuAllowedProfiles, instanceClass)) return;
      throw planLimitError(cpuProfileRefusal(instanceClass, current, all, choosable), current);
    },
  };
}
