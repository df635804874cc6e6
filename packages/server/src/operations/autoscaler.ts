import {
  type AllowedProfileFamilies,
  autoscalingAllowed,
  autoscalingFeature,
  FEATURE_LIMITS,
} from '@berth/core';
import { and, desc, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import { policyFields } from '../api/sizing/sizing.hal.ts';
import { type PlanRow, planInForce } from '../billing/plans/plan-limits.ts';
import type { Db } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import {
  containers,
  environments,
  operations,
  releases,
  services,
  sizingPolicies,
  stacks,
} from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { type MetricsContainer, metricsContainerOf, type Runtime } from '../runtimes/runtime.ts';
import { autoscaleDecision, type ServiceLoad } from './autoscale-decision.ts';
import { sampleContainers, ticksBetween } from './container-load.ts';
import type { OperationsService } from './operations.service.ts';
import { inBatches, periodic } from './periodic.ts';

/** Policies looked at per query: one pass's work grows in steps, never as one huge answer. */
const BATCH = 200;
/** Moments measured in a lookback window: at most this many, at least 10 s apart. */
const MAX_TICKS = 60;

/** What a service's running containers used between two moments (the runtime's metrics by default). */
export type LoadSource = (input: {
  runtime: string;
  containers: MetricsContainer[];
  from: Date;
  to: Date;
}) => Promise<ServiceLoad>;

/** The load of a service's containers from its runtime's metrics: per moment, the mean over containers. */
export function runtimeLoadSource(runtimes: Record<string, Runtime>): LoadSource {
  return async ({ runtime: name, containers: running, from, to }) => {
    const runtime = runtimes[name];
    const load: ServiceLoad = { cpu: [], memory: [] };
    if (!runtime || running.length === 0) return load;
    const ticks = ticksBetween(from, to, MAX_TICKS, 10_000);
    const samples = await sampleContainers(runtime, running, ticks);
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    ticks.forEach((_, index) => {
      const cpu: number[] = [];
      const memory: number[] = [];
      for (const { container, cpu: cpuAt, memoryMb } of samples) {
        const used = cpuAt[index];
        if (typeof used === 'number') cpu.push(used);
        const held = memoryMb[index];
        if (typeof held === 'number' && container.memoryLimitMb > 0)
          memory.push(held / container.memoryLimitMb);
      }
      if (cpu.length) load.cpu.push(mean(cpu));
      if (memory.length) load.memory.push(mean(memory));
    });
    return load;
  };
}

/**
 * The autoscaler (issue 13): every interval, each enabled sizing policy's service is measured over the
 * policy's lookback window and, when its policy says so, scaled by an automated `scale` operation whose
 * note (and first log line) says why. A service is left alone while an operation on it or its app is
 * unfinished, within the cooldown after its last scale (up or down) and after its last release. The
 * queue's unique index keeps one unfinished automated scale per service, however many processes run
 * this; the organization's queue cap holds for it as for any operation.
 */
export function createAutoscaler(deps: {
  db: Db;
  operations: Pick<OperationsService, 'enqueue'>;
  load: LoadSource;
  /** The clock (tests move it instead of waiting). */
  now?: () => Date;
  onError?: (error: unknown) => void;
  onScaled?: (serviceId: number, reason: string) => void;
}) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  async function duePolicies(afterId: number) {
    return db
      .select({
        policy: sizingPolicies,
        service: services,
        organizationId: environments.organizationId,
        stack: stacks,
        releasedAt: releases.createdAt,
      })
      .from(sizingPolicies)
      .innerJoin(services, eq(sizingPolicies.serviceId, services.id))
      .innerJoin(environments, eq(services.environmentId, environments.id))
      .innerJoin(stacks, eq(environments.stackId, stacks.id))
      .innerJoin(releases, eq(services.currentReleaseId, releases.id))
      .where(and(eq(sizingPolicies.scalingEnabled, true), gt(sizingPolicies.id, afterId)))
      .orderBy(sizingPolicies.id)
      .limit(BATCH);
  }

  /** Whether an operation on the service or its app is queued or running (a deploy, a scale, a restart). */
  async function busy(serviceId: number, appId: number): Promise<boolean> {
    const [row] = await db
      .select({ id: operations.id })
      .from(operations)
      .where(
        and(
          inArray(operations.status, ['queued', 'running']),
          or(
            and(eq(operations.resourceType, 'service'), eq(operations.resourceId, serviceId)),
            and(eq(operations.resourceType, 'app'), eq(operations.resourceId, appId)),
          ),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  /** When the service's last successful scale ended and which way it went, if it had one. */
  async function lastScale(serviceId: number) {
    const [row] = await db
      .select()
      .from(operations)
      .where(
        and(
          eq(operations.resourceType, 'service'),
          eq(operations.resourceId, serviceId),
          eq(operations.type, 'scale'),
          eq(operations.status, 'succeeded'),
        ),
      )
      .orderBy(desc(operations.id))
      .limit(1);
    if (!row?.finishedAt) return null;
    const grew =
      (row.containerCount ?? 0) > (row.previousContainerCount ?? row.containerCount ?? 0) ||
      (row.containerSize ?? 0) > (row.previousContainerSize ?? row.containerSize ?? 0);
    return { finishedAt: row.finishedAt, direction: grew ? ('up' as const) : ('down' as const) };
  }

  /** The plans in force, each organization's read once per pass however many policies it has. */
  function planReader() {
    const read = new Map<string, Promise<PlanRow>>();
    return (organizationId: string): Promise<PlanRow> => {
      let plan = read.get(organizationId);
      if (!plan) {
        plan = planInForce(db, organizationId).then(({ current }) => current);
        read.set(organizationId, plan);
      }
      return plan;
    };
  }

  async function consider(
    due: Awaited<ReturnType<typeof duePolicies>>[number],
    at: Date,
    planOf: (organizationId: string) => Promise<PlanRow>,
  ): Promise<boolean> {
    const { policy: row, service, stack } = due;
    const policy = policyFields(row);
    if (!service.appId || !autoscalingAllowed(stack, policy.autoscaling)) return false;
    // A plan lowered since the policy was made keeps the policy (nothing is removed), but no longer
    // scales by it until the plan includes its mode again.
    const plan = await planOf(due.organizationId);
    if (!FEATURE_LIMITS[autoscalingFeature(policy.autoscaling)].read(plan)) return false;
    const since = (date: Date) => (at.getTime() - date.getTime()) / 1000;
    if (since(due.releasedAt) < policy.post_release_cooldown_seconds) return false;
    if (await busy(service.id, service.appId)) return false;
    const last = await lastScale(service.id);
    if (last) {
      const cooldown =
        last.direction === 'up'
          ? policy.post_scale_up_cooldown_seconds
          : policy.post_scale_down_cooldown_seconds;
      if (since(last.finishedAt) < cooldown) return false;
    }
    const running = await db
      .select()
      .from(containers)
      .where(and(eq(containers.releaseId, service.currentReleaseId ?? -1), isNull(containers.deletedAt)));
    const load = await deps.load({
      runtime: stack.runtime,
      containers: running.map(metricsContainerOf),
      from: new Date(at.getTime() - policy.metric_lookback_seconds * 1000),
      to: at,
    });
    const allowed: AllowedProfileFamilies = {
      m: stack.allowMInstanceProfile,
      c: stack.allowCInstanceProfile,
      r: stack.allowRInstanceProfile,
    };
    const decision = autoscaleDecision(
      policy,
      {
        containerCount: service.containerCount,
        memoryMb: service.containerMemoryLimitMb,
        instanceClass: service.instanceClass,
      },
      load,
      allowed,
    );
    if (!decision) return false;
    try {
      await deps.operations.enqueue({
        organizationId: due.organizationId,
        environmentId: service.environmentId,
        resourceType: 'service',
        resourceId: service.id,
        resourceHandle: service.handle,
        type: 'scale',
        user: null,
        containerCount: decision.containerCount ?? null,
        containerSize: decision.containerSize ?? null,
        instanceProfile: decision.instanceProfile ?? null,
        note: `Autoscaling: ${decision.reason}`,
      });
    } catch (error) {
      // Another process scaled it first, or the organization's queue is full: the next pass looks again.
      if (isUniqueViolation(error) || (error instanceof ApiError && error.status === 429)) return false;
      // The organization's plan allows no more (memory, profile): the service stays as it is, the
      // other services are still looked at.
      if (error instanceof ApiError && error.error === 'plan_limit') return false;
      throw error;
    }
    deps.onScaled?.(service.id, decision.reason);
    return true;
  }

  /** One pass over every enabled policy; how many scales it started. */
  async function run(): Promise<number> {
    const at = now();
    const planOf = planReader();
    // One service's failure (its runtime's metrics unreadable) does not cost the others.
    return inBatches(
      duePolicies,
      (due) => due.policy.id,
      BATCH,
      (due) => consider(due, at, planOf),
      deps.onError,
    );
  }

  const timer = periodic(run, deps.onError);
  return { run, start: timer.start, stop: timer.stop };
}
export type Autoscaler = ReturnType<typeof createAutoscaler>;
