import type { CreateEnvironmentInput, UpdateEnvironmentInput } from '@berth/core';
import { and, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { CallerRef } from '../../auth/caller-access.ts';
import { planLimits } from '../../billing/plans/plan-limits.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  apps,
  backupRetentionPolicies,
  backups,
  containers,
  databases,
  disks,
  environments,
  logDrains,
  metricDrains,
  permissions,
  releases,
  services,
  stacks,
  vhosts,
} from '../../db/schema.ts';
import { notFound, unprocessable } from '../../http/errors.ts';
import type { Runtime } from '../../runtimes/runtime.ts';
import { createAccess } from '../access/access.ts';
import { recordAuditEvent } from '../audit-events/audit-events.repo.ts';
import { defaultRetentionPolicy } from '../backups/retention-policy.ts';
import { defaultStackFor } from '../stacks/stacks.service.ts';
import type {
  EnvironmentCounts,
  EnvironmentRow,
  EnvironmentStats,
  PermissionRow,
} from './environments.hal.ts';

export interface EnvironmentView {
  environment: EnvironmentRow;
  counts: EnvironmentCounts;
  permissions: PermissionRow[];
  /** Only on the single view. */
  stats?: EnvironmentStats;
}

export function createEnvironmentsService(deps: {
  db: Db;
  /** The runtimes by name: a deleted environment's stack's runtime removes what it made for it. */
  runtimes: Record<string, Runtime>;
  /** Told what a runtime left of a deleted environment, and why (for the server's log). */
  onRuntimeLeftover: (message: string) => void;
}) {
  const { db } = deps;
  const access = createAccess(db);

  /** Counts and permissions for many environments in two queries. */
  async function views(rows: EnvironmentRow[]): Promise<EnvironmentView[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [appCounts, databaseCounts, granted] = await Promise.all([
      db
        .select({ id: apps.environmentId, count: sql<number>`count(*)::int` })
        .from(apps)
        .where(inArray(apps.environmentId, ids))
        .groupBy(apps.environmentId),
      db
        .select({ id: databases.environmentId, count: sql<number>`count(*)::int` })
        .from(databases)
        .where(inArray(databases.environmentId, ids))
        .groupBy(databases.environmentId),
      db.select().from(permissions).where(inArray(permissions.environmentId, ids)),
    ]);
    const appsBy = new Map(appCounts.map((row) => [row.id, row.count]));
    const databasesBy = new Map(databaseCounts.map((row) => [row.id, row.count]));
    return rows.map((environment) => ({
      environment,
      counts: { apps: appsBy.get(environment.id) ?? 0, databases: databasesBy.get(environment.id) ?? 0 },
      permissions: granted.filter((p) => p.environmentId === environment.id),
    }));
  }

  /** The detail view's figures (contract §4.3, read only from GET /accounts/:id). */
  async function statsOf(environmentId: number): Promise<EnvironmentStats> {
    const live = await db
      .select({
        layer: sql<string>`case when ${services.databaseId} is null then 'app' else 'database' end`,
        count: count(),
      })
      .from(containers)
      .innerJoin(releases, eq(containers.releaseId, releases.id))
      .innerJoin(services, eq(releases.serviceId, services.id))
      .where(and(eq(services.environmentId, environmentId), isNull(containers.deletedAt)))
      .groupBy(sql`1`);
    const app = live.find((row) => row.layer === 'app')?.count ?? 0;
    const database = live.find((row) => row.layer === 'database')?.count ?? 0;
    // spec 2 §2 "endpoint count": every endpoint of the environment (domain_count on the wire).
    const [endpoints] = await db
      .select({ count: count() })
      .from(vhosts)
      .where(eq(vhosts.environmentId, environmentId));
    // spec 2 §2: the databases' disk GB and the backups' GB (those of deprovisioned databases included).
    const [[disk], [backup]] = await Promise.all([
      db
        .select({ gb: sql<number>`coalesce(sum(${disks.size}), 0)`.mapWith(Number) })
        .from(disks)
        .where(eq(disks.environmentId, environmentId)),
      db
        .select({ gb: sql<number>`coalesce(sum(${backups.sizeGb}), 0)`.mapWith(Number) })
        .from(backups)
        .where(eq(backups.environmentId, environmentId)),
    ]);
    return {
      containers: app + database,
      appContainers: app,
      databaseContainers: database,
      domains: endpoints?.count ?? 0,
      diskGb: disk?.gb ?? 0,
      // GB to two decimals: backups are fractions of a GB.
      backupGb: Math.round((backup?.gb ?? 0) * 100) / 100,
    };
  }

  return {
    /** Every environment the user may see (basic_read), across their organizations (contract §1.11). */
    async list(ref: CallerRef): Promise<EnvironmentView[]> {
      return views(await access.readableEnvironments(await access.caller(ref), 'environment.read'));
    },

    async get(ref: CallerRef, environmentId: number | null): Promise<EnvironmentView> {
      const row = await access.environment(await access.caller(ref), environmentId, 'environment.read');
      const [view] = await views([row]);
      if (!view) throw notFound('Environment');
      return { ...view, stats: await statsOf(row.id) };
    },

    /** Creating an environment is an owner's act (owner or platform owner of the organization). */
    async create(ref: CallerRef, input: CreateEnvironmentInput): Promise<EnvironmentView> {
      const caller = await access.caller(ref);
      access.organization(caller, input.organization_id, 'environment.create');

      let stack = input.stack_id ? await stackFor(input.stack_id, input.organization_id) : undefined;
      if (input.stack_id && !stack) throw unprocessable('Stack not found', { stack_id: ['not found'] });
      stack ??= await defaultStackFor(db, input.organization_id);
      if (!stack) throw unprocessable('No stack is available for new environments');

      const stackId = stack.id;
      const created = await db.transaction(async (tx) => {
        // The plan's environment limit, counted under the organization's lock (plan-limits.ts).
        const limits = await planLimits(tx, input.organization_id);
        const [existing] = await tx
          .select({ value: count() })
          .from(environments)
          .where(eq(environments.organizationId, input.organization_id));
        limits.requireCount('environments', (existing?.value ?? 0) + 1);
        const [row] = await tx
          .insert(environments)
          .values({
            organizationId: input.organization_id,
            stackId,
            handle: input.handle,
            type: input.type,
            onboardingStatus: input.onboarding_status,
          })
          .onConflictDoNothing()
          .returning();
        if (!row) throw duplicateHandle(input.handle);
        // Every environment starts with the default backup retention policy in force (spec 2 §9).
        await tx.insert(backupRetentionPolicies).values(defaultRetentionPolicy(row.id));
        await recordAuditEvent(tx, input.organization_id, {
          action: 'environment.create',
          actor: caller.user,
          target: { type: 'environment', id: row.id, name: row.handle },
          parent: { type: 'stack', id: stackId, name: stack.name },
          environmentId: row.id,
        });
        return row;
      });
      const [view] = await views([created]);
      if (!view) throw new Error('Created environment vanished');
      return view;
    },

    /** Rename (admin scope) or move the guided set-up along (contract §5.6). */
    async update(
      ref: CallerRef,
      environmentId: number | null,
      input: UpdateEnvironmentInput,
    ): Promise<EnvironmentView> {
      const current = await access.environment(await access.caller(ref), environmentId, 'environment.rename');
      if (input.handle !== undefined && input.handle !== current.handle) {
        const [taken] = await db
          .select({ id: environments.id })
          .from(environments)
          .where(
            and(
              eq(environments.organizationId, current.organizationId),
              eq(environments.handle, input.handle),
              ne(environments.id, current.id),
            ),
          );
        if (taken) throw duplicateHandle(input.handle);
      }
      let updated: EnvironmentRow | undefined;
      try {
        [updated] = await db
          .update(environments)
          .set({
            ...(input.handle !== undefined ? { handle: input.handle } : {}),
            ...(input.onboarding_status !== undefined ? { onboardingStatus: input.onboarding_status } : {}),
            updatedAt: new Date(),
          })
          .where(eq(environments.id, current.id))
          .returning();
      } catch (error) {
        // A concurrent rename took the handle between the check and the write.
        if (input.handle !== undefined && isUniqueViolation(error)) throw duplicateHandle(input.handle);
        throw error;
      }
      if (!updated) throw notFound('Environment');
      const [view] = await views([updated]);
      if (!view) throw notFound('Environment');
      return view;
    },

    /**
     * Removes an empty environment (destroy scope). spec 2 §5: refused while it still has apps,
     * databases, database backups, log drains or metric drains, listing them.
     * The delete itself re-checks emptiness in the same statement, so a resource created meanwhile is
     * never removed by the cascade.
     */
    async remove(ref: CallerRef, environmentId: number | null): Promise<void> {
      const caller = await access.caller(ref);
      const environment = await access.environment(caller, environmentId, 'environment.delete');
      const deleted = await db.transaction(async (tx) => {
        const gone = await tx
          .delete(environments)
          .where(
            and(
              eq(environments.id, environment.id),
              sql`not exists (select 1 from ${apps} where ${apps.environmentId} = ${environment.id})`,
              sql`not exists (select 1 from ${databases} where ${databases.environmentId} = ${environment.id})`,
              sql`not exists (select 1 from ${backups} where ${backups.environmentId} = ${environment.id})`,
              sql`not exists (select 1 from ${logDrains} where ${logDrains.environmentId} = ${environment.id})`,
              sql`not exists (select 1 from ${metricDrains} where ${metricDrains.environmentId} = ${environment.id})`,
            ),
          )
          .returning({ id: environments.id });
        // The organization's own event once the environment is gone: its owners read it (no environment
        // is left to decide by).
        if (gone.length > 0) {
          await recordAuditEvent(tx, environment.organizationId, {
            action: 'environment.delete',
            actor: caller.user,
            target: { type: 'environment', id: environment.id, name: environment.handle },
          });
        }
        return gone;
      });
      if (deleted.length > 0) {
        await removeFromRuntime(environment);
        return;
      }
      const remaining = await remainingResources(environment.id);
      throw unprocessable(
        remaining.length
          ? `Cannot deprovision this environment while it has: ${remaining.join(', ')}`
          : 'Cannot deprovision this environment right now, try again',
      );
    },
  };

  /**
   * What the stack's runtime made for a deleted environment goes too (the docker runtime's network).
   * The environment is gone whatever happens here: what is left is told, for the server's log.
   */
  async function removeFromRuntime(environment: EnvironmentRow) {
    const [stack] = await db
      .select({ name: stacks.name, runtime: stacks.runtime })
      .from(stacks)
      .where(eq(stacks.id, environment.stackId));
    const runtime = stack ? deps.runtimes[stack.runtime] : undefined;
    if (!stack || !runtime?.removeEnvironment) return;
    try {
      await runtime.removeEnvironment({
        id: environment.id,
        handle: environment.handle,
        stackName: stack.name,
      });
    } catch (error) {
      deps.onRuntimeLeftover((error as Error).message);
    }
  }

  /** What keeps an environment from being deprovisioned, e.g. ["2 apps", "1 database"]. */
  async function remainingResources(environmentId: number): Promise<string[]> {
    const [[appCount], [databaseCount], [backupCount], [drainCount], [metricDrainCount]] = await Promise.all([
      db
        .select({ count: sql<number>`count(*)::int` })
        .from(apps)
        .where(eq(apps.environmentId, environmentId)),
      db
        .select({ count: sql<number>`count(*)::int` })
        .from(databases)
        .where(eq(databases.environmentId, environmentId)),
      // spec 2 §5: database backups too (those of deprovisioned databases stay until purged).
      db
        .select({ count: sql<number>`count(*)::int` })
        .from(backups)
        .where(eq(backups.environmentId, environmentId)),
      db
        .select({ count: sql<number>`count(*)::int` })
        .from(logDrains)
        .where(eq(logDrains.environmentId, environmentId)),
      db
        .select({ count: sql<number>`count(*)::int` })
        .from(metricDrains)
        .where(eq(metricDrains.environmentId, environmentId)),
    ]);
    const counted: [number, string, string][] = [
      [appCount?.count ?? 0, 'app', 'apps'],
      [databaseCount?.count ?? 0, 'database', 'databases'],
      [backupCount?.count ?? 0, 'database backup', 'database backups'],
      [drainCount?.count ?? 0, 'log drain', 'log drains'],
      [metricDrainCount?.count ?? 0, 'metric drain', 'metric drains'],
    ];
    return counted.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  }

  /** A stack the organization may place environments on: its own, or a public shared one. */
  async function stackFor(stackId: string, organizationId: string) {
    if (!/^\d{1,15}$/.test(stackId)) return undefined;
    const [stack] = await db
      .select()
      .from(stacks)
      .where(eq(stacks.id, Number(stackId)));
    if (!stack) return undefined;
    const usable = stack.organizationId ? stack.organizationId === organizationId : stack.public;
    return usable ? stack : undefined;
  }
}
export type EnvironmentsService = ReturnType<typeof createEnvironmentsService>;

function duplicateHandle(handle: string) {
  return unprocessable(`An environment with the handle "${handle}" already exists in this organization`, {
    handle: ['taken'],
  });
}
