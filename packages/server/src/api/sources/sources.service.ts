import { and, count, eq, inArray } from 'drizzle-orm';
import type { CallerAccess, CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { apps, deployments, sources } from '../../db/schema.ts';
import { type Page, selectPage } from '../../db/select-page.ts';
import { notFound } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import { createAccess } from '../access/access.ts';
import type { SourceRow, SourceStats } from './sources.hal.ts';

/**
 * Sources belong to an organization, not to an environment: any member sees them (`source.read`); the
 * deployments listed under one and the counts of its apps are filtered by environment instead.
 */
export function createSourcesService(deps: { db: Db }) {
  const { db } = deps;
  const access = createAccess(db);
  const ofCallerOrganizations = (caller: CallerAccess) =>
    inArray(sources.organizationId, access.organizations(caller, 'source.read'));

  async function load(caller: CallerAccess, id: number | null): Promise<SourceRow> {
    const mine = ofCallerOrganizations(caller);
    const [source] =
      id === null
        ? []
        : await db
            .select()
            .from(sources)
            .where(and(eq(sources.id, id), mine));
    if (!source) throw notFound('Source');
    return source;
  }

  /**
   * spec 3 §3 source rows: how many apps deploy from each source, its deployments, and its live
   * commits (the distinct commits the apps currently run, newest first), counting only apps the
   * caller can read.
   */
  async function stats(caller: CallerAccess, rows: SourceRow[]): Promise<Map<number, SourceStats>> {
    const result = new Map<number, SourceStats>(
      rows.map((row) => [row.id, { apps: 0, deployments: 0, liveCommits: [] }]),
    );
    const ids = rows.map((row) => row.id);
    if (ids.length === 0) return result;
    const readable = await access.readableEnvironmentIds(caller, 'app.read');
    if (readable.length === 0) return result;
    const [running, deployed] = await Promise.all([
      db
        .select({ sourceId: apps.currentSourceId, deployment: deployments })
        .from(apps)
        .leftJoin(deployments, eq(apps.currentDeploymentId, deployments.id))
        .where(and(inArray(apps.currentSourceId, ids), inArray(apps.environmentId, readable))),
      db
        .select({ sourceId: deployments.sourceId, value: count() })
        .from(deployments)
        .innerJoin(apps, eq(deployments.appId, apps.id))
        .where(and(inArray(deployments.sourceId, ids), inArray(apps.environmentId, readable)))
        .groupBy(deployments.sourceId),
    ]);
    for (const { sourceId, value } of deployed) {
      const entry = sourceId === null ? undefined : result.get(sourceId);
      if (entry) entry.deployments = value;
    }
    for (const { sourceId, deployment } of running) {
      const entry = sourceId === null ? undefined : result.get(sourceId);
      if (!entry) continue;
      entry.apps += 1;
      const sha = deployment?.gitCommitSha;
      if (deployment && sha && !entry.liveCommits.some((commit) => commit.sha === sha)) {
        entry.liveCommits.push({
          sha,
          ref: deployment.gitRef ?? '',
          message: deployment.gitCommitMessage ?? '',
          date: deployment.gitCommitTimestamp ?? deployment.createdAt,
          url: deployment.gitCommitUrl ?? '',
        });
      }
    }
    for (const entry of result.values())
      entry.liveCommits.sort((a, b) => b.date.getTime() - a.date.getTime());
    return result;
  }

  return {
    load,
    stats,

    async list(ref: CallerRef, paging: Paging | null) {
      const caller = await access.caller(ref);
      const page: Page<SourceRow> = await selectPage(db, sources, {
        where: ofCallerOrganizations(caller),
        orderBy: [sources.id],
        paging,
      });
      return { ...page, stats: await stats(caller, page.items) };
    },

    async get(ref: CallerRef, id: number | null) {
      const caller = await access.caller(ref);
      const source = await load(caller, id);
      return { source, stats: (await stats(caller, [source])).get(source.id) };
    },
  };
}
export type SourcesService = ReturnType<typeof createSourcesService>;
