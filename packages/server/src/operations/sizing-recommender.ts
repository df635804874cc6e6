import { adviseSizing, cpuShare, percentileOf, RECOMMENDATION } from '@berth/core';
import { and, desc, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { containers, environments, releases, services, sizingRecommendations, stacks } from '../db/schema.ts';
import { metricsContainerOf, type Runtime } from '../runtimes/runtime.ts';
import { type ContainerSamples, sampleContainers, ticksBetween } from './container-load.ts';
import { inBatches, periodic } from './periodic.ts';

const DAY_MS = 86_400_000;
const BATCH = 200;
/** Moments measured over the 14 days: hourly at most, a minute apart at least. */
const TICKS = 14 * 24;
/** The newest containers of a service measured (each deploy adds some). */
const CONTAINERS = 50;

/** What a service's containers used between two moments: the runtime's metrics unless a test says. */
export type UsageSource = (input: {
  runtime: string;
  containers: Parameters<typeof sampleContainers>[1];
  from: Date;
  to: Date;
}) => Promise<ContainerSamples[]>;

export function runtimeUsageSource(runtimes: Record<string, Runtime>): UsageSource {
  return async ({ runtime: name, containers: measured, from, to }) => {
    const runtime = runtimes[name];
    if (!runtime || measured.length === 0) return [];
    return sampleContainers(runtime, measured, ticksBetween(from, to, TICKS, 60_000));
  };
}

/**
 * Manual sizing recommendations (spec 2 §9): once a day per running service, the 95th percentile of its
 * containers' CPU use (in cores) and the most memory one held over the last 14 days give the cheapest
 * size that holds them with headroom, and what it would save a month (core's `adviseSizing`). Each
 * service keeps its newest recommendation. A service measured for less than `minimumObservedMs` (a day
 * by default) gets none yet: an hour of traffic says little about a month's.
 */
export function createSizingRecommender(deps: {
  db: Db;
  usage: UsageSource;
  minimumObservedMs: number;
  now?: () => Date;
  onError?: (error: unknown) => void;
}) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  /** Running services whose recommendation is a day old or made for another size, or that have none. */
  async function dueServices(at: Date, afterId: number) {
    return db
      .select({ service: services, stack: stacks })
      .from(services)
      .innerJoin(environments, eq(services.environmentId, environments.id))
      .innerJoin(stacks, eq(environments.stackId, stacks.id))
      .leftJoin(sizingRecommendations, eq(sizingRecommendations.serviceId, services.id))
      .where(
        and(
          gt(services.id, afterId),
          sql`${services.currentReleaseId} is not null`,
          // Measured long enough: one query for the batch, not one per young service.
          sql`exists (select 1 from ${containers} inner join ${releases} on ${containers.releaseId} = ${releases.id}
            where ${releases.serviceId} = ${services.id}
            and ${containers.createdAt} <= ${new Date(at.getTime() - deps.minimumObservedMs)})`,
          gt(services.containerCount, 0),
          or(
            isNull(sizingRecommendations.id),
            lt(sizingRecommendations.createdAt, new Date(at.getTime() - DAY_MS)),
            // Resized since: the console no longer shows the old one (spec 2 §4), so it is made again.
            ne(sizingRecommendations.instanceClassAtTime, services.instanceClass),
            ne(sizingRecommendations.containerMemoryLimitMbAtTime, services.containerMemoryLimitMb),
          ),
        ),
      )
      .orderBy(services.id)
      .limit(BATCH);
  }

  async function recommend(
    service: typeof services.$inferSelect,
    stack: typeof stacks.$inferSelect,
    at: Date,
  ) {
    const from = new Date(at.getTime() - RECOMMENDATION.windowDays * DAY_MS);
    // The service's containers that ran in the window, of every release: a deploy does not reset it.
    const ran = await db
      .select({ container: containers })
      .from(containers)
      .innerJoin(releases, eq(containers.releaseId, releases.id))
      .where(
        and(
          eq(releases.serviceId, service.id),
          or(isNull(containers.deletedAt), gt(containers.deletedAt, from)),
        ),
      )
      .orderBy(desc(containers.id))
      .limit(CONTAINERS);
    if (ran.length === 0) return false;
    const firstStart = Math.min(...ran.map(({ container }) => container.createdAt.getTime()));
    if (at.getTime() - firstStart < deps.minimumObservedMs) return false;
    const samples = await deps.usage({
      runtime: stack.runtime,
      containers: ran.map(({ container }) => metricsContainerOf(container)),
      from: new Date(Math.max(from.getTime(), firstStart)),
      to: at,
    });
    const cpuCores: number[] = [];
    const memoryMb: number[] = [];
    for (const { container, cpu, memoryMb: held } of samples) {
      const share = cpuShare(container.instanceClass, container.memoryLimitMb) ?? 0;
      for (const used of cpu) if (typeof used === 'number') cpuCores.push(used * share);
      for (const mb of held) if (typeof mb === 'number') memoryMb.push(mb);
    }
    const cpu = percentileOf(cpuCores, RECOMMENDATION.percentile);
    if (cpu === null || memoryMb.length === 0) return false;
    const ram = Math.max(...memoryMb);
    const advice = adviseSizing(
      { cpuCores: cpu, ramMb: ram },
      {
        instanceClass: service.instanceClass,
        containerMemoryMb: service.containerMemoryLimitMb,
        containerCount: service.containerCount,
      },
      { m: stack.allowMInstanceProfile, c: stack.allowCInstanceProfile, r: stack.allowRInstanceProfile },
    );
    const values = {
      serviceId: service.id,
      environmentId: service.environmentId,
      cpuUsage: Math.round(cpu * 1000) / 1000,
      ramUsage: Math.round(ram),
      ramTarget: advice.ramTargetMb,
      recommendedInstanceClass: advice.instanceClass,
      recommendedContainerMemoryLimitMb: advice.containerMemoryMb,
      instanceClassAtTime: service.instanceClass,
      containerMemoryLimitMbAtTime: service.containerMemoryLimitMb,
      costSavings: advice.costSavings,
      metricPercentile: RECOMMENDATION.percentile,
      createdAt: at,
      updatedAt: at,
    };
    const { serviceId: _, ...changes } = values;
    await db
      .insert(sizingRecommendations)
      .values(values)
      .onConflictDoUpdate({ target: sizingRecommendations.serviceId, set: changes });
    return true;
  }

  /** One pass; how many recommendations it made. */
  async function run(): Promise<number> {
    const at = now();
    return inBatches(
      (afterId) => dueServices(at, afterId),
      (due) => due.service.id,
      BATCH,
      (due) => recommend(due.service, due.stack, at),
      deps.onError,
    );
  }

  const timer = periodic(run, deps.onError);
  return { run, start: timer.start, stop: timer.stop };
}
export type SizingRecommender = ReturnType<typeof createSizingRecommender>;
