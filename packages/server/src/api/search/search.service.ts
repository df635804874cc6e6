import {
  GLOBAL_SEARCH_MAX_RESULTS,
  type ResourceKey,
  resourceKey,
  SEARCH_RESOURCE_TYPES,
  type SearchResourceType,
} from '@berth/core';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { CallerAccess, CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { apps, databases, deployments, environments, services, sources, vhosts } from '../../db/schema.ts';
import { lowerHandle, searchText } from '../../db/tables/search-text.ts';
import { allows, createAccess } from '../access/access.ts';
import type { EnvironmentRow } from '../environments/environments.hal.ts';
import type { StackRow } from '../stacks/stacks.hal.ts';
import { visibleStacks } from '../stacks/stacks.service.ts';

/** One resource search found, as the answer names it. */
export interface SearchHit {
  type: SearchResourceType;
  id: string;
  title: string;
  description: string;
  environmentId: string | null;
  appId: string | null;
  databaseId: string | null;
}

/**
 * How close a match is: the id or the whole handle (0), the handle's start (1), anywhere in what the
 * resource is searched by (2). Closer matches come first.
 */
type Tier = 0 | 1 | 2;
type RankedHit = SearchHit & { tier: Tier };

const LIMIT = GLOBAL_SEARCH_MAX_RESULTS;
/**
 * Substring matches start at three characters: a trigram index finds nothing shorter without reading
 * all of itself, and one or two characters anywhere match nearly everything anyway.
 */
export const SUBSTRING_MIN_LENGTH = 3;

/** The text as a LIKE pattern matches it literally: its wildcards and the escape character escaped. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** A search text that is an id (a bigserial, exact as a JavaScript number), else null. */
function idIn(text: string): number | null {
  return /^[1-9][0-9]{0,14}$/.test(text) ? Number(text) : null;
}

/** What the caller may read, resolved once per search. */
export interface Readable {
  environments: EnvironmentRow[];
  stacks: StackRow[];
  /** Environment ids per read action (spec 1 §6: each resource has its own). */
  in: (action: 'app.read' | 'database.read' | 'service.read' | 'vhost.read' | 'deployment.read') => number[];
  sourceOrganizations: string[];
}

/** A resource searched in the database: which of its rows the caller may read, what names a hit, what it matches on. */
interface TableTarget {
  type: SearchResourceType;
  table: PgTable;
  /**
   * The column that places a row with a tenant (its environment, or organization), which leads each of
   * the table's search indexes (search-text.ts), so that a search reads the caller's rows only.
   */
  scope: AnyPgColumn;
  /** The values of `scope` whose rows the caller may read. */
  readable: (scope: Readable) => (number | string)[];
  /**
   * A hit's columns (id, title, description, environment_id, app_id, database_id, as text) and where
   * they come from: `matched`, the matching rows named as the table, and what it is joined to.
   */
  label: (matched: SQL) => SQL;
  id: AnyPgColumn;
  /** Matched exactly and by its start, through a `text_pattern_ops` index (search-text.ts). */
  handle?: AnyPgColumn;
  /** Matched anywhere, through a trigram index: the very expression the table's index holds. */
  text: SQL;
}

const TABLE_TARGETS: TableTarget[] = [
  {
    type: 'app',
    table: apps,
    scope: apps.environmentId,
    readable: (scope) => scope.in('app.read'),
    label: (
      matched,
    ) => sql`${apps.id}::text as id, ${apps.handle} as title, ${environments.handle} as description,
      ${apps.environmentId}::text as environment_id, null::text as app_id, null::text as database_id
      from ${matched} as ${apps} join ${environments} on ${environments.id} = ${apps.environmentId}`,
    id: apps.id,
    handle: apps.handle,
    text: searchText(apps.handle),
  },
  {
    type: 'database',
    table: databases,
    scope: databases.environmentId,
    readable: (scope) => scope.in('database.read'),
    label: (matched) => sql`${databases.id}::text as id, ${databases.handle} as title,
      ${databases.type} || ' · ' || ${environments.handle} as description,
      ${databases.environmentId}::text as environment_id, null::text as app_id, null::text as database_id
      from ${matched} as ${databases} join ${environments} on ${environments.id} = ${databases.environmentId}`,
    id: databases.id,
    handle: databases.handle,
    text: searchText(databases.handle, databases.type, databases.dockerRepo),
  },
  {
    type: 'endpoint',
    table: vhosts,
    scope: vhosts.environmentId,
    readable: (scope) => scope.in('vhost.read'),
    label: (matched) => sql`${vhosts.id}::text as id,
      coalesce(nullif(${vhosts.userDomain}, ''), nullif(${vhosts.virtualDomain}, ''),
        nullif(${vhosts.externalHost}, ''), 'Endpoint ' || ${vhosts.id}) as title,
      upper(${vhosts.type}) || ' · ' || ${environments.handle} as description,
      ${vhosts.environmentId}::text as environment_id, null::text as app_id, null::text as database_id
      from ${matched} as ${vhosts} join ${environments} on ${environments.id} = ${vhosts.environmentId}`,
    id: vhosts.id,
    text: searchText(vhosts.userDomain, vhosts.virtualDomain, vhosts.externalHost, vhosts.defaultName),
  },
  {
    type: 'service',
    table: services,
    scope: services.environmentId,
    readable: (scope) => scope.in('service.read'),
    label: (matched) => sql`${services.id}::text as id, ${services.handle} as title,
      coalesce(${apps.handle}, ${databases.handle}, 'Unknown') || ' · ' || ${environments.handle} as description,
      ${services.environmentId}::text as environment_id, ${services.appId}::text as app_id,
      ${services.databaseId}::text as database_id
      from ${matched} as ${services} join ${environments} on ${environments.id} = ${services.environmentId}
      left join ${apps} on ${apps.id} = ${services.appId}
      left join ${databases} on ${databases.id} = ${services.databaseId}`,
    id: services.id,
    handle: services.handle,
    text: searchText(services.handle, services.dockerRepo),
  },
  {
    type: 'source',
    table: sources,
    scope: sources.organizationId,
    readable: (scope) => scope.sourceOrganizations,
    label: (matched) => sql`${sources.id}::text as id,
      coalesce(nullif(${sources.displayName}, ''), ${sources.url}) as title, ${sources.url} as description,
      null::text as environment_id, null::text as app_id, null::text as database_id
      from ${matched} as ${sources}`,
    id: sources.id,
    text: searchText(sources.displayName, sources.url),
  },
  {
    type: 'deployment',
    table: deployments,
    // Its app's environment, kept on the deployment (db/tables/apps.ts).
    scope: deployments.environmentId,
    readable: (scope) => scope.in('deployment.read'),
    // spec 3 §3: a deployment with no docker image is a "Dockerfile Build" (of its git ref).
    label: (matched) => sql`${deployments.id}::text as id,
      coalesce(nullif(${deployments.dockerImage}, ''),
        nullif(${deployments.gitRef}, '') || coalesce(' @ ' || left(nullif(${deployments.gitCommitSha}, ''), 7), ''),
        'Dockerfile Build') as title,
      ${apps.handle} || ' · ' || ${environments.handle} as description,
      ${deployments.environmentId}::text as environment_id, ${deployments.appId}::text as app_id,
      null::text as database_id
      from ${matched} as ${deployments}
      join ${apps} on ${apps.id} = ${deployments.appId}
      join ${environments} on ${environments.id} = ${deployments.environmentId}`,
    id: deployments.id,
    text: searchText(deployments.gitRef, deployments.gitCommitSha, deployments.dockerImage),
  },
];

/**
 * One question to one table: the rows of the readable `scopes` (environments, or organizations)
 * matching `condition`, at most `limit`, with what names them joined to those rows alone. The question
 * is asked of each scope in turn (`readable`, joined laterally), so that the index led by the scope is
 * searched with one scope's value: given all of them at once, the database preferred another index for
 * the scope and the trigram index for the text alone, whose matches are every tenant's. It reads the
 * caller's rows and never another tenant's: a small organization on a large installation pays for its
 * own rows only (issue 38).
 *
 * In `order`, each scope's first rows come from the handle's index in that order, and the first of
 * those are kept. Otherwise the matches are planned as a whole (`offset 0` keeps the limit out of their
 * planning) and read only until enough are named: planned with the limit, the database chose to read
 * the table from its start, expecting matches spread evenly to come soon, and read all of it when they
 * sat at its end (a services table where the databases' services, all "redis", came after 50,000
 * apps'). As a whole it chooses the index whenever the matches are a small part of the table, and a
 * scan only when most rows match, which then meets them at once.
 */
function arm(
  target: TableTarget,
  scopes: (number | string)[],
  tier: Tier,
  condition: SQL,
  options: { order?: SQL; limit?: number } = {},
): SQL {
  const { table } = target;
  const limit = options.limit ?? LIMIT;
  const head = sql`select ${tier}::int as tier, ${target.type}::text as type,`;
  const readable = sql`unnest(array[${sql.join(
    scopes.map((value) => sql`${value}`),
    sql`, `,
  )}]::${sql.raw(target.scope.getSQLType())}[]) as readable(scope)`;
  const inScope = sql`${target.scope} = readable.scope`;
  if (options.order) {
    const firstOfEach = sql`(select ${table}.* from ${table}
      where ${inScope} and ${condition} ${options.order} limit ${limit})`;
    const first = sql`(select ${table}.* from ${readable} cross join lateral ${firstOfEach} as ${table}
      ${options.order} limit ${limit})`;
    return sql`(${head} ${target.label(first)})`;
  }
  const matches = sql`(select ${table}.* from ${readable} cross join lateral
    (select ${table}.* from ${table} where ${inScope} and ${condition} offset 0) as ${table})`;
  return sql`(${head} ${target.label(matches)} limit ${limit})`;
}

/**
 * The questions a search text asks the tables (joined by `union all` into one statement): by id, by the
 * handle's start (the whole handle among them), and (from three characters) anywhere, each only over
 * what the caller may read. `needle` is the trimmed, lower-cased text.
 */
export function searchArms(scope: Readable, needle: string): SQL[] {
  const id = idIn(needle);
  const literal = likeLiteral(needle);
  const arms: SQL[] = [];
  for (const target of TABLE_TARGETS) {
    const scopes = target.readable(scope);
    // None readable: the table is not asked at all.
    if (scopes.length === 0) continue;
    if (id !== null) arms.push(arm(target, scopes, 0, sql`${target.id} = ${id}`));
    if (target.handle) {
      const handle = lowerHandle(target.handle);
      // `using ~<~`: the byte order the text_pattern_ops index holds, so the first 15 are read in order;
      // a handle that is the whole text comes first of them (search() ranks it as exact).
      const order = sql`order by ${handle} using ~<~`;
      arms.push(arm(target, scopes, 1, sql`${handle} like ${`${literal}%`}`, { order }));
    }
    if (needle.length >= SUBSTRING_MIN_LENGTH) {
      arms.push(arm(target, scopes, 2, sql`${target.text} like ${`%${literal}%`}`));
    }
  }
  return arms;
}

interface HitRow {
  tier: number;
  type: SearchResourceType;
  id: string;
  title: string | null;
  description: string | null;
  environment_id: string | null;
  app_id: string | null;
  database_id: string | null;
}

function toHit(row: HitRow): RankedHit {
  return {
    tier: Math.min(Math.max(row.tier, 0), 2) as Tier,
    type: row.type,
    id: row.id,
    title: row.title ?? '',
    description: row.description ?? '',
    environmentId: row.environment_id,
    appId: row.app_id,
    databaseId: row.database_id,
  };
}

/**
 * The closest matches first, and within a closeness each type in turn (one app, one database, ...), so
 * fifteen apps never hide the one database that matched as well. A resource found twice counts once.
 */
export function rank(hits: RankedHit[], limit = LIMIT): SearchHit[] {
  const chosen = new Map<string, SearchHit>();
  for (const tier of [0, 1, 2] as const) {
    const byType = SEARCH_RESOURCE_TYPES.map((type) =>
      hits.filter((hit) => hit.tier === tier && hit.type === type),
    );
    const longest = Math.max(0, ...byType.map((list) => list.length));
    for (let turn = 0; turn < longest; turn += 1) {
      for (const list of byType) {
        const hit = list[turn];
        if (!hit) continue;
        const key = resourceKey(hit.type, hit.id);
        if (chosen.has(key)) continue;
        const { tier: _, ...plain } = hit;
        chosen.set(key, plain);
        if (chosen.size === limit) return [...chosen.values()];
      }
    }
  }
  return [...chosen.values()];
}

/** By title (each table's rows come back in no particular order once joined to their names). */
function byTitle(hits: RankedHit[]): RankedHit[] {
  return [...hits].sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
}

/** Environments and stacks are few and already read to know what the caller may see: matched here. */
function matchInMemory(
  needle: string,
  candidates: { type: SearchResourceType; id: number; handle: string; hit: () => SearchHit }[],
): RankedHit[] {
  const id = idIn(needle);
  const hits: RankedHit[] = [];
  for (const candidate of candidates) {
    const handle = candidate.handle.toLowerCase();
    const tier: Tier | null =
      candidate.id === id || handle === needle
        ? 0
        : handle.startsWith(needle)
          ? 1
          : needle.length >= SUBSTRING_MIN_LENGTH && handle.includes(needle)
            ? 2
            : null;
    if (tier !== null) hits.push({ ...candidate.hit(), tier });
  }
  return hits;
}

/**
 * Global search (issue 38): every resource the caller may read, matched by id, handle, host name, git
 * ref, commit and image, at most 15, closest first. Each table is asked through its indexes only
 * (primary key, a `text_pattern_ops` btree for exact and prefix matches in order, a trigram GIN index
 * for substrings; both led by the environment, or organization), each question stopping at 15 rows, so
 * an answer costs the same at 50 apps and at 50,000, and the same on an installation of one organization
 * and of many. What the caller may read is decided as every list decides it (the access layer), and
 * applied in the same statement.
 */
export function createSearchService(deps: { db: Db }) {
  const { db } = deps;
  const access = createAccess(db);

  async function readableBy(caller: CallerAccess): Promise<Readable> {
    const stackOrganizations = access.organizations(caller, 'stack.read');
    const sourceOrganizations = access.organizations(caller, 'source.read');
    const [visible, stacks] = await Promise.all([
      access.readableEnvironments(caller, 'environment.read'),
      visibleStacks(db, stackOrganizations),
    ]);
    const byAction = new Map<string, number[]>();
    return {
      environments: visible,
      stacks,
      sourceOrganizations,
      in: (action) => {
        let ids = byAction.get(action);
        if (!ids) {
          ids = visible.filter((environment) => allows(caller, environment, action)).map((row) => row.id);
          byAction.set(action, ids);
        }
        return ids;
      },
    };
  }

  function environmentHit(scope: Readable, environment: EnvironmentRow): SearchHit {
    const stack = scope.stacks.find((row) => row.id === environment.stackId);
    return {
      type: 'environment',
      id: String(environment.id),
      title: environment.handle,
      description: stack ? stack.name : environment.type,
      environmentId: String(environment.id),
      appId: null,
      databaseId: null,
    };
  }

  function stackHit(stack: StackRow): SearchHit {
    return {
      type: 'stack',
      id: String(stack.id),
      title: stack.name,
      description: `${stack.region} · ${stack.organizationId ? 'dedicated' : 'shared'}`,
      environmentId: null,
      appId: null,
      databaseId: null,
    };
  }

  async function tableHits(arms: SQL[]): Promise<RankedHit[]> {
    if (arms.length === 0) return [];
    const result = await db.execute(sql.join(arms, sql` union all `));
    return (result as unknown as { rows: HitRow[] }).rows.map(toHit);
  }

  return {
    async search(ref: CallerRef, text: string): Promise<SearchHit[]> {
      const caller = await access.caller(ref);
      const scope = await readableBy(caller);
      const needle = text.trim().toLowerCase();
      if (needle === '') return [];
      const hits = [
        ...matchInMemory(
          needle,
          scope.stacks.map((stack) => ({
            type: 'stack',
            id: stack.id,
            handle: stack.name,
            hit: () => stackHit(stack),
          })),
        ),
        ...matchInMemory(
          needle,
          scope.environments.map((environment) => ({
            type: 'environment',
            id: environment.id,
            handle: environment.handle,
            hit: () => environmentHit(scope, environment),
          })),
        ),
        ...(await tableHits(searchArms(scope, needle))).map((hit) =>
          hit.tier === 1 && hit.title.toLowerCase() === needle ? { ...hit, tier: 0 as const } : hit,
        ),
      ];
      return rank(byTitle(hits));
    },

    /**
     * The resources of these keys the caller may still read, in the keys' order (the console's Recently
     * Viewed and Most Visited, spec 3 §2): a deleted one, or one the caller lost access to, is left out.
     */
    async resolve(ref: CallerRef, keys: ResourceKey[]): Promise<SearchHit[]> {
      const caller = await access.caller(ref);
      const scope = await readableBy(caller);
      const idsOf = (type: SearchResourceType) =>
        keys.filter((key) => key.type === type).map((key) => Number(key.id));
      const arms: SQL[] = [];
      for (const target of TABLE_TARGETS) {
        const ids = idsOf(target.type);
        const scopes = target.readable(scope);
        if (ids.length && scopes.length) {
          arms.push(arm(target, scopes, 0, inArray(target.id, ids), { limit: ids.length }));
        }
      }
      const found = new Map<string, SearchHit>();
      const remember = (hit: SearchHit) => found.set(resourceKey(hit.type, hit.id), hit);
      for (const id of idsOf('stack')) {
        const stack = scope.stacks.find((row) => row.id === id);
        if (stack) remember(stackHit(stack));
      }
      for (const id of idsOf('environment')) {
        const environment = scope.environments.find((row) => row.id === id);
        if (environment) remember(environmentHit(scope, environment));
      }
      for (const { tier: _, ...hit } of await tableHits(arms)) remember(hit);
      return keys.flatMap((key) => found.get(resourceKey(key.type, key.id)) ?? []);
    },
  };
}
export type SearchService = ReturnType<typeof createSearchService>;
