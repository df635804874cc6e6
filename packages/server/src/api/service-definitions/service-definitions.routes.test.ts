import { beforeAll, describe, expect, it } from 'vitest';
import { cannotSee, cannotWrite, environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { seedApp, seedServiceDefinition } from '../../testing/factories.ts';

const { t, f } = await environmentSuite();
let appId: number;
beforeAll(async () => {
  appId = (await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop' })).id;
});

const api = 'http://berth.test/api';

describe('POST /apps/:id/service_definitions', () => {
  it('creates a definition', async () => {
    const response = await t.call('POST', `/api/apps/${appId}/service_definitions`, {
      token: f.deployer.token,
      body: { process_type: 'worker', command: 'npm run worker' },
    });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toEqual({
      id: expect.stringMatching(/^\d+$/),
      _type: 'service_definition',
      process_type: 'worker',
      command: 'npm run worker',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      _links: {
        self: { href: `${api}/service_definitions/${created.id}` },
        app: { href: `${api}/apps/${appId}` },
      },
    });
  });

  it('refuses a missing process type with 422', async () => {
    const response = await t.call('POST', `/api/apps/${appId}/service_definitions`, {
      token: f.deployer.token,
      body: { command: 'npm start' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('Process type must not be empty');
  });

  it('needs the deploy scope', async () => {
    await expectAccess(
      t,
      {
        method: 'POST',
        url: `/api/apps/${appId}/service_definitions`,
        body: { process_type: 'web', command: '' },
        scope: 'deploy',
        environmentId: f.environment.id,
      },
      cannotWrite(f),
    );
  });
});

describe('GET /apps/:id/service_definitions and /service_definitions/:id', () => {
  it('lists and shows definitions to anyone who can see the app', async () => {
    const definition = await seedServiceDefinition(t.db, { appId, processType: 'web', command: 'npm start' });
    const [list] = await expectAccess(t, { method: 'GET', url: `/api/apps/${appId}/service_definitions` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    expect(list?.json()._embedded.service_definitions.map((d: { id: string }) => d.id)).toContain(
      String(definition.id),
    );
    const [one] = await expectAccess(t, { method: 'GET', url: `/api/service_definitions/${definition.id}` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    expect(one?.json()).toMatchObject({
      id: String(definition.id),
      process_type: 'web',
      command: 'npm start',
    });
  });
});

describe('DELETE /service_definitions/:id', () => {
  it('needs the deploy scope, then deletes with 204', async () => {
    const definition = await seedServiceDefinition(t.db, { appId, processType: 'cron' });
    const url = `/api/service_definitions/${definition.id}`;
    await expectAccess(t, { method: 'DELETE', url, scope: 'deploy', environmentId: f.environment.id }, [
      ...cannotWrite(f),
      [f.deployer, 204],
    ]);
    expect((await t.call('GET', url, { token: f.owner.token })).statusCode).toBe(404);
  });
});
