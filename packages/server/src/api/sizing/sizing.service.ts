import {
  autoscalingAllowed,
  autoscalingFeature,
  mergeSizingPolicy,
  SIZING_POLICY_DEFAULTS,
  type SizingPolicyFields,
  sizingPolicyBody,
  sizingPolicyMessages,
  sizingPolicyProblems,
} from '@berth/core';
import { eq, inArray } from 'drizzle-orm';
import type { CallerRef } from '../../auth/caller-access.ts';
import { planLimits } from '../../billing/plans/plan-limits.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { environments, services, sizingPolicies, sizingRecommendations, stacks } from '../../db/schema.ts';
import { type Page, selectPage } from '../../db/select-page.ts';
import { ApiError, parseBody, unprocessable } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import type { ServiceRow } from '../services/services.hal.ts';
import type { ServicesService } from '../services/services.service.ts';
import {
  policyColumns,
  policyFields,
  type SizingPolicyRow,
  type SizingRecommendationRow,
} from './sizing.hal.ts';

/**
 * Service sizing policies and manual sizing recommendations (contract §5.7). A policy belongs to one
 * service (of an app: the autoscaler scales app services); Ops (observability) sets it, as it scales.
 */
export function createSizingService(deps: { db: Db; services: ServicesService }) {
  const { db } = deps;
  const { access, load } = deps.services;

  const noPolicy = () => new ApiError(404, 'not_found', sizingPolicyMessages.noPolicy);

  async function policyOf(serviceId: number): Promise<SizingPolicyRow | undefined> {
    const [row] = await db.select().from(sizingPolicies).where(eq(sizingPolicies.serviceId, serviceId));
    return row;
  }

  /** The policy a request leaves, refused (422) when a rule fails or its stack does not offer its mode. */
  async function checked(service: ServiceRow, base: SizingPolicyFields, body: unknown) {
    if (!service.appId) throw unprocessable(sizingPolicyMessages.appServicesOnly);
    const policy = mergeSizingPolicy(base, parseBody(sizingPolicyBody, body));
    const problems = sizingPolicyProblems(policy);
    const [first] = problems;
    if (first) {
      // The first in the message, every one by field in the details (what a form shows beside each).
      const details: Record<string, string[]> = {};
      for (const problem of problems)
        details[problem.field] = [...(details[problem.field] ?? []), problem.message];
      throw unprocessable(first.message, details);
    }
    if (policy.scaling_enabled) {
      const [stack] = await db
        .select({
          verticalAutoscaling: stacks.verticalAutoscaling,
          horizontalAutoscaling: stacks.horizontalAutoscaling,
          organizationId: environments.organizationId,
        })
        .from(environments)
        .innerJoin(stacks, eq(stacks.id, environments.stackId))
        .where(eq(environments.id, service.environmentId));
      if (!stack || !autoscalingAllowed(stack, policy.autoscaling)) {
        throw unprocessable(sizingPolicyMessages.notAllowed(policy.autoscaling));
      }
      // The organization's plan must include the mode too (billing/plans).
      const plan = await planLimits(db, stack.organizationId);
      plan.requireFeature(autoscalingFeature(policy.autoscaling));
    }
    return policy;
  }

  return {
    async list(ref: CallerRef, paging: Paging | null): Promise<Page<SizingPolicyRow>> {
      const ids = await access.readableEnvironmentIds(await access.caller(ref), 'service_sizing_policy.read');
      return selectPage(db, sizingPolicies, {
        where: inArray(sizingPolicies.environmentId, ids),
        orderBy: [sizingPolicies.id],
        paging,
      });
    },

    async listInEnvironment(ref: CallerRef, environmentId: number | null, paging: Paging | null) {
      const caller = await access.caller(ref);
      const environment = await access.environment(caller, environmentId, 'service_sizing_policy.read');
      return selectPage(db, sizingPolicies, {
        where: eq(sizingPolicies.environmentId, environment.id),
        orderBy: [sizingPolicies.id],
        paging,
      });
    },

    /** The service's own policy; 404 when it has none (contract §9 item 5). */
    async getForService(ref: CallerRef, serviceId: number | null): Promise<SizingPolicyRow> {
      const service = await load(await access.caller(ref), serviceId, 'service_sizing_policy.read');
      const policy = await policyOf(service.id);
      if (!policy) throw noPolicy();
      return policy;
    },

    /** POST: a new policy, the spec's defaults for every field left out. */
    async create(ref: CallerRef, serviceId: number | null, body: unknown): Promise<SizingPolicyRow> {
      const service = await load(await access.caller(ref), serviceId, 'service_sizing_policy.update');
      if (await policyOf(service.id)) throw unprocessable(sizingPolicyMessages.exists);
      const policy = await checked(service, SIZING_POLICY_DEFAULTS, body);
      try {
        return await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(sizingPolicies)
            .values({ serviceId: service.id, environmentId: service.environmentId, ...policyColumns(policy) })
            .returning();
          if (!row) throw new Error('Sizing policy insert returned nothing');
          await tx.update(services).set({ sizingPolicyId: row.id }).where(eq(services.id, service.id));
          return row;
        });
      } catch (error) {
        // Two creations at once: the second finds the first's.
        if (isUniqueViolation(error)) throw unprocessable(sizingPolicyMessages.exists);
        throw error;
      }
    },

    /** PUT: the fields sent over the policy's own; the rest stay. */
    async update(ref: CallerRef, serviceId: number | null, body: unknown): Promise<SizingPolicyRow> {
      const service = await load(await access.caller(ref), serviceId, 'service_sizing_policy.update');
      const existing = await policyOf(service.id);
      if (!existing) throw noPolicy();
      const policy = await checked(service, policyFields(existing), body);
      const [row] = await db
        .update(sizingPolicies)
        .set({ ...policyColumns(policy), updatedAt: new Date() })
        .where(eq(sizingPolicies.id, existing.id))
        .returning();
      return row ?? existing;
    },

    async remove(ref: CallerRef, serviceId: number | null): Promise<void> {
      const service = await load(await access.caller(ref), serviceId, 'service_sizing_policy.update');
      await db.transaction(async (tx) => {
        const deleted = await tx
          .delete(sizingPolicies)
          .where(eq(sizingPolicies.serviceId, service.id))
          .returning({ id: sizingPolicies.id });
        if (deleted.length === 0) throw noPolicy();
        await tx.update(services).set({ sizingPolicyId: null }).where(eq(services.id, service.id));
      });
    },

    async recommendations(ref: CallerRef, paging: Paging | null): Promise<Page<SizingRecommendationRow>> {
      const ids = await access.readableEnvironmentIds(await access.caller(ref), 'sizing_recommendation.read');
      return selectPage(db, sizingRecommendations, {
        where: inArray(sizingRecommendations.environmentId, ids),
        orderBy: [sizingRecommendations.id],
        paging,
      });
    },

    async recommendation(ref: CallerRef, id: number | null): Promise<SizingRecommendationRow> {
      const [found] =
        id === null
          ? []
          : await db.select().from(sizingRecommendations).where(eq(sizingRecommendations.id, id));
      const caller = await access.caller(ref);
      return (await access.resource(caller, found, 'sizing_recommendation.read', 'Recommendation')).row;
    },
  };
}
export type SizingService = ReturnType<typeof createSizingService>;
