import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../testing/test-app.ts';
import { type Readable, searchArms } from './search.service.ts';

const t = await testApp();
afterAll(() => t.close());

const SEARCHED = ['apps', 'databases', 'services', 'vhosts', 'deployments', 'sources'];
/** Each table's trigram index, led by what places a row with a tenant (its environment or organization). */
const trigramIndexOf = (table: string) => `${table}_${table === 'sources' ? 'org' : 'env'}_search_trgm_idx`;
let scope: Readable;
let environmentIds: number[];

// An organization of a few thousand of each, analyzed, so the planner chooses as it would in a large one.
beforeAll(async () => {
  const owner = await t.signUp();
  const organization = await t.createOrganization(owner);
  const production = Number((await t.createEnvironment(owner, organization.id, 'production')).id);
  const staging = Number((await t.createEnvironment(owner, organization.id, 'staging')).id);
  await t.db.execute(sql`
    insert into apps (environment_id, handle)
      select case when g % 2 = 0 then ${production}::int else ${staging}::int end, 'app-' || g
      from generate_series(1, 4000) g`);
  await t.db.execute(sql`
    insert into services (environment_id, app_id, handle, docker_repo)
      select environment_id, id, 'web', 'registry.example/' || handle from apps`);
  await t.db.execute(sql`
    insert into databases (environment_id, handle, type)
      select ${production}::int, 'db-' || g, case when g <= 200 then 'redis' else 'postgresql' end
      from generate_series(1, 2000) g`);
  // The databases' services come after all the apps': every "redis" service sits at the table's end.
  await t.db.execute(sql`
    insert into services (environment_id, database_id, handle, process_type)
      select environment_id, id, type, 'database' from databases where type = 'redis'`);
  await t.db.execute(sql`
    insert into vhosts (environment_id, service_id, virtual_domain)
      select environment_id, id, 'host-' || id || '.example' from services`);
  await t.db.execute(sql`
    insert into deployments (app_id, environment_id, operation_id, git_ref, git_commit_sha)
      select id, environment_id, 0, 'ref-' || id, md5(id::text) from apps`);
  await t.db.execute(sql`
    insert into sources (organization_id, url)
      select ${organization.id}::uuid, 'https://git.example/repository-' || g from generate_series(1, 2000) g`);
  // As autovacuum leaves them: the trigram indexes' pending entries merged, the statistics current.
  await t.db.execute(sql`vacuum analyze`);
  environmentIds = [production, staging];
  scope = {
    environments: [],
    stacks: [],
    in: () => [production, staging],
    sourceOrganizations: [organization.id],
  };
});

/** The lines of a plan, as one text. */
function planText(result: unknown): string {
  return (result as { rows: { 'QUERY PLAN': string }[] }).rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** The plan of a search's statement (sequential scans priced out, so only an index could be cheaper). */
async function planOf(needle: string): Promise<string> {
  return t.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const result = await tx.execute(sql`explain ${sql.join(searchArms(scope, needle), sql` union all `)}`);
    return (result as unknown as { rows: { 'QUERY PLAN': string }[] }).rows
      .map((row) => row['QUERY PLAN'])
      .join('\n');
  });
}

describe('global search reads indexes, never whole tables (issue 38: fast at 50,000 apps)', () => {
  it('finds text anywhere through the trigram indexes, and handles by their start in order', async () => {
    const plan = await planOf('shop');
    for (const table of SEARCHED) {
      expect(plan).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
      expect(plan).toContain(trigramIndexOf(table));
    }
    for (const table of ['apps', 'databases', 'services'])
      expect(plan).toContain(`${table}_env_handle_prefix_idx`);
  });

  it('finds an id by primary key, and short text by the handles’ start only', async () => {
    const byId = await planOf('42');
    for (const table of SEARCHED) {
      expect(byId).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
      expect(byId).toContain(`${table}_pkey`);
    }
    const short = await planOf('sh');
    expect(short).not.toContain('_search_trgm_idx');
    expect(short).not.toMatch(/Seq Scan on (apps|databases|services)\b/);
    for (const table of ['apps', 'databases', 'services'])
      expect(short).toContain(`${table}_env_handle_prefix_idx`);
  });

  it('reads matches gathered at a table’s end through the index, not the table up to them', async () => {
    // Only the services are asked, so the plan is theirs alone.
    const servicesOnly: Readable = {
      ...scope,
      in: (action) => (action === 'service.read' ? environmentIds : []),
      sourceOrganizations: [],
    };
    const result = await t.db.execute(
      sql`explain (analyze, costs off) ${sql.join(searchArms(servicesOnly, 'redis'), sql` union all `)}`,
    );
    const plan = (result as unknown as { rows: { 'QUERY PLAN': string }[] }).rows
      .map((row) => row['QUERY PLAN'])
      .join('\n');
    expect(plan).toContain('services_env_search_trgm_idx');
    // Planned with the limit, it read the 4,000 app services before the first "redis" one.
    const removed = [...plan.matchAll(/Rows Removed by Filter: (\d+)/g)].map((match) => Number(match[1]));
    expect(Math.max(0, ...removed)).toBeLessThan(1000);
  });
});

/**
 * The most rows any scan of an analyzed plan handed on (rows × loops) or threw away (rows removed by a
 * filter or an index recheck): what a search read of the tables, whatever plan the database chose.
 */
function mostRowsRead(plan: string): number {
  const handedOn = plan
    .split('\n')
    .filter((line) => line.includes('Scan'))
    .flatMap((line) => [...line.matchAll(/actual rows=([\d.]+) loops=([\d.]+)/g)])
    .map((match) => Number(match[1]) * Number(match[2]));
  const removed = [...plan.matchAll(/Rows Removed by [A-Za-z ]+: (\d+)/g)].map((match) => Number(match[1]));
  return Math.max(0, ...handedOn, ...removed);
}

describe('a small organization’s search reads its own rows only (issue 38: no tenant can delay another’s work)', () => {
  /** What the small organization holds of each table: a few dozen rows beside the thousands above. */
  const SMALL = 20;
  let small: Readable;
  let smallEnvironments: number[];

  // The small organization's rows match the same texts as the large one's (every app "app-…", every
  // service "web" with a "registry.example/…" image, "redis" databases, "host-…" endpoints, "ref-…"
  // deployments, "repository-…" sources), and come last, as a tenant added to a large installation.
  beforeAll(async () => {
    const owner = await t.signUp();
    const organization = await t.createOrganization(owner, 'Small Inc');
    const first = Number((await t.createEnvironment(owner, organization.id, 'production')).id);
    const second = Number((await t.createEnvironment(owner, organization.id, 'staging')).id);
    smallEnvironments = [first, second];
    await t.db.execute(sql`
      insert into apps (environment_id, handle)
        select case when g % 2 = 0 then ${first}::int else ${second}::int end, 'app-small-' || g
        from generate_series(1, ${SMALL}::int) g`);
    await t.db.execute(sql`
      insert into services (environment_id, app_id, handle, docker_repo)
        select environment_id, id, 'web', 'registry.example/' || handle
        from apps where environment_id in (${first}, ${second})`);
    await t.db.execute(sql`
      insert into databases (environment_id, handle, type)
        select ${first}::int, 'db-small-' || g, 'redis' from generate_series(1, ${SMALL / 2}::int) g`);
    await t.db.execute(sql`
      insert into services (environment_id, database_id, handle, process_type)
        select environment_id, id, type, 'database' from databases where environment_id = ${first}`);
    await t.db.execute(sql`
      insert into vhosts (environment_id, service_id, virtual_domain)
        select environment_id, id, 'host-' || id || '.example'
        from services where environment_id in (${first}, ${second}) and app_id is not null`);
    await t.db.execute(sql`
      insert into deployments (app_id, environment_id, operation_id, git_ref, git_commit_sha)
        select id, environment_id, 0, 'ref-' || id, md5(id::text)
        from apps where environment_id in (${first}, ${second})`);
    await t.db.execute(sql`
      insert into sources (organization_id, url)
        select ${organization.id}::uuid, 'https://git.example/repository-small-' || g
        from generate_series(1, ${SMALL / 2}::int) g`);
    await t.db.execute(sql`vacuum analyze`);
    small = {
      environments: [],
      stacks: [],
      in: () => smallEnvironments,
      sourceOrganizations: [organization.id],
    };
  });

  // Each text matches hundreds or thousands of the large organization's rows in its table, and at most
  // SMALL of the small one's.
  it.each(['app', 'web', 'redis', 'registry', 'host', 'ref', 'repository', 'db-'])(
    '“%s” reads none of the large organization’s rows',
    async (needle) => {
      // Sequential scans priced out, as on an installation large enough for them to matter.
      const plan = await t.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        return planText(
          await tx.execute(
            sql`explain (analyze, timing off, costs off) ${sql.join(searchArms(small, needle), sql` union all `)}`,
          ),
        );
      });
      expect(mostRowsRead(plan), plan).toBeLessThanOrEqual(SMALL * 2);
    },
  );

  it('finds the small organization’s own rows, and only those', async () => {
    for (const needle of ['app', 'web', 'redis', 'host', 'ref', 'repository']) {
      const result = await t.db.execute(sql.join(searchArms(small, needle), sql` union all `));
      const rows = (
        result as unknown as { rows: { type: string; title: string; environment_id: string | null }[] }
      ).rows;
      expect(rows.length, needle).toBeGreaterThan(0);
      for (const row of rows) {
        if (row.type === 'source') expect(row.title).toContain('repository-small-');
        else expect(smallEnvironments).toContain(Number(row.environment_id));
      }
    }
  });
});
