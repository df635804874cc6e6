import { createHash } from 'node:crypto';
import {
  type ActionName,
  type CreateAppInput,
  duplicateAppHandleMessage,
  type UpdateAppInput,
} from '@berth/core';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { CallerAccess, CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  appListVersions,
  apps,
  deployments,
  environments,
  images,
  operations,
  services,
  stacks,
} from '../../db/schema.ts';
import { type Page, selectPage } from '../../db/select-page.ts';
import { notFound, unprocessable } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import { codeScanResultIds } from '../../operations/operations.hal.ts';
import { createAccess } from '../access/access.ts';
import { recordAuditEvent } from '../audit-events/audit-events.repo.ts';
import type { AppEmbeds, AppRow, AppView } from './apps.hal.ts';

/** A page of apps as their HAL needs them. */
export type AppPage = Page<AppView>;

/** Where an environment's apps live, as their git remotes show it, and its app-list version. */
type Place = { id: number; handle: string; runtime: AppView['runtime']; version: number };

/** A table of rows that belong to one app (images, configurations, deployments...). */
type AppOwnedTable = PgTable & { id: PgColumn; appId: PgColumn };

/**
 * spec 3 §2 Apps search: a case-insensitive substring of the handle, id, status, environment handle, the
 * current image's git ref and repository, the current deployment's commit, or the last operation's user,
 * type and status. Done here so the list can stay `no_embed` (small with 5000 apps) and still find apps
 * by what only the embeds carry; every lookup is by primary key or the operations' resource index.
 */
function searchCondition(search: string): SQL {
  const needle = search.toLowerCase();
  const has = (text: SQL | AnyPgColumn) => sql`strpos(lower(coalesce(${text}, '')), ${needle}) > 0`;
  const lastOperation = sql`(select ${operations.type} as type, ${operations.status} as status,
      ${operations.userName} as user_name from ${operations}
      where ${operations.resourceType} = 'app' and ${operations.resourceId} = ${apps.id}
      order by ${operations.id} desc limit 1)`;
  return sql`(${has(apps.handle)} or ${has(sql`${apps.id}::text`)} or ${has(apps.status)}
    or exists (select 1 from ${environments} where ${environments.id} = ${apps.environmentId}
      and ${has(environments.handle)})
    or exists (select 1 from ${images} where ${images.id} = ${apps.currentImageId}
      and (${has(images.gitRef)} or ${has(images.dockerRepo)}))
    or exists (select 1 from ${deployments} where ${deployments.id} = ${apps.currentDeploymentId}
      and ${has(deployments.gitCommitSha)})
    or exists (select 1 from ${lastOperation} as last_operation
      where ${has(sql`last_operation.type`)} or ${has(sql`last_operation.status`)}
        or ${has(sql`last_operation.user_name`)}))`;
}

export function createAppsService(deps: { db: Db }) {
  const { db } = deps;
  const access = createAccess(db);

  /**
   * Where each of these environments' apps live (the environment's handle and its stack's runtime: their
   * git remotes), with its app-list version, which moves at the commit of every change to its apps
   * (migration 0046). In the environments' order.
   */
  async function placesOf(environmentIds: number[]): Promise<Place[]> {
    if (environmentIds.length === 0) return [];
    return db
      .select({
        id: environments.id,
        handle: environments.handle,
        runtime: stacks.runtime,
        version: sql<number>`coalesce(${appListVersions.version}, 0)`,
      })
      .from(environments)
      .innerJoin(stacks, eq(environments.stackId, stacks.id))
      .leftJoin(appListVersions, eq(appListVersions.environmentId, environments.id))
      .where(inArray(environments.id, environmentIds))
      .orderBy(environments.id);
  }

  /**
   * The git remote parts and (unless `no_embed`) the embeds of many apps, in a handful of queries. The
   * places are read here unless given (a kept list passes those its key was made of).
   */
  async function views(rows: AppRow[], embed: boolean, places?: Map<number, Place>): Promise<AppView[]> {
    if (rows.length === 0) return [];
    const placeOf =
      places ??
      new Map((await placesOf([...new Set(rows.map((app) => app.environmentId))])).map((p) => [p.id, p]));
    const embeds = embed ? await embedsOf(rows) : undefined;
    return rows.map((app) => ({
      app,
      environmentHandle: placeOf.get(app.environmentId)?.handle ?? '',
      runtime: placeOf.get(app.environmentId)?.runtime ?? 'sim',
      embedded: embeds?.get(app.id),
    }));
  }

  async function embedsOf(rows: AppRow[]): Promise<Map<number, AppEmbeds>> {
    const ids = rows.map((app) => app.id);
    const imageIds = rows.flatMap((app) => (app.currentImageId ? [app.currentImageId] : []));
    // The newest operation on each app (of one type if given): DISTINCT ON keeps the first row per app.
    const latestOperations = (type?: string) =>
      db
        .selectDistinctOn([operations.resourceId])
        .from(operations)
        .where(
          and(
            eq(operations.resourceType, 'app'),
            inArray(operations.resourceId, ids),
            type ? eq(operations.type, type) : undefined,
          ),
        )
        .orderBy(operations.resourceId, desc(operations.id));
    const [appServices, currentImages, lastOperations, lastDeploys] = await Promise.all([
      db.select().from(services).where(inArray(services.appId, ids)).orderBy(services.id),
      imageIds.length ? db.select().from(images).where(inArray(images.id, imageIds)) : [],
      latestOperations(),
      latestOperations('deploy'),
    ]);
    const imageOf = new Map(currentImages.map((image) => [image.id, image]));
    const lastOperationOf = new Map(lastOperations.map((op) => [op.resourceId, op]));
    const lastDeployOf = new Map(lastDeploys.map((op) => [op.resourceId, op]));
    // Only the last operation can be a scan_code (the other embed is a deploy).
    const scanResults = await codeScanResultIds(db, lastOperations);
    return new Map(
      rows.map((app) => [
        app.id,
        {
          services: appServices.filter((service) => service.appId === app.id),
          currentImage: (app.currentImageId && imageOf.get(app.currentImageId)) || null,
          lastDeployOperation: lastDeployOf.get(app.id) ?? null,
          lastOperation: lastOperationOf.get(app.id) ?? null,
          codeScanResults: scanResults,
        },
      ]),
    );
  }

  async function page(
    where: SQL,
    paging: Paging | null,
    embed: boolean,
    places?: Map<number, Place>,
  ): Promise<Page<AppView>> {
    const { items, paging: window } = await selectPage(db, apps, { where, orderBy: [apps.id], paging });
    return { items: await views(items, embed, places), paging: window };
  }

  /**
   * Everything a bare (no_embed) list of these environments' apps depends on but its page and rows: their
   * places and app-list versions. Read before the rows, so an answer kept under it is never older than
   * what it names; the answer is drawn with these very places, so a handle renamed and renamed back
   * between the two reads cannot file an answer under a key that does not describe it.
   */
  async function bareListKey(environmentIds: number[]): Promise<{ key: string; places: Map<number, Place> }> {
    const places = await placesOf(environmentIds);
    const hash = createHash('sha256');
    for (const place of places)
      hash.update(`${place.id} ${place.handle} ${place.runtime} ${place.version}\n`);
    return { key: hash.digest('base64url'), places: new Map(places.map((place) => [place.id, place])) };
  }

  /** Loads an app the caller may take the action on (404 if absent or invisible, 403 if denied). */
  async function load(caller: CallerAccess, id: number | null, action: ActionName): Promise<AppRow> {
    const [app] = id === null ? [] : await db.select().from(apps).where(eq(apps.id, id));
    return (await access.resource(caller, app, action, 'App')).row;
  }

  async function view(app: AppRow): Promise<AppView> {
    const [result] = await views([app], true);
    if (!result) throw notFound('App');
    return result;
  }

  /** Loads a row of an app-owned table, checked against the app's environment like the app itself. */
  async function loadOwned<T extends AppOwnedTable>(
    caller: CallerAccess,
    table: T,
    id: number | null,
    action: ActionName,
    what: string,
  ): Promise<T['$inferSelect']> {
    const [found] =
      id === null
        ? []
        : await db
            .select({ row: table as AppOwnedTable, environmentId: apps.environmentId })
            .from(table as AppOwnedTable)
            .innerJoin(apps, eq(table.appId, apps.id))
            .where(eq(table.id, id));
    const checked = await access.resource(caller, found, action, what);
    return checked.row.row as T['$inferSelect'];
  }

  function duplicate(handle: string) {
    return unprocessable(duplicateAppHandleMessage(handle), { handle: ['taken'] });
  }

  return {
    access,
    load,
    loadOwned,
    /** Apps matching `where` in id order, as their HAL needs them: for lists of apps picked by other resources. */
    page,

    /** Apps of every environment the caller may see, across their organizations (contract §1.11). */
    async list(
      ref: CallerRef,
      paging: Paging | null,
      embed: boolean,
      search?: string,
    ): Promise<Page<AppView>> {
      const environmentIds = await access.readableEnvironmentIds(await access.caller(ref), 'app.read');
      const readable = inArray(apps.environmentId, environmentIds);
      return page(search ? (and(readable, searchCondition(search)) ?? readable) : readable, paging, embed);
    },

    /**
     * The bare (no_embed) list of the apps the caller may read, as `list` reads it, with a key naming
     * everything but the page that its answer depends on: the routes keep answers under it (issue 40).
     */
    async bareList(
      ref: CallerRef,
      paging: Paging | null,
    ): Promise<{ key: string; read: () => Promise<Page<AppView>> }> {
      const environmentIds = await access.readableEnvironmentIds(await access.caller(ref), 'app.read');
      const { key, places } = await bareListKey(environmentIds);
      return { key, read: () => page(inArray(apps.environmentId, environmentIds), paging, false, places) };
    },

    /** `bareList` of one environment the caller may read (404 or 403 as `listInEnvironment`). */
    async bareListInEnvironment(
      ref: CallerRef,
      environmentId: number | null,
      paging: Paging | null,
    ): Promise<{ key: string; read: () => Promise<Page<AppView>> }> {
      const environment = await access.environment(await access.caller(ref), environmentId, 'app.read');
      const { key, places } = await bareListKey([environment.id]);
      return { key, read: () => page(eq(apps.environmentId, environment.id), paging, false, places) };
    },

    async listInEnvironment(
      ref: CallerRef,
      environmentId: number | null,
      paging: Paging | null,
      embed: boolean,
    ): Promise<Page<AppView>> {
      const environment = await access.environment(await access.caller(ref), environmentId, 'app.read');
      return page(eq(apps.environmentId, environment.id), paging, embed);
    },

    async get(ref: CallerRef, id: number | null): Promise<AppView> {
      return view(await load(await access.caller(ref), id, 'app.read'));
    },

    /** Creates the app record only (contract §5.7): it stays `pending` until its first deploy. */
    async create(ref: CallerRef, environmentId: number | null, input: CreateAppInput): Promise<AppView> {
      const caller = await access.caller(ref);
      const environment = await access.environment(caller, environmentId, 'app.create');
      const created = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(apps)
          .values({ environmentId: environment.id, handle: input.handle, status: 'pending' })
          .onConflictDoNothing()
          .returning();
        if (!row) return undefined;
        // Issue 41: its creation is an audit event (the first deploy is an operation of its own).
        await recordAuditEvent(tx, environment.organizationId, {
          action: 'app.create',
          actor: caller.user,
          target: { type: 'app', id: row.id, name: row.handle },
          parent: { type: 'environment', id: environment.id, name: environment.handle },
          environmentId: environment.id,
        });
        return row;
      });
      if (!created) throw duplicate(input.handle);
      return view(created);
    },

    async rename(ref: CallerRef, id: number | null, input: UpdateAppInput) {
      const app = await load(await access.caller(ref), id, 'app.rename');
      try {
        const [updated] = await db
          .update(apps)
          .set({ handle: input.handle, updatedAt: new Date() })
          .where(eq(apps.id, app.id))
          .returning();
        return view(updated ?? app);
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate(input.handle);
        throw error;
      }
    },

    /** Rows of an app-owned table for one app the caller may take the action on. */
    async listOwned<T extends AppOwnedTable>(
      ref: CallerRef,
      table: T,
      appId: number | null,
      action: ActionName,
      options: { orderBy: (AnyPgColumn | SQL)[]; paging: Paging | null },
    ): Promise<Page<T['$inferSelect']>> {
      const app = await load(await access.caller(ref), appId, action);
      return selectPage(db, table, { where: eq(table.appId, app.id), ...options });
    },

    async getOwned<T extends AppOwnedTable>(
      ref: CallerRef,
      table: T,
      id: number | null,
      action: ActionName,
      what: string,
    ): Promise<T['$inferSelect']> {
      return loadOwned(await access.caller(ref), table, id, action, what);
    },

    /** Ids of the apps in these environments, as a subquery for filtering app-owned lists. */
    appIdsIn(environmentIds: number[]) {
      return db.select({ id: apps.id }).from(apps).where(inArray(apps.environmentId, environmentIds));
    },
  };
}
export type AppsService = ReturnType<typeof createAppsService>;
