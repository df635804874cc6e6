import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../testing/test-app.ts';
import { apps, costVersions, organizations, resourceCosts, services } from './schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

async function versionOf(organizationId: string): Promise<number> {
  const [row] = await t.db
    .select({ version: costVersions.version })
    .from(costVersions)
    .where(eq(costVersions.organizationId, organizationId));
  return row?.version ?? 0;
}

/** An organization with an environment holding an app of 20 services. */
async function organizationWithServices() {
  const owner = await t.signUp();
  const org = await t.createOrganization(owner);
  const environmentId = Number((await t.createEnvironment(owner, org.id, 'prod')).id);
  const [app] = await t.db.insert(apps).values({ environmentId, handle: 'web' }).returning();
  if (!app) throw new Error('insert failed');
  await t.db.insert(services).values(
    Array.from({ length: 20 }, (_, i) => ({
      environmentId,
      appId: app.id,
      handle: `s${i}`,
      containerCount: 1,
      containerMemoryLimitMb: 512,
    })),
  );
  return { owner, org, environmentId, app };
}

describe('cost versions (migration 0045)', () => {
  it('move once for each transaction that changes kept cost rows, at its commit', async () => {
    const { org, app } = await organizationWithServices();
    const before = await versionOf(org.id);
    // One statement, 20 services: 20 service rows, the app's and the environment's change, counted once.
    await t.db.update(services).set({ containerCount: 2 }).where(eq(services.appId, app.id));
    expect(await versionOf(org.id)).toBe(before + 1);
    // Two statements in one transaction: still once.
    await t.db.transaction(async (tx) => {
      await tx.update(services).set({ containerCount: 3 }).where(eq(services.appId, app.id));
      await tx.insert(apps).values({ environmentId: app.environmentId, handle: 'worker' });
    });
    expect(await versionOf(org.id)).toBe(before + 2);
    // Two transactions: twice.
    await t.db.update(services).set({ containerCount: 1 }).where(eq(services.appId, app.id));
    await t.db.update(services).set({ containerCount: 4 }).where(eq(services.appId, app.id));
    expect(await versionOf(org.id)).toBe(before + 4);
  });

  it('stay when the change is rolled back, and move only for the organization that changed', async () => {
    const first = await organizationWithServices();
    const second = await organizationWithServices();
    const [firstBefore, secondBefore] = [await versionOf(first.org.id), await versionOf(second.org.id)];
    await expect(
      t.db.transaction(async (tx) => {
        await tx.update(services).set({ containerCount: 5 }).where(eq(services.appId, first.app.id));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await versionOf(first.org.id)).toBe(firstBefore);
    await t.db.update(services).set({ containerCount: 5 }).where(eq(services.appId, second.app.id));
    expect(await versionOf(first.org.id)).toBe(firstBefore);
    expect(await versionOf(second.org.id)).toBe(secondBefore + 1);
  });

  it('move for both organizations when a cost row moves from one to the other', async () => {
    const first = await organizationWithServices();
    const second = await organizationWithServices();
    const [firstBefore, secondBefore] = [await versionOf(first.org.id), await versionOf(second.org.id)];
    await t.db
      .update(resourceCosts)
      .set({ organizationId: second.org.id, environmentId: second.environmentId })
      .where(and(eq(resourceCosts.ownerType, 'app'), eq(resourceCosts.ownerId, first.app.id)));
    expect(await versionOf(first.org.id)).toBe(firstBefore + 1);
    expect(await versionOf(second.org.id)).toBe(secondBefore + 1);
  });

  it('move for a change kept past a savepoint rolled back inside the transaction', async () => {
    const { org, app } = await organizationWithServices();
    const before = await versionOf(org.id);
    type Tx = Parameters<Parameters<typeof t.db.transaction>[0]>[0];
    /** Scales the app's services inside a savepoint, then rolls back to it. */
    const scaleThenRollBack = (tx: Tx, containerCount: number) =>
      expect(
        tx.transaction(async (inner) => {
          await inner.update(services).set({ containerCount }).where(eq(services.appId, app.id));
          throw new Error('rolled back to the savepoint');
        }),
      ).rejects.toThrow('rolled back to the savepoint');
    await t.db.transaction(async (tx) => {
      await scaleThenRollBack(tx, 7);
      await tx.update(services).set({ containerCount: 8 }).where(eq(services.appId, app.id));
    });
    expect(await versionOf(org.id)).toBe(before + 1);
    // And none for a transaction whose only change was rolled back to its savepoint.
    await t.db.transaction((tx) => scaleThenRollBack(tx, 9));
    expect(await versionOf(org.id)).toBe(before + 1);
  });

  it('leave nothing behind an organization that is deleted with its costs', async () => {
    const { org } = await organizationWithServices();
    expect(await versionOf(org.id)).toBeGreaterThan(0);
    await t.db.delete(organizations).where(eq(organizations.id, org.id));
    const left = await t.db.select().from(costVersions).where(eq(costVersions.organizationId, org.id));
    expect(left).toEqual([]);
  });
});
