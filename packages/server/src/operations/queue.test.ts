import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, operationLogs, operations, organizations } from '../db/schema.ts';
import { createSimRuntime } from '../runtimes/sim/sim-runtime.ts';
import { createSecretBox } from '../security/secret-box.ts';
import { seedService } from '../testing/factories.ts';
import { ownedApps, startAppOperation } from '../testing/owned-apps.ts';
import { type TestApp, type TestUser, testApp } from '../testing/test-app.ts';
import { claimNext, finish, leaseOf, MAX_ATTEMPTS } from './queue.ts';
import { createWorker } from './worker.ts';

const testSecrets = createSecretBox(new Uint8Array(32), 'tests');

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

async function queuedDeploys(count: number) {
  const handles = Array.from({ length: count }, (_, i) => `app-${i}`);
  const { owner, apps: created } = await ownedApps(t, { environment: 'queue', apps: handles });
  const ids: number[] = [];
  for (const app of created) {
    const response = await startAppOperation(t, owner, app.id, { type: 'deploy', git_ref: 'main' });
    ids.push(Number(response.json().id));
  }
  return ids;
}

const worker = (id: string, stepMs = 1, leaseMs = 30_000) =>
  createWorker({
    db: t.db,
    secrets: testSecrets,
    runtimes: { sim: createSimRuntime({ stepMs }) },
    workerId: id,
    leaseMs,
  });

async function operationRow(id: number) {
  const [op] = await t.db.select().from(operations).where(eq(operations.id, id));
  return op;
}

async function logLines(id: number) {
  const rows = await t.db.select().from(operationLogs).where(eq(operationLogs.operationId, id));
  return rows.map((row) => row.line);
}

/** Leaves an operation as a worker that died on its last attempt does: running, its lease expired. */
async function lostOnLastAttempt(id: number) {
  await t.db
    .update(operations)
    .set({
      status: 'running',
      attempts: MAX_ATTEMPTS,
      leaseOwner: 'gone',
      leaseExpiresAt: new Date(Date.now() - 1000),
    })
    .where(eq(operations.id, id));
}

async function startsPerOperation(ids: number[]) {
  const logs = await t.db.select().from(operationLogs).where(inArray(operationLogs.operationId, ids));
  const counts = new Map<number, number>();
  for (const log of logs) {
    if (log.line.includes('Starting app deploy operation'))
      counts.set(log.operationId, (counts.get(log.operationId) ?? 0) + 1);
  }
  return ids.map((id) => counts.get(id) ?? 0);
}

describe('the queue', () => {
  it('two workers racing run every operation exactly once', async () => {
    const ids = await queuedDeploys(8);
    const a = worker('worker-a');
    const b = worker('worker-b');
    await Promise.all([a.drain(), b.drain()]);
    const rows = await t.db.select().from(operations).where(inArray(operations.id, ids));
    expect(rows.every((op) => op.status === 'succeeded' && op.attempts === 1)).toBe(true);
    expect(await startsPerOperation(ids)).toEqual(ids.map(() => 1));
  });

  it('a worker that dies mid-operation: its lease expires and another worker finishes the operation', async () => {
    const [id] = await queuedDeploys(1);
    // The dead worker claimed it and then never renewed its lease or finished.
    const claimed = await claimNext(t.db, 'dead-worker', 1);
    expect(claimed?.id).toBe(id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await worker('rescuer').drain();
    const op = await operationRow(id ?? 0);
    expect(op).toMatchObject({ status: 'succeeded', attempts: 2, leaseOwner: null });
    const lines = await logLines(id ?? 0);
    expect(lines.some((line) => line.includes('stopped responding; retrying (attempt 2 of 3)'))).toBe(true);
  });

  it('after the last attempt a lost operation fails with a message instead of running forever', async () => {
    const [id] = await queuedDeploys(1);
    await lostOnLastAttempt(id ?? 0);
    await worker('janitor').drain();
    const op = await operationRow(id ?? 0);
    expect(op?.status).toBe('failed');
    const lines = await logLines(id ?? 0);
    expect(lines.at(-1)).toMatch(
      /ERROR -- : The worker running this operation stopped responding 3 times; the operation failed/,
    );
  });

  it('a worker that lost its lease does not record a result', async () => {
    const [id] = await queuedDeploys(1);
    const slow = worker('slow', 40, 60);
    const running = slow.runOnce();
    // Another worker takes the operation over while the slow one is still building: once the slow
    // worker holds it (on a loaded machine the claim itself may take longer than any fixed pause).
    for (let waited = 0; waited < 5000; waited += 5) {
      const row = await operationRow(id ?? 0);
      if (row?.status === 'running' && row.leaseOwner === 'slow') break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await t.db
      .update(operations)
      .set({ leaseOwner: 'thief' })
      .where(eq(operations.id, id ?? 0));
    await running;
    const op = await operationRow(id ?? 0);
    expect(op).toMatchObject({ status: 'running', leaseOwner: 'thief' });
  });

  it('stopping a worker hands its running operation back to the queue at once', async () => {
    const [id] = await queuedDeploys(1);
    const stopping = worker('stopping', 50);
    stopping.start();
    await new Promise((resolve) => setTimeout(resolve, 30));
    await stopping.stop();
    const op = await operationRow(id ?? 0);
    expect(op).toMatchObject({ status: 'queued', leaseOwner: null });
    await worker('next').drain();
    const done = await operationRow(id ?? 0);
    expect(done?.status).toBe('succeeded');
  });
});

describe('one app at a time', () => {
  it('runs operations on the same app one after another, so concurrent configures both land', async () => {
    const {
      owner,
      apps: [app],
    } = await ownedApps(t, { environment: 'serial', apps: ['serial'] });
    for (const env of [{ A: '1' }, { B: '2' }, { C: '3' }]) {
      await startAppOperation(t, owner, app?.id ?? 0, { type: 'configure', env });
    }
    await Promise.all([worker('serial-a', 5).drain(), worker('serial-b', 5).drain()]);
    const [row] = await t.db
      .select()
      .from(apps)
      .where(eq(apps.id, app?.id ?? 0));
    const configuration = await t.call('GET', `/api/configurations/${row?.currentConfigurationId}`, {
      token: owner.token,
    });
    expect(configuration.json().env).toEqual({ A: '1', B: '2', C: '3' });
  });

  it('an operation that runs past its deadline fails with a message', async () => {
    const [id] = await queuedDeploys(1);
    const slow = createWorker({
      db: t.db,
      secrets: testSecrets,
      runtimes: { sim: createSimRuntime({ stepMs: 100 }) },
      timeoutMs: 30,
    });
    await slow.drain();
    const op = await operationRow(id ?? 0);
    expect(op?.status).toBe('failed');
    const lines = await logLines(id ?? 0);
    expect(lines.at(-1)).toMatch(/ERROR -- : Operation \d+ failed: timed out after 0 minutes/);
  });

  it('a deprovision lost for good marks the app deprovision_failed instead of leaving it stuck', async () => {
    const {
      owner,
      apps: [app],
    } = await ownedApps(t, { environment: 'stuck', apps: ['stuck'] });
    const response = await startAppOperation(t, owner, app?.id ?? 0, { type: 'deprovision' });
    await lostOnLastAttempt(Number(response.json().id));
    await worker('janitor-2').drain();
    const [row] = await t.db
      .select()
      .from(apps)
      .where(eq(apps.id, app?.id ?? 0));
    expect(row?.status).toBe('deprovision_failed');
  });
});

describe('fair claims across organizations', () => {
  let tenants = 0;

  /** An organization with an environment and `count` apps, owned by a new user. */
  async function tenant(count: number) {
    tenants += 1;
    const {
      owner,
      org,
      environment,
      apps: created,
    } = await ownedApps(t, {
      organization: `Tenant ${tenants}`,
      environment: `fair-${tenants}`,
      apps: Array.from({ length: count }, (_, i) => `fair-${tenants}-${i}`),
    });
    return { owner, org, environment, appIds: created.map((app) => app.id) };
  }

  async function enqueue(owner: TestUser, url: string, body: Record<string, unknown>) {
    const response = await t.call('POST', url, { token: owner.token, body });
    expect(response.statusCode, response.body).toBe(201);
    return Number(response.json().id);
  }

  /** Claims one operation and ends it at once: what a worker does, minus the runtime. */
  async function claimAndEnd(): Promise<number | null> {
    const op = await claimNext(t.db, 'fair', 30_000);
    if (!op) return null;
    await finish(t.db, leaseOf(op, 'fair'), 'succeeded', async () => {});
    return op.id;
  }

  async function setTurn(organizationId: string, at: Date) {
    await t.db.update(organizations).set({ queueTurnAt: at }).where(eq(organizations.id, organizationId));
  }

  // Start each test from an empty queue, whatever earlier tests left behind.
  const emptyQueue = () => worker('fair-sweeper').drain();

  it('an organization that queues after another queued many is served second, not last', async () => {
    await emptyQueue();
    const a = await tenant(6);
    const deploys: number[] = [];
    for (const appId of a.appIds) {
      deploys.push(
        await enqueue(a.owner, `/api/apps/${appId}/operations`, { type: 'deploy', git_ref: 'main' }),
      );
    }
    const b = await tenant(1);
    const restart = await enqueue(b.owner, `/api/apps/${b.appIds[0]}/operations`, { type: 'restart' });

    const order: number[] = [];
    for (let id = await claimAndEnd(); id !== null; id = await claimAndEnd()) order.push(id);
    // Turns start at creation: the older organization goes first, then the other, then the rest in order.
    expect(order).toEqual([deploys[0], restart, ...deploys.slice(1)]);
    const turns = await t.db
      .select({ id: organizations.id, turn: organizations.queueTurnAt })
      .from(organizations)
      .where(inArray(organizations.id, [a.org.id, b.org.id]));
    expect(turns.every((row) => row.turn instanceof Date)).toBe(true);
  });

  it('a new organization waits behind those served before it was made: no jumping the queue', async () => {
    await emptyQueue();
    const a = await tenant(2);
    const first = await enqueue(a.owner, `/api/apps/${a.appIds[0]}/operations`, { type: 'restart' });
    const second = await enqueue(a.owner, `/api/apps/${a.appIds[1]}/operations`, { type: 'restart' });
    expect(await claimAndEnd()).toBe(first);
    const fresh = await tenant(1);
    const theirs = await enqueue(fresh.owner, `/api/apps/${fresh.appIds[0]}/operations`, { type: 'restart' });
    const order: number[] = [];
    for (let id = await claimAndEnd(); id !== null; id = await claimAndEnd()) order.push(id);
    expect(order).toEqual([second, theirs]);
  });

  it('the organization whose last turn lies furthest back goes first, even with younger operations', async () => {
    await emptyQueue();
    const a = await tenant(2);
    const older = [
      await enqueue(a.owner, `/api/apps/${a.appIds[0]}/operations`, { type: 'restart' }),
      await enqueue(a.owner, `/api/apps/${a.appIds[1]}/operations`, { type: 'restart' }),
    ];
    const b = await tenant(1);
    const younger = await enqueue(b.owner, `/api/apps/${b.appIds[0]}/operations`, { type: 'restart' });
    await setTurn(a.org.id, new Date(Date.now() - 60_000));
    await setTurn(b.org.id, new Date(Date.now() - 3_600_000));

    const order: number[] = [];
    for (let id = await claimAndEnd(); id !== null; id = await claimAndEnd()) order.push(id);
    expect(order).toEqual([younger, ...older]);
  });

  it('an organization waiting on its own running operation does not hold up others; its app still runs one at a time', async () => {
    await emptyQueue();
    const a = await tenant(1);
    const appId = a.appIds[0] ?? 0;
    const web = await seedService(t.db, {
      environmentId: Number(a.environment.id),
      appId,
      handle: 'web',
    });
    const configure = await enqueue(a.owner, `/api/apps/${appId}/operations`, {
      type: 'configure',
      env: { A: '1' },
    });
    // A service of the app: it waits for the app's configure.
    const serviceRestart = await enqueue(a.owner, `/api/services/${web.id}/operations`, { type: 'restart' });
    const b = await tenant(1);
    const restart = await enqueue(b.owner, `/api/apps/${b.appIds[0]}/operations`, { type: 'restart' });

    const running = await claimNext(t.db, 'fair', 30_000);
    expect(running?.id).toBe(configure);
    // Organization A is first in turn again, but its next operation must wait for the running one.
    await setTurn(a.org.id, new Date(Date.now() - 3_600_000));
    expect(await claimAndEnd()).toBe(restart);
    expect(await claimNext(t.db, 'fair', 30_000)).toBeNull();

    if (running) await finish(t.db, leaseOf(running, 'fair'), 'succeeded', async () => {});
    expect(await claimAndEnd()).toBe(serviceRestart);
    expect(await claimAndEnd()).toBeNull();
  });
});
