import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { environments, operationLogs, operations, services, stacks } from '../db/schema.ts';
import { environmentSuite } from '../testing/environment-fixture.ts';
import { seedApp, seedContainer, seedRelease, seedService } from '../testing/factories.ts';
import { createNodeLossRecorder, NODE_LOST_OPERATION_TYPE, nodeLossMessage } from './node-loss.ts';

// Issue 39: a node lost is recorded on each app that ran containers on it.
const { t, f } = await environmentSuite();
const recorder = createNodeLossRecorder({ db: t.db });
let runtime = '';
const ids = { shop: 0, blog: 0 };

/** A service of `appId` whose current release records running containers of these names. */
async function seedRunning(appId: number, handle: string, names: string[], deletedAt: Date | null = null) {
  const service = await seedService(t.db, { environmentId: f.environment.id, appId, handle });
  const release = await seedRelease(t.db, { serviceId: service.id });
  await t.db.update(services).set({ currentReleaseId: release.id }).where(eq(services.id, service.id));
  for (const dockerName of names)
    await seedContainer(t.db, {
      releaseId: release.id,
      dockerName,
      host: 'n3',
      status: 'running',
      deletedAt,
    });
}

beforeAll(async () => {
  const [environment] = await t.db.select().from(environments).where(eq(environments.id, f.environment.id));
  const [stack] = await t.db
    .select()
    .from(stacks)
    .where(eq(stacks.id, environment?.stackId ?? 0));
  runtime = stack?.runtime ?? '';
  const shop = await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop' });
  const blog = await seedApp(t.db, { environmentId: f.environment.id, handle: 'blog' });
  ids.shop = shop.id;
  ids.blog = blog.id;
  await seedRunning(shop.id, 'web', ['shop-web.1', 'shop-web.2', 'shop-web.3']);
  await seedRunning(shop.id, 'worker', ['shop-worker.1']);
  await seedRunning(blog.id, 'web', ['blog-web.1']);
  // A container removed already is not one that moves.
  await seedRunning(blog.id, 'cron', ['blog-cron.1'], new Date());
});

describe('nodeLossMessage', () => {
  it('names the node, its address and each service with its count', () => {
    expect(nodeLossMessage({ hostname: 'n3', address: '10.77.3.2' }, [{ handle: 'web', count: 1 }])).toBe(
      "Node n3 (10.77.3.2) stopped answering: Swarm moves web's 1 container to the other nodes",
    );
    expect(
      nodeLossMessage({ hostname: 'n3', address: null }, [
        { handle: 'web', count: 2 },
        { handle: 'worker', count: 1 },
      ]),
    ).toBe(
      "Node n3 stopped answering: Swarm moves web's 2 containers, worker's 1 container to the other nodes",
    );
  });
});

describe('createNodeLossRecorder', () => {
  it('writes one succeeded, automated node_lost operation on each app that ran containers there', async () => {
    const written = await recorder.record({
      runtime,
      hostname: 'n3',
      address: '10.77.3.2',
      // shop-web.3 ran elsewhere; an unknown task (another Berth's) is left out.
      containers: ['shop-web.1', 'shop-web.2', 'shop-worker.1', 'blog-web.1', 'blog-cron.1', 'stranger.1'],
    });
    expect(written.map((entry) => entry.appId).sort()).toEqual([ids.shop, ids.blog].sort());
    const shopOp = written.find((entry) => entry.appId === ids.shop);
    const [row] = await t.db
      .select()
      .from(operations)
      .where(eq(operations.id, shopOp?.operationId ?? 0));
    expect(row).toMatchObject({
      organizationId: f.organization.id,
      environmentId: f.environment.id,
      resourceType: 'app',
      resourceId: ids.shop,
      resourceHandle: 'shop',
      type: NODE_LOST_OPERATION_TYPE,
      status: 'succeeded',
      automated: true,
      userId: null,
      note: "Node n3 (10.77.3.2) stopped answering: Swarm moves web's 2 containers, worker's 1 container to the other nodes",
    });
    const lines = await t.db
      .select({ line: operationLogs.line })
      .from(operationLogs)
      .where(eq(operationLogs.operationId, shopOp?.operationId ?? 0));
    expect(lines.map((entry) => entry.line)).toEqual([
      row?.note,
      'Containers that ran there: shop-web.1, shop-web.2, shop-worker.1',
    ]);
    expect(written.find((entry) => entry.appId === ids.blog)?.message).toBe(
      "Node n3 (10.77.3.2) stopped answering: Swarm moves web's 1 container to the other nodes",
    );
  });

  it('shows on the app page Activity (the app operations list)', async () => {
    const res = await t.call('GET', `/api/apps/${ids.shop}/operations`, f.owner);
    expect(res.statusCode).toBe(200);
    const types = (res.json()._embedded.operations as { type: string; status: string }[]).map(
      (op) => `${op.type}:${op.status}`,
    );
    expect(types).toContain('node_lost:succeeded');
  });

  it('is no operation a caller can start', async () => {
    const res = await t.call('POST', `/api/apps/${ids.shop}/operations`, {
      token: f.owner.token,
      body: { type: NODE_LOST_OPERATION_TYPE },
    });
    expect(res.statusCode).toBe(422);
  });

  it('writes nothing for containers of another runtime or none at all', async () => {
    expect(
      await recorder.record({
        runtime: `not-${runtime}`,
        hostname: 'n3',
        address: null,
        containers: ['shop-web.1'],
      }),
    ).toEqual([]);
    expect(await recorder.record({ runtime, hostname: 'n3', address: null, containers: [] })).toEqual([]);
  });
});
