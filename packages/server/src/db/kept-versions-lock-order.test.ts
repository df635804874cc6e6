import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../testing/test-app.ts';
import type { Db } from './client.ts';
import { appListVersions, apps, costVersions, services } from './schema.ts';

// Two deferred bumps meet at a commit: an app's environment's list version (0046) and its organization's
// cost version (0045). Creating an app queues them list-then-cost, finishing a deploy cost-then-list; only
// a separate PostgreSQL server runs two transactions at once (PGlite has one connection).
const onPostgres = process.env.BERTH_TEST_DB === 'postgres';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

async function rowsOf<T>(db: Db | Tx, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Resolves once the backend `pid` waits on a lock or has finished its statement. */
async function waitingOrDone(pid: number): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    const [activity] = await rowsOf<{ state: string; wait_event_type: string | null }>(
      t.db,
      sql`select state, wait_event_type from pg_stat_activity where pid = ${pid}`,
    );
    if (activity?.wait_event_type === 'Lock' || activity?.state === 'idle in transaction') return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`backend ${pid} neither waited nor finished`);
}

function deferred() {
  let resolve: (pid: number) => void = () => {};
  const promise = new Promise<number>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe.runIf(onPostgres)('kept versions bumped at commit (migration 0047)', () => {
  it('let an app created and a deploy finished in one environment both commit, one after the other', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner);
    const environmentId = Number((await t.createEnvironment(owner, org.id, 'prod')).id);
    const [deployed] = await t.db.insert(apps).values({ environmentId, handle: 'web' }).returning();
    if (!deployed) throw new Error('insert failed');
    await t.db
      .insert(services)
      .values({ environmentId, appId: deployed.id, handle: 'cmd', containerCount: 1 });
    const versions = async () => {
      const [list] = await t.db
        .select({ version: appListVersions.version })
        .from(appListVersions)
        .where(eq(appListVersions.environmentId, environmentId));
      const [costs] = await t.db
        .select({ version: costVersions.version })
        .from(costVersions)
        .where(eq(costVersions.organizationId, org.id));
      return { list: list?.version ?? 0, costs: costs?.version ?? 0 };
    };
    const before = await versions();

    const creatorBumpedList = deferred();
    const deployerAsked = deferred();
    // The app created: its row queues the list bump, its cost row then the cost bump. The list bump is
    // made now, so the creator holds what it takes before the deployer asks for the cost version.
    const created = t.db.transaction(async (tx) => {
      await tx.insert(apps).values({ environmentId, handle: 'worker' });
      await tx.execute(sql`set constraints app_list_versions_bump immediate`);
      creatorBumpedList.resolve(0);
      await waitingOrDone(await deployerAsked.promise);
    });
    // The deploy finished: its services change first (the cost bump), then the app (the list bump).
    const finished = t.db.transaction(async (tx) => {
      await creatorBumpedList.promise;
      const [self] = await rowsOf<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
      await tx.update(services).set({ containerCount: 2 }).where(eq(services.appId, deployed.id));
      await tx.update(apps).set({ status: 'provisioned' }).where(eq(apps.id, deployed.id));
      const costBump = tx.execute(sql`set constraints cost_versions_bump immediate`);
      deployerAsked.resolve(self?.pid ?? 0);
      await costBump;
    });

    // Before 0047 the creator's commit waited on the deployer's cost version row and the deployer's on
    // the creator's list version row, and PostgreSQL rolled one back (40P01).
    const outcomes = await Promise.allSettled([created, finished]);
    expect(
      outcomes.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : 'ok')),
    ).toEqual(['ok', 'ok']);
    expect(await versions()).toEqual({ list: before.list + 2, costs: before.costs + 2 });
  });
});
