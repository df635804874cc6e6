import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { apps, operations, vhosts } from '../db/schema.ts';
import { seedApp, seedService } from '../testing/factories.ts';
import { type TestApp, type TestUser, testApp } from '../testing/test-app.ts';
import { operationLimitMessages } from './operations.service.ts';

// Two servers: one with a small queue cap per organization, one with a small rate per user.
let capped: TestApp;
let limited: TestApp;
beforeAll(async () => {
  capped = await testApp({ operationLimits: { queuedPerOrganization: 3, perUserPerMinute: 1000 } });
  limited = await testApp({ operationLimits: { queuedPerOrganization: 1000, perUserPerMinute: 4 } });
});
afterAll(async () => {
  await capped?.close();
  await limited?.close();
});

let tenants = 0;

/** An organization with an environment, `count` apps and a service with an endpoint on the first app. */
async function tenant(t: TestApp, count: number) {
  tenants += 1;
  const owner = await t.signUp();
  const org = await t.createOrganization(owner, `Tenant ${tenants}`);
  const environment = await t.createEnvironment(owner, org.id, `limits-${tenants}`);
  const appIds: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const app = await seedApp(t.db, { environmentId: Number(environment.id), handle: `app-${i}` });
    appIds.push(app.id);
  }
  const service = await seedService(t.db, {
    environmentId: Number(environment.id),
    appId: appIds[0] ?? null,
    handle: 'web',
  });
  const endpoint = await t.call('POST', `/api/services/${service.id}/vhosts`, {
    token: owner.token,
    body: { default: true },
  });
  expect(endpoint.statusCode, endpoint.body).toBe(201);
  return { owner, org, appIds, serviceId: service.id, vhostId: Number(endpoint.json().id) };
}

const appOperation = (t: TestApp, user: TestUser, appId: number | undefined, type = 'restart') =>
  t.call('POST', `/api/apps/${appId}/operations`, { token: user.token, body: { type } });
const serviceOperation = (t: TestApp, user: TestUser, serviceId: number) =>
  t.call('POST', `/api/services/${serviceId}/operations`, { token: user.token, body: { type: 'restart' } });
const endpointOperation = (t: TestApp, user: TestUser, vhostId: number) =>
  t.call('POST', `/api/vhosts/${vhostId}/operations`, { token: user.token, body: { type: 'provision' } });

async function queuedIn(t: TestApp, organizationId: string) {
  const [row] = await t.db
    .select({ value: count() })
    .from(operations)
    .where(and(eq(operations.organizationId, organizationId), eq(operations.status, 'queued')));
  return row?.value ?? 0;
}

describe('the queue cap per organization', () => {
  it('refuses the operation past the cap with 429 and a message, on every path, changing nothing', async () => {
    const a = await tenant(capped, 4);
    for (const appId of a.appIds.slice(0, 3)) {
      expect((await appOperation(capped, a.owner, appId)).statusCode).toBe(201);
    }
    const refused = await appOperation(capped, a.owner, a.appIds[3], 'deprovision');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: 429,
      error: 'queue_full',
      message: operationLimitMessages.queueFull(3),
      exception_context: {},
    });
    expect(refused.json().message).toBe(
      'Too many operations are queued for this organization (at most 3). Wait for some to finish and try again.',
    );
    const service = await serviceOperation(capped, a.owner, a.serviceId);
    expect([service.statusCode, service.json().message]).toEqual([429, operationLimitMessages.queueFull(3)]);
    const endpoint = await endpointOperation(capped, a.owner, a.vhostId);
    expect([endpoint.statusCode, endpoint.json().message]).toEqual([
      429,
      operationLimitMessages.queueFull(3),
    ]);

    // The refused requests left no trace: no operation, and no status they would have set.
    expect(await queuedIn(capped, a.org.id)).toBe(3);
    const [app] = await capped.db
      .select()
      .from(apps)
      .where(eq(apps.id, a.appIds[3] ?? 0));
    expect(app?.status).toBe('pending');
    const [vhost] = await capped.db.select().from(vhosts).where(eq(vhosts.id, a.vhostId));
    expect(vhost?.status).toBe('pending');
  });

  it('accepts new operations again once queued ones have finished', async () => {
    const a = await tenant(capped, 4);
    for (const appId of a.appIds.slice(0, 3)) {
      expect((await appOperation(capped, a.owner, appId)).statusCode).toBe(201);
    }
    expect((await appOperation(capped, a.owner, a.appIds[3])).statusCode).toBe(429);
    await capped.worker.drain();
    expect(await queuedIn(capped, a.org.id)).toBe(0);
    expect((await appOperation(capped, a.owner, a.appIds[3])).statusCode).toBe(201);
    expect((await endpointOperation(capped, a.owner, a.vhostId)).statusCode).toBe(201);
  });

  it('counts each organization on its own', async () => {
    const full = await tenant(capped, 3);
    for (const appId of full.appIds) {
      expect((await appOperation(capped, full.owner, appId)).statusCode).toBe(201);
    }
    const other = await tenant(capped, 1);
    expect((await appOperation(capped, other.owner, other.appIds[0])).statusCode).toBe(201);
    await capped.worker.drain();
  });

  it('gives the last slot to one of several parallel requests only', async () => {
    const a = await tenant(capped, 6);
    for (const appId of a.appIds.slice(0, 2)) {
      expect((await appOperation(capped, a.owner, appId)).statusCode).toBe(201);
    }
    const racing = await Promise.all(a.appIds.slice(2).map((appId) => appOperation(capped, a.owner, appId)));
    const statuses = racing.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 429, 429, 429]);
    expect(await queuedIn(capped, a.org.id)).toBe(3);
    await capped.worker.drain();
  });
});

describe('the rate of operations per user', () => {
  it('refuses operations past the rate with 429 and a message, on every path; other users go on', async () => {
    const a = await tenant(limited, 3);
    expect((await appOperation(limited, a.owner, a.appIds[0])).statusCode).toBe(201);
    expect((await appOperation(limited, a.owner, a.appIds[1])).statusCode).toBe(201);
    expect((await serviceOperation(limited, a.owner, a.serviceId)).statusCode).toBe(201);
    expect((await endpointOperation(limited, a.owner, a.vhostId)).statusCode).toBe(201);

    const refused = await appOperation(limited, a.owner, a.appIds[2]);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: 429,
      error: 'rate_limited',
      message: operationLimitMessages.tooFast(4),
      exception_context: {},
    });
    expect(refused.json().message).toBe(
      'You are starting operations too quickly (at most 4 a minute). Wait a minute and try again.',
    );
    const service = await serviceOperation(limited, a.owner, a.serviceId);
    expect([service.statusCode, service.json().message]).toEqual([429, operationLimitMessages.tooFast(4)]);

    // Finished operations still count: the limit is on how fast they are started, not how many wait.
    await limited.worker.drain();
    expect((await appOperation(limited, a.owner, a.appIds[2])).statusCode).toBe(429);

    const b = await tenant(limited, 1);
    expect((await appOperation(limited, b.owner, b.appIds[0])).statusCode).toBe(201);
  });

  it('lets the user start operations again once the minute has passed', async () => {
    const a = await tenant(limited, 1);
    for (let i = 0; i < 4; i += 1) {
      expect((await appOperation(limited, a.owner, a.appIds[0])).statusCode).toBe(201);
    }
    expect((await appOperation(limited, a.owner, a.appIds[0])).statusCode).toBe(429);
    // As if they had been started two minutes ago.
    await limited.db
      .update(operations)
      .set({ createdAt: new Date(Date.now() - 120_000) })
      .where(eq(operations.userId, a.owner.id));
    expect((await appOperation(limited, a.owner, a.appIds[0])).statusCode).toBe(201);
    await limited.worker.drain();
  });

  it('lets one of several parallel requests take the last one of the minute', async () => {
    const a = await tenant(limited, 7);
    for (const appId of a.appIds.slice(0, 3)) {
      expect((await appOperation(limited, a.owner, appId)).statusCode).toBe(201);
    }
    const racing = await Promise.all(a.appIds.slice(3).map((appId) => appOperation(limited, a.owner, appId)));
    expect(racing.map((response) => response.statusCode).sort()).toEqual([201, 429, 429, 429]);
    const [started] = await limited.db
      .select({ value: count() })
      .from(operations)
      .where(eq(operations.userId, a.owner.id));
    expect(started?.value).toBe(4);
    await limited.worker.drain();
  });
});

describe('the configuration of both limits', () => {
  it('defaults to 100 queued per organization and 60 a minute per user, and names a bad variable', () => {
    expect(loadConfig({}).operationLimits).toEqual({ queuedPerOrganization: 100, perUserPerMinute: 60 });
    expect(
      loadConfig({
        BERTH_QUEUED_OPERATIONS_PER_ORGANIZATION: '5',
        BERTH_OPERATIONS_PER_USER_PER_MINUTE: '7',
      }).operationLimits,
    ).toEqual({ queuedPerOrganization: 5, perUserPerMinute: 7 });
    expect(() => loadConfig({ BERTH_OPERATIONS_PER_USER_PER_MINUTE: 'fast' })).toThrow(
      'BERTH_OPERATIONS_PER_USER_PER_MINUTE must be an integer',
    );
  });
});
