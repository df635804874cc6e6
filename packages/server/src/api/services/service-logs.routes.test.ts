import { SERVICE_LOG_TAIL_DEFAULT, serviceLogMessages } from '@berth/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { seedApp, seedContainer, seedRelease, seedService } from '../../testing/factories.ts';

const { t, f } = await environmentSuite();
const MINUTE = 60_000;
let webId: number;
let workerId: number;

beforeAll(async () => {
  const now = Date.now();
  const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop' });
  const web = await seedService(t.db, {
    environmentId: f.environment.id,
    appId: app.id,
    handle: 'web',
    processType: 'web',
  });
  const release = await seedRelease(t.db, { serviceId: web.id });
  for (const [name, createdAt] of [
    ['shop-web-1-aaaa', now - 30 * MINUTE],
    ['shop-web-2-bbbb', now - 3 * MINUTE],
  ] as const)
    await seedContainer(t.db, {
      releaseId: release.id,
      dockerName: name,
      status: 'running',
      createdAt: new Date(createdAt),
    });
  // A stopped container says nothing more.
  await seedContainer(t.db, {
    releaseId: release.id,
    dockerName: 'shop-web-0-old',
    status: 'stopped',
    createdAt: new Date(now - 60 * MINUTE),
    deletedAt: new Date(now - 30 * MINUTE),
  });
  const worker = await seedService(t.db, {
    environmentId: f.environment.id,
    appId: app.id,
    handle: 'worker',
    processType: 'worker',
  });
  const workerRelease = await seedRelease(t.db, { serviceId: worker.id });
  await seedContainer(t.db, {
    releaseId: workerRelease.id,
    dockerName: 'shop-worker-1-cccc',
    status: 'running',
    createdAt: new Date(now - 10 * MINUTE),
  });
  webId = web.id;
  workerId = worker.id;
});

const logs = (id: number, query = '') => `/api/services/${id}/logs${query}`;

describe("a service's container logs (GET /services/:id/logs)", () => {
  it('answers the newest lines of its running containers, oldest first', async () => {
    const response = await t.call('GET', logs(webId), { token: f.viewer.token });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body._type).toBe('service_logs');
    expect(body.lines).toHaveLength(SERVICE_LOG_TAIL_DEFAULT);
    const times = body.lines.map((line: { time: string }) => Date.parse(line.time));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(Math.max(...times)).toBeLessThanOrEqual(Date.now());
    const containers = new Set(body.lines.map((line: { container: string }) => line.container));
    expect(containers).toEqual(new Set(['shop-web-1-aaaa', 'shop-web-2-bbbb']));
    // A web process prints its requests.
    expect(body.lines.some((line: { line: string }) => /"GET \/\S* HTTP\/1.1" \d{3}/.test(line.line))).toBe(
      true,
    );

    const worker = (await t.call('GET', logs(workerId, '?tail=5'), { token: f.viewer.token })).json();
    expect(worker.lines).toHaveLength(5);
    expect(worker.lines.every((line: { line: string }) => /job \d+/.test(line.line))).toBe(true);
  });

  it('takes a tail between 1 and 1000', async () => {
    expect(
      (await t.call('GET', logs(webId, '?tail=3'), { token: f.viewer.token })).json().lines,
    ).toHaveLength(3);
    for (const tail of ['0', '1001', 'all', '2.5']) {
      const response = await t.call('GET', logs(webId, `?tail=${tail}`), { token: f.viewer.token });
      expect(response.statusCode).toBe(422);
      expect(response.json().message).toContain(serviceLogMessages.tail);
    }
  });

  it('needs a token, the caller’s organization and read access to the environment', async () => {
    await expectAccess(
      t,
      { method: 'GET', url: logs(webId, '?tail=1'), scope: 'read', environmentId: f.environment.id },
      [
        [f.owner, 200],
        [f.viewer, 200],
        [null, 401],
        [f.reader, 403],
        [f.deployer, 403],
        [f.outsider, 404],
        [f.stranger, 404],
      ],
    );
    expect((await t.call('GET', logs(999_999), { token: f.owner.token })).statusCode).toBe(404);
  });
});
