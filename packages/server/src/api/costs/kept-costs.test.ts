import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallerUser } from '../../auth/caller-access.ts';
import {
  apps,
  backups,
  databases,
  disks,
  environments,
  resourceCosts,
  services,
  vhosts,
} from '../../db/schema.ts';
import { createComputedCostsService } from '../../testing/computed-costs.ts';
import { seeded } from '../../testing/seeded-random.ts';
import { type TestApp, testApp } from '../../testing/test-app.ts';
import { createCostsService } from './costs.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

// Odd classes too: an unknown one is priced as m, a padded or upper-case one by its first letter.
const CLASSES = ['m5', 'c5', 'r5', 'M4', ' r4', 'x1', ''] as const;
const LISTS = ['services', 'apps', 'databases', 'accounts'] as const;

describe('kept costs (resource_costs)', () => {
  it('equal the costs computed from the resources after every step of a seeded run of changes', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner);
    const environmentIds = [
      Number((await t.createEnvironment(owner, org.id, 'a')).id),
      Number((await t.createEnvironment(owner, org.id, 'b')).id),
    ];
    const caller: CallerUser = { id: owner.id, name: 'Owner', email: owner.email };
    const kept = createCostsService({ db: t.db });
    const computed = createComputedCostsService({ db: t.db });
    const all = { page: 1, perPage: 1000 };
    const random = seeded(40);
    let made = 0;

    async function expectKeptEqualComputed(step: string) {
      for (const list of LISTS) {
        const [keptPage, computedPage] = await Promise.all([
          kept[list](caller, org.id, all),
          computed[list](caller, org.id, all),
        ]);
        const where = `${step}: ${list}`;
        expect(keptPage.total, where).toBe(computedPage.total);
        expect(
          keptPage.items.map((cost) => `${cost.resourceType}:${cost.id}`),
          where,
        ).toEqual(computedPage.items.map((cost) => `${cost.resourceType}:${cost.id}`));
        keptPage.items.forEach((cost, i) => {
          const expected = computedPage.items[i]?.estCost ?? Number.NaN;
          // The same prices added in another order: equal but for the last bits of a double.
          expect(
            Math.abs(cost.estCost - expected),
            `${where} ${cost.resourceType}:${cost.id}`,
          ).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
        });
      }
    }

    const ids = async (
      table: typeof apps | typeof databases | typeof services | typeof vhosts | typeof backups,
    ) => (await t.db.select({ id: table.id }).from(table).where(sql`true`)).map((row) => row.id);
    const allServices = async () =>
      t.db.select({ id: services.id, environmentId: services.environmentId }).from(services);
    const sizing = () => ({
      containerCount: random.int(4),
      containerMemoryLimitMb: random.pick([256, 512, 1024, 1536, 3072]) ?? 512,
      instanceClass: random.pick(CLASSES) ?? 'm5',
    });

    const operations: Record<string, () => Promise<unknown>> = {
      async createApp() {
        const environmentId = random.pick(environmentIds) ?? 0;
        const [app] = await t.db
          .insert(apps)
          .values({ environmentId, handle: `app-${made++}` })
          .returning();
        if (app && random.next() < 0.7) {
          await t.db.insert(services).values({ environmentId, appId: app.id, handle: 'web', ...sizing() });
        }
      },
      async createDatabase() {
        const environmentId = random.pick(environmentIds) ?? 0;
        const [database] = await t.db
          .insert(databases)
          .values({ environmentId, handle: `db-${made++}`, type: 'postgresql' })
          .returning();
        if (!database) return;
        await t.db
          .insert(services)
          .values({ environmentId, databaseId: database.id, handle: 'db', ...sizing() });
        await t.db.insert(disks).values({
          environmentId,
          databaseId: database.id,
          handle: `disk-${made++}`,
          size: 10 + random.int(90),
        });
      },
      async addService() {
        const app = random.pick(await t.db.select().from(apps));
        if (app) {
          await t.db.insert(services).values({
            environmentId: app.environmentId,
            appId: app.id,
            handle: `worker-${made++}`,
            ...sizing(),
          });
        }
      },
      async scale() {
        const id = random.pick(await ids(services));
        if (id !== undefined) await t.db.update(services).set(sizing()).where(eq(services.id, id));
      },
      async touchUnpriced() {
        // A change to nothing priced: the trigger stays asleep, and the costs stay what they are.
        const id = random.pick(await ids(services));
        if (id !== undefined)
          await t.db.update(services).set({ updatedAt: new Date() }).where(eq(services.id, id));
      },
      async addEndpoint() {
        const service = random.pick(await allServices());
        if (!service) return;
        await t.db.insert(vhosts).values({
          environmentId: service.environmentId,
          serviceId: service.id,
          shared: random.next() < 0.4,
          externalHost: random.next() < 0.5 ? `elb-${made++}.example.test` : null,
        });
      },
      async provisionEndpoint() {
        const id = random.pick(await ids(vhosts));
        if (id === undefined) return;
        const externalHost = random.next() < 0.6 ? `elb-${made++}.example.test` : null;
        await t.db.update(vhosts).set({ externalHost }).where(eq(vhosts.id, id));
      },
      async shareEndpoint() {
        const id = random.pick(await ids(vhosts));
        if (id !== undefined)
          await t.db
            .update(vhosts)
            .set({ shared: random.next() < 0.5 })
            .where(eq(vhosts.id, id));
      },
      async removeEndpoint() {
        const id = random.pick(await ids(vhosts));
        if (id !== undefined) await t.db.delete(vhosts).where(eq(vhosts.id, id));
      },
      async resizeDisk() {
        const disk = random.pick(await t.db.select({ id: disks.id }).from(disks));
        if (!disk) return;
        await t.db
          .update(disks)
          .set({ size: 10 + random.int(500), provisionedIops: 2000 + random.int(8) * 500 })
          .where(eq(disks.id, disk.id));
      },
      async backUp() {
        const database = random.pick(await t.db.select().from(databases));
        if (!database) return;
        await t.db.insert(backups).values({
          environmentId: database.environmentId,
          databaseId: database.id,
          databaseHandle: database.handle,
          databaseType: database.type,
          kind: 'manual',
          // Sizes that are not exact in binary, so adding and taking away must leave no residue.
          sizeGb: random.int(1000) / 10 + 0.01,
        });
      },
      async removeBackup() {
        const id = random.pick(await ids(backups));
        if (id !== undefined) await t.db.delete(backups).where(eq(backups.id, id));
      },
      async removeService() {
        const id = random.pick(await ids(services));
        if (id !== undefined) await t.db.delete(services).where(eq(services.id, id));
      },
      async removeApp() {
        const id = random.pick(await ids(apps));
        if (id !== undefined) await t.db.delete(apps).where(eq(apps.id, id));
      },
      async removeDatabase() {
        // Its backups stay, orphaned: they still cost their environment.
        const id = random.pick(await ids(databases));
        if (id !== undefined) await t.db.delete(databases).where(eq(databases.id, id));
      },
      async changeRolledBack() {
        // Kept in the same transaction as the change: a change that is rolled back leaves the costs alone.
        const id = random.pick(await ids(services));
        if (id === undefined) return;
        await t.db
          .transaction(async (tx) => {
            await tx
              .update(services)
              .set({ containerCount: 9, containerMemoryLimitMb: 4096 })
              .where(eq(services.id, id));
            await tx.delete(backups);
            throw new Error('rolled back');
          })
          .catch((error: unknown) => {
            if (!(error instanceof Error && error.message === 'rolled back')) throw error;
          });
      },
    };
    // Creations weigh more than removals, so the organization grows while it changes.
    const weighted = Object.entries(operations).flatMap(([name, operation]) =>
      Array.from(
        {
          length: name.startsWith('create') || name === 'addService' ? 3 : name.startsWith('remove') ? 1 : 2,
        },
        () => ({
          name,
          operation,
        }),
      ),
    );

    await expectKeptEqualComputed('start');
    const counts = new Map<string, number>();
    for (let step = 0; step < 160; step++) {
      const chosen = random.pick(weighted);
      if (!chosen) continue;
      await chosen.operation();
      counts.set(chosen.name, (counts.get(chosen.name) ?? 0) + 1);
      await expectKeptEqualComputed(`step ${step} (${chosen.name})`);
    }
    // The run did change things of every kind, and left something to price.
    for (const name of Object.keys(operations)) expect(counts.get(name) ?? 0, name).toBeGreaterThan(0);
    expect((await kept.apps(caller, org.id, all)).total).toBeGreaterThan(0);
    expect((await kept.databases(caller, org.id, all)).total).toBeGreaterThan(0);

    // Changes kept by difference (an environment's row) equal its row summed afresh by the migration's function.
    const before = await t.db.select().from(resourceCosts).where(eq(resourceCosts.organizationId, org.id));
    for (const id of environmentIds)
      await t.db.execute(sql`select resource_cost_recompute_environment(${id})`);
    const after = await t.db.select().from(resourceCosts).where(eq(resourceCosts.organizationId, org.id));
    const withoutTime = (rows: typeof before) =>
      rows
        .map(({ updatedAt: _updatedAt, ...row }) => row)
        .sort((x, y) => x.ownerType.localeCompare(y.ownerType) || x.ownerId - y.ownerId);
    expect(withoutTime(after)).toEqual(withoutTime(before));

    // Environments removed with everything in them leave no cost rows behind.
    await t.db.delete(environments).where(eq(environments.organizationId, org.id));
    expect(await t.db.$count(resourceCosts, eq(resourceCosts.organizationId, org.id))).toBe(0);
  }, 120_000);
});
