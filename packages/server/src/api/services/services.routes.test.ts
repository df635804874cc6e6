import { beforeAll, describe, expect, it } from 'vitest';
import { cannotSee, cannotWrite, environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { seedApp, seedDatabase, seedService } from '../../testing/factories.ts';

const { t, f } = await environmentSuite();
let appId: number;
let web: Awaited<ReturnType<typeof seedService>>;
let databaseService: Awaited<ReturnType<typeof seedService>>;
let foreign: Awaited<ReturnType<typeof seedService>>;

const api = 'http://berth.test/api';

beforeAll(async () => {
  const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop' });
  appId = app.id;
  web = await seedService(t.db, {
    environmentId: f.environment.id,
    appId,
    handle: 'web',
    command: 'bundle exec puma',
    dockerRepo: 'registry.berth.local/shop',
    dockerRef: 'sha256:1',
    containerCount: 2,
    containerMemoryLimitMb: 1024,
  });
  const database = await seedDatabase(t.db, {
    environmentId: f.environment.id,
    handle: 'shop-db',
    type: 'postgresql',
  });
  databaseService = await seedService(t.db, {
    environmentId: f.environment.id,
    databaseId: database.id,
    handle: 'postgresql',
  });
  const strangerApp = await seedApp(t.db, { environmentId: f.strangerEnvironment.id, handle: 'theirs' });
  foreign = await seedService(t.db, {
    environmentId: f.strangerEnvironment.id,
    appId: strangerApp.id,
    handle: 'web',
  });
});

describe('service lists', () => {
  it('GET /services lists every readable service across organizations', async () => {
    const [response] = await expectAccess(t, { method: 'GET', url: '/api/services?per_page=5000' }, [
      [f.reader, 200],
      [null, 401],
    ]);
    const ids = response?.json()._embedded.services.map((s: { id: string }) => s.id);
    expect(ids).toEqual([String(web.id), String(databaseService.id)]);
    expect(response?.json()).toMatchObject({ current_page: 1, per_page: 5000, total_count: 2 });
    const outsider = (await t.call('GET', '/api/services', { token: f.outsider.token })).json();
    expect(outsider._embedded.services).toEqual([]);
    const stranger = (await t.call('GET', '/api/services', { token: f.stranger.token })).json();
    expect(stranger._embedded.services.map((s: { id: string }) => s.id)).toEqual([String(foreign.id)]);
  });

  it('GET /apps/:id/services lists the app services only', async () => {
    const [response] = await expectAccess(t, { method: 'GET', url: `/api/apps/${appId}/services` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    expect(response?.json()._embedded.services.map((s: { id: string }) => s.id)).toEqual([String(web.id)]);
  });

  it('GET /accounts/:id/services lists app and database services of the environment', async () => {
    const [response] = await expectAccess(
      t,
      { method: 'GET', url: `/api/accounts/${f.environment.id}/services` },
      [[f.reader, 200], ...cannotSee(f)],
    );
    expect(response?.json()._embedded.services).toHaveLength(2);
  });
});

describe('GET /services/:id', () => {
  it('answers the contract shape, linking the app', async () => {
    const [response] = await expectAccess(t, { method: 'GET', url: `/api/services/${web.id}` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    expect(response?.json()).toEqual({
      id: String(web.id),
      _type: 'service',
      handle: 'web',
      process_type: 'cmd',
      command: 'bundle exec puma',
      docker_repo: 'registry.berth.local/shop',
      docker_ref: 'sha256:1',
      container_count: 2,
      container_memory_limit_mb: 1024,
      instance_class: 'm5',
      force_zero_downtime: false,
      naive_health_check: false,
      stop_timeout: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      _links: {
        self: { href: `${api}/services/${web.id}` },
        account: { href: `${api}/accounts/${f.environment.id}` },
        app: { href: `${api}/apps/${appId}` },
        releases: { href: `${api}/services/${web.id}/releases` },
        operations: { href: `${api}/services/${web.id}/operations` },
      },
    });
  });

  it('links a database service to its database, not to an app', async () => {
    const body = (
      await t.call('GET', `/api/services/${databaseService.id}`, { token: f.owner.token })
    ).json();
    expect(body._links.database.href).toBe(`${api}/databases/${databaseService.databaseId}`);
    expect(body._links.app).toBeUndefined();
    expect((await t.call('GET', '/api/services/999999', { token: f.owner.token })).statusCode).toBe(404);
  });
});

describe('PUT /services/:id', () => {
  it('saves the deployment settings and keeps what is not sent', async () => {
    const response = await t.call('PUT', `/api/services/${web.id}`, {
      token: f.deployer.token,
      body: { force_zero_downtime: true, naive_health_check: true, stop_timeout: 60 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      force_zero_downtime: true,
      naive_health_check: true,
      stop_timeout: 60,
    });
    const cleared = await t.call('PUT', `/api/services/${web.id}`, {
      token: f.deployer.token,
      body: { stop_timeout: '' },
    });
    expect(cleared.json()).toMatchObject({
      force_zero_downtime: true,
      naive_health_check: true,
      stop_timeout: null,
    });
  });

  it.each([
    [{ stop_timeout: 901 }, 'Stop timeout must be between 0 and 900 seconds'],
    [{ stop_timeout: -1 }, 'Stop timeout must be between 0 and 900 seconds'],
    [{ force_zero_downtime: 'yes' }, 'Force zero downtime must be true or false'],
  ])('refuses %j with 422 "%s"', async (body, message) => {
    const response = await t.call('PUT', `/api/services/${web.id}`, { token: f.deployer.token, body });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(message);
  });

  it('needs the deploy scope', async () => {
    await expectAccess(
      t,
      {
        method: 'PUT',
        url: `/api/services/${web.id}`,
        body: { stop_timeout: 10 },
        scope: 'deploy',
        environmentId: f.environment.id,
      },
      cannotWrite(f),
    );
  });
});
