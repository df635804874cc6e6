import { actionDenial, LEGACY_PLAN_NAMES, PLAN_MESSAGES, PLAN_NAMES, type PlanName } from '@berth/core';
import { eq } from 'drizzle-orm';
import { createAccess } from '../../api/access/access.ts';
import { accessOf, type CallerRef } from '../../auth/caller-access.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { activePlans, plans } from '../../db/schema.ts';
import { ApiError, forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { parseNumericId } from '../../http/ids.ts';
import { lockOrganization, type PlanRow } from './plan-limits.ts';
import type { ActivePlanRow } from './plans.hal.ts';

/** Plans an owner may choose unless the operator says otherwise: all but no plan and the custom one. */
export const DEFAULT_AVAILABLE_PLANS: readonly PlanName[] = PLAN_NAMES.filter(
  (name) => name !== 'none' && !LEGACY_PLAN_NAMES.includes(name),
);

const byCatalogOrder = (a: PlanRow, b: PlanRow) =>
  PLAN_NAMES.indexOf(a.name as PlanName) - PLAN_NAMES.indexOf(b.name as PlanName);

export function createPlansService(deps: {
  db: Db;
  /** The plan a new organization starts on (BERTH_DEFAULT_PLAN). */
  defaultPlan: PlanName;
  /** Whether the organization has an active payment method (the payments module answers). */
  hasPaymentMethod(organizationId: string): Promise<boolean>;
}) {
  const { db } = deps;
  const access = createAccess(db);

  async function planById(tx: DbOrTx, id: number): Promise<PlanRow | undefined> {
    const [plan] = await tx.select().from(plans).where(eq(plans.id, id));
    return plan;
  }

  /** The move asked for, unless the current plan is legacy or the target unknown or not available (422). */
  async function allowedChange(tx: DbOrTx, activePlanId: number, planId: string) {
    const [locked] = await tx.select().from(activePlans).where(eq(activePlans.id, activePlanId));
    if (!locked) throw notFound('Active plan');
    const current = await planById(tx, locked.planId);
    if (!current || LEGACY_PLAN_NAMES.includes(current.name as PlanName)) {
      throw unprocessable(PLAN_MESSAGES.legacy);
    }
    const targetId = parseNumericId(planId);
    const target = targetId === null ? undefined : await planById(tx, targetId);
    if (!target) throw unprocessable('Plan not found', { plan_id: ['not found'] });
    if (target.id !== current.id && !locked.availablePlans.includes(target.name)) {
      throw unprocessable(PLAN_MESSAGES.unavailable(target.name), { plan_id: ['not available'] });
    }
    return { locked, current, target };
  }

  /** The active plan by id, when the caller is a member of its organization (404 otherwise). */
  async function visibleActivePlan(ref: CallerRef, id: number | null) {
    const caller = await accessOf(db, ref);
    const [active] = id === null ? [] : await db.select().from(activePlans).where(eq(activePlans.id, id));
    // Authorized like any other (an absent one is outside every organization: 404).
    const actor = access.member(caller, active?.organizationId ?? '', 'plan.read', 'Active plan');
    if (!active) throw notFound('Active plan');
    return { active, actor };
  }

  return {
    /** Every plan, cheapest first (any signed-in caller: the catalog is no secret). */
    async list(): Promise<PlanRow[]> {
      return (await db.select().from(plans)).sort(byCatalogOrder);
    },

    async get(id: number | null): Promise<PlanRow> {
      const plan = id === null ? undefined : await planById(db, id);
      if (!plan) throw notFound('Plan');
      return plan;
    },

    /** The organization's active plan with its plan, or none (contract §4.2: the legacy plan then). */
    async activePlansOf(ref: CallerRef, organizationId: string) {
      const caller = await accessOf(db, ref);
      access.member(caller, organizationId, 'plan.read');
      const rows = await db
        .select({ active: activePlans, plan: plans })
        .from(activePlans)
        .innerJoin(plans, eq(activePlans.planId, plans.id))
        .where(eq(activePlans.organizationId, organizationId));
      return rows;
    },

    /**
     * `PUT /active_plans/:id`: an Account Owner moves the organization to one of its available plans,
     * once it has a payment method (spec 1 §8). Nothing made under the old plan is removed: what is over
     * the new plan's limits stays, and new creations are refused.
     */
    async change(
      ref: CallerRef,
      id: number | null,
      readPlanId: () => string,
    ): Promise<{ active: ActivePlanRow; plan: PlanRow }> {
      const { active, actor } = await visibleActivePlan(ref, id);
      if (actionDenial(actor, 'plan.change') !== null) throw forbidden(PLAN_MESSAGES.ownersOnly);
      const planId = readPlanId();
      // Checked first without the lock (the payment method is read on its own connection: on the
      // embedded database a read outside the transaction would wait for it), then again under it.
      const first = await allowedChange(db, active.id, planId);
      if (first.target.id === first.current.id) return { active: first.locked, plan: first.current };
      if (!(await deps.hasPaymentMethod(active.organizationId))) {
        throw new ApiError(422, 'payment_method_required', PLAN_MESSAGES.paymentRequired);
      }
      return db.transaction(async (tx) => {
        // One change at a time per organization, and none while a limited creation is being counted.
        await lockOrganization(tx, active.organizationId);
        const { locked, target } = await allowedChange(tx, active.id, planId);
        const [changed] = await tx
          .update(activePlans)
          .set({ planId: target.id, updatedAt: new Date() })
          .where(eq(activePlans.id, locked.id))
          .returning();
        if (!changed) throw notFound('Active plan');
        return { active: changed, plan: target };
      });
    },

    /** A new organization's plan (in the transaction that makes it): the operator's default. */
    async startPlan(tx: DbOrTx, organizationId: string): Promise<void> {
      const [plan] = await tx.select({ id: plans.id }).from(plans).where(eq(plans.name, deps.defaultPlan));
      if (!plan) throw new Error(`The default plan ${deps.defaultPlan} is missing from the plans table`);
      const available = DEFAULT_AVAILABLE_PLANS.includes(deps.defaultPlan)
        ? [...DEFAULT_AVAILABLE_PLANS]
        : [deps.defaultPlan, ...DEFAULT_AVAILABLE_PLANS];
      await tx.insert(activePlans).values({ organizationId, planId: plan.id, availablePlans: available });
    },
  };
}
export type PlansService = ReturnType<typeof createPlansService>;
