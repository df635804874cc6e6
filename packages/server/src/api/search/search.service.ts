import {
  GLOBAL_SEARCH_MAX_RESULTS,
  type ResourceKey,
  resourceKey,
  SEARCH_RESOURCE_TYPES,
  type SearchResourceType,
} from '@berth/core';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
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

/** A resource searched in the database: its readable rows as a hit's columns, and what it matches on. */
interface TableTarget {
  type: SearchResourceType;
  /** `<columns> from <tables>`: id, title, description, environment_id, app_id, database_id, as text. */
  rows: SQL;
  readable: (scope: Readable) => SQL | null;
  id: AnyPgColumn;
  /** Matched exactly and by its start, through a `text_pattern_ops` index (search-text.ts). */
  handle?: AnyPgColumn;
  /** Matched anywhere, through a trigram index: the very expression the table's index holds. */
  text: SQL;
}

/** Rows whose column is one of `ids`; null when there are none, so the table is not asked at all. */
const within = (column: AnyPgColumn, ids: (number | string)[]): SQL | null =>
  ids.length ? inArray(column, ids) : null;

const TABLE_TARGETS: TableTarget[] = [
  {
    type: 'app',
    rows: sql`${apps.id}::text as id, ${apps.handle} as title, ${environments.handle} as description,
      ${apps.environmentId}::text as environment_id, null::text as app_id, null::text as database_id
      from ${apps} join ${environments} on ${environments.id} = ${apps.environmentId}`,
    readable: (scope) => within(apps.environmentId, scope.in('app.read')),
    id: apps.id,
    handle: apps.handle,
    text: searchText(apps.handle),
  },
  {
    type: 'database',
    rows: sql`${databases.id}::text as id, ${databases.handle} as title,
      ${databases.type} || ' · ' || ${environments.handle} as description,
      ${databases.environmentId}::text as environment_id, null::text as app_id, null::text as database_id
      from ${databases} join ${environments} on ${environments.id} = ${databases.environmentId}`,
    readable: (scope) => within(databases.environmentId, scope.in('database.read')),
    id: databases.id,
    handle: databases.handle,
    text: searchText(databases.handle, databases.type, databases.dockerRepo),
  },
  {
    type: 'endpoint',
    rows: sql`${vhosts.id}::text as id,
      coalesce(nullif(${vhosts.userDomain}, ''), nullif(${vhosts.virtualDomain}, ''),
        nullif(${vhosts.externalHost}, ''), 'Endpoint ' || ${vhosts.id}) as title,
      upper(${vhosts.type}) || ' · ' || ${environments.handle} as description,
      ${vhosts.environmentId}::text as environment_id, null::text as app_id, null::text as database_id
      from ${vhosts} join ${environments} on ${environments.id} = ${vhosts.environmentId}`,
    readable: (scope) => within(vhosts.environmentId, scope.in('vhost.read')),
    id: vhosts.id,
    text: searchText(vhosts.userDomain, vhosts.virtualDomain, vhosts.externalHost, vhosts.defaultName),
  },
  {
    type: 'service',
    rows: sql`${services.id}::text as id, ${services.handle} as title,
      coalesce(${apps.handle}, ${databases.handle}, 'Unknown') || ' · ' || ${environments.handle} as description,
      ${services.environmentId}::text as environment_id, ${services.appId}::text as app_id,
      ${services.databaseId}::text as database_id
      from ${services} join ${environments} on ${environments.id} = ${services.environmentId}
      left join ${apps} on ${apps.id} = ${services.appId}
      left join ${databases} on ${databases.id} = ${services.databaseId}`,
    readable: (scope) => within(services.environmentId, scope.in('service.read')),
    id: services.id,
    handle: services.handle,
    text: searchText(services.handle, services.dockerRepo),
  },
  {
    type: 'source',
    rows: sql`${sources.id}::text as id, coalesce(nullif(${sources.displayName}, ''), ${sources.url}) as title,
      ${sources.url} as description, null::text as environment_id, null::text as app_id,
      null::text as database_id
      from ${sources}`,
    readable: (scope) => within(sources.organizationId, scope.sourceOrganizations),
    id: sources.id,
    text: searchText(sources.displayName, sources.url),
  },
  {
    type: 'deployment',
    // spec 3 §3: a deployment with no docker image is a "Dockerfile Build" (of its git ref).
    rows: sql`${deployments.id}::text as id,
      coalesce(nullif(${deployments.dockerImage}, ''),
        nullif(${deployments.gitRef}, '') || coalesce(' @ ' || left(nullif(${deployments.gitCommitSha}, ''), 7), ''),
        'Dockerfile Build') as title,
      ${apps.handle} || ' · ' || ${environments.handle} as description,
      ${apps.environmentId}::text as environment_id, ${deployments.appId}::text as app_id,
      null::text as database_id
      from ${deployments} join ${apps} on ${apps.id} = ${deployments.appId}
      join ${environments} on ${environments.id} = ${apps.environmentId}`,
    readable: (scope) => within(apps.environmentId, scope.in('deployment.read')),
    id: deployments.id,
    text: searchText(deployments.gitRef, deployments.gitCommitSha, deployments.dockerImage),
  },
];

/** One question to one table: its readable rows matching `condition`, at most 15. */
function arm(target: TableTarget, where: SQL, tier: Tier, condition: SQL, order?: SQL): SQL {
  return sql`(select ${tier}::int as tier, ${target.type}::text as type, ${target.rows}
    where ${where} and ${condition} ${order ?? sql``} limit ${LIMIT})`;
}

/**
 * The questions a search text asks the tables (joined by `union all` into one statement): by id, by the
 * whole handle, by its start, and (from three characters) anywhere, each only over what the caller may
 * read. `needle` is the trimmed, lower-cased text.
 */
export function searchArms(scope: Readable, needle: string): SQL[] {
  const id = idIn(needle);
  const literal = likeLiteral(needle);
  const arms: SQL[] = [];
  for (const target of TABLE_TARGETS) {
    const where = target.readable(scope);
    if (!where) continue;
    if (id !== null) arms.push(arm(target, where, 0, sql`${target.id} = ${id}`));
    if (target.handle) {
      const handle = lowerHandle(target.handle);
      arms.push(arm(target, where, 0, sql`${handle} = ${needle}`));
      // `using ~<~`: the byte order the text_pattern_ops index holds, so the first 15 are read in order.
      arms.push(
        arm(target, where, 1, sql`${handle} like ${`${literal}%`}`, sql`order by ${handle} using ~<~`),
      );
    }
    if (needle.length >= SUBSTRING_MIN_LENGTH) {
      arms.push(arm(target, where, 2, sql`${target.text} like ${`%${literal}%`}`));
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

/**
 * Substring matches come back in no particular order (the index answers a set); by title, so the same
 * search shows the same results. The others keep the order they were asked in.
 */
function byTitleWhereUnordered(hits: RankedHit[]): RankedHit[] {
  const byTitle = (a: RankedHit, b: RankedHit) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0);
  return [...hits.filter((hit) => hit.tier < 2), ...hits.filter((hit) => hit.tier === 2).sort(byTitle)];
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
 * for substrings), each question stopping at 15 rows, so an answer costs the same at 50 apps and at
 * 50,000. What the caller may read is decided as every list decides it (the access layer), and applied
 * in the same statement.
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
        ...byTitleWhereUnordered(await tableHits(searchArms(scope, needle))),
      ];
      return rank(hits);
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
        const where = target.readable(scope);
        if (ids.length && where) arms.push(arm(target, where, 0, inArray(target.id, ids)));
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
