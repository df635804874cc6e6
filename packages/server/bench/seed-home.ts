/**
 * What the home benchmark adds to the benchmarks' organization (bench/seed.ts; not a test), so that each
 * of home's cards has its rows at the organization's size: 20 repositories whose deployments every app
 * runs (one each, 1,000 distinct commits), sizing policies on one service in 10 and a recommendation on
 * one in 5, an endpoint on one app in 10 (half behind an IP allowlist).
 */
import { SIZING_POLICY_DEFAULTS } from '@berth/core';
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.ts';
import {
  apps,
  deployments,
  environments,
  services,
  sizingPolicies,
  sizingRecommendations,
  sources,
  vhosts,
} from '../src/db/schema.ts';
import type { BenchOrganization } from './seed.ts';

const SOURCES = 20;
const COMMITS = 1000;
const CHUNK = 1000;

async function inChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) await insert(rows.slice(start, start + CHUNK));
}

export async function seedHomeDashboard(db: Db, organization: BenchOrganization): Promise<void> {
  const { organizationId } = organization;
  const now = Date.now();
  const environmentIds = (
    await db
      .select({ id: environments.id })
      .from(environments)
      .where(eq(environments.organizationId, organizationId))
  ).map((row) => row.id);
  const appRows = await db
    .select({ id: apps.id, environmentId: apps.environmentId })
    .from(apps)
    .where(inArray(apps.environmentId, environmentIds))
    .orderBy(asc(apps.id));
  const sourceIds = (
    await db
      .insert(sources)
      .values(
        Array.from({ length: SOURCES }, (_, i) => ({
          organizationId,
          displayName: `acme/repository-${i}`,
          url: `https://github.com/acme/repository-${i}`,
        })),
      )
      .returning({ id: sources.id })
  ).map((row) => row.id);
  await inChunks(
    appRows.map((app, i) => {
      const commit = i % COMMITS;
      const sha = commit.toString(16).padStart(40, '0');
      return {
        appId: app.id,
        environmentId: app.environmentId,
        operationId: 0,
        sourceId: sourceIds[i % SOURCES] as number,
        status: 'succeeded',
        gitRef: 'main',
        gitCommitSha: sha,
        gitCommitMessage: `Change ${commit}`,
        gitCommitUrl: `https://github.com/acme/repository-${i % SOURCES}/commit/${sha}`,
        gitCommitTimestamp: new Date(now - commit * 60_000),
      };
    }),
    (chunk) => db.insert(deployments).values(chunk),
  );
  // Every app runs its deployment, from its repository.
  await db.execute(sql`
    update apps set current_deployment_id = d.id, current_source_id = d.source_id
    from deployments d
    where d.app_id = apps.id and apps.environment_id in ${environmentIds}`);

  const serviceRows = await db
    .select({
      id: services.id,
      environmentId: services.environmentId,
      instanceClass: services.instanceClass,
      memoryMb: services.containerMemoryLimitMb,
    })
    .from(services)
    .where(and(inArray(services.environmentId, environmentIds), isNotNull(services.appId)))
    .orderBy(asc(services.id));
  const d = SIZING_POLICY_DEFAULTS;
  await inChunks(
    serviceRows
      .filter((_, i) => i % 10 === 0)
      .map((service, i) => ({
        serviceId: service.id,
        environmentId: service.environmentId,
        scalingEnabled: true,
        autoscaling: i % 2 ? 'vertical' : 'horizontal',
        metricLookbackSeconds: d.metric_lookback_seconds,
        percentile: d.percentile,
        postScaleUpCooldownSeconds: d.post_scale_up_cooldown_seconds,
        postScaleDownCooldownSeconds: d.post_scale_down_cooldown_seconds,
        postReleaseCooldownSeconds: d.post_release_cooldown_seconds,
        memCpuRatioRThreshold: d.mem_cpu_ratio_r_threshold,
        memCpuRatioCThreshold: d.mem_cpu_ratio_c_threshold,
        memScaleUpThreshold: d.mem_scale_up_threshold,
        memScaleDownThreshold: d.mem_scale_down_threshold,
        minimumMemory: d.minimum_memory,
        minContainers: d.min_containers,
        maxContainers: d.max_containers,
        minCpuThreshold: d.min_cpu_threshold,
        maxCpuThreshold: d.max_cpu_threshold,
        scaleUpStep: d.scale_up_step,
        scaleDownStep: d.scale_down_step,
      })),
    (chunk) => db.insert(sizingPolicies).values(chunk),
  );
  await inChunks(
    serviceRows
      .filter((_, i) => i % 5 === 1)
      .map((service, i) => ({
        serviceId: service.id,
        environmentId: service.environmentId,
        cpuUsage: 0.1,
        ramUsage: 400,
        ramTarget: 500,
        recommendedInstanceClass: service.instanceClass,
        recommendedContainerMemoryLimitMb: 512,
        instanceClassAtTime: service.instanceClass,
        containerMemoryLimitMbAtTime: service.memoryMb,
        costSavings: i % 2 ? 200 : -300,
        metricPercentile: 95,
        createdAt: new Date(now - 3_600_000),
      })),
    (chunk) => db.insert(sizingRecommendations).values(chunk),
  );
  await inChunks(
    serviceRows
      .filter((_, i) => i % 10 === 3)
      .map((service, i) => ({
        environmentId: service.environmentId,
        serviceId: service.id,
        ipWhitelist: i % 2 ? ['10.0.0.0/8'] : [],
      })),
    (chunk) => db.insert(vhosts).values(chunk),
  );
  // The planner's statistics of the new rows, as autovacuum keeps them (see seed.ts).
  await db.execute(sql`vacuum analyze`);
}
