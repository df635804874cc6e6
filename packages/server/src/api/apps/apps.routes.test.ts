import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apps } from '../../db/schema.ts';
import {
  cannotSee,
  cannotWrite,
  environmentSuite,
  expectAccess,
  onApp,
} from '../../testing/environment-fixture.ts';
import {
  seedApp,
  seedCodeScanResult,
  seedImage,
  seedOperation,
  seedService,
} from '../../testing/factories.ts';

const { t, f } = await environmentSuite();

const api = 'http://berth.test/api';

async function createApp(handle: string) {
  const response = await t.call('POST', `/api/accounts/${f.environment.id}/apps`, {
    token: f.deployer.token,
    body: { handle, account_id: String(f.environment.id) },
  });
  expect(response.statusCode).toBe(201);
  return response.json();
}

describe('POST /accounts/:id/apps', () => {
  it('creates a pending app record with empty embeds, no operation, and no git remote on a simulated stack', async () => {
    const app = await createApp('web');
    expect(app).toEqual({
      id: expect.stringMatching(/^\d+$/),
      _type: 'app',
      handle: 'web',
      // Issue 35: the simulated stack receives no push, so it names no remote (docker stacks do: git-http).
      git_repo: '',
      deployment_method: '',
      status: 'pending',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: expect.any(String),
      _links: {
        self: { href: `${api}/apps/${app.id}` },
        account: { href: `${api}/accounts/${f.environment.id}` },
        services: { href: `${api}/apps/${app.id}/services` },
        deployments: { href: `${api}/apps/${app.id}/deployments` },
        operations: { href: `${api}/apps/${app.id}/operations` },
        service_definitions: { href: `${api}/apps/${app.id}/service_definitions` },
      },
      _embedded: { services: [], current_image: null, last_deploy_operation: null, last_operation: null },
    });
  });

  it.each([
    [{ handle: '' }, 'Handle must not be empty'],
    [{}, 'Handle must not be empty'],
    [
      { handle: 'My App' },
      'Handle may contain only lowercase letters, digits, periods, hyphens and underscores',
    ],
    [{ handle: 'x'.repeat(65) }, 'Handle must be at most 64 characters'],
  ])('refuses %j with 422 "%s"', async (body, message) => {
    const response = await t.call('POST', `/api/accounts/${f.environment.id}/apps`, {
      token: f.deployer.token,
      body,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(message);
  });

  it('refuses a handle already used in the environment, but not in another one', async () => {
    await createApp('api');
    const again = await t.call('POST', `/api/accounts/${f.environment.id}/apps`, {
      token: f.owner.token,
      body: { handle: 'api' },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('An app with the handle "api" already exists in this environment');
    const elsewhere = await t.call('POST', `/api/accounts/${f.strangerEnvironment.id}/apps`, {
      token: f.stranger.token,
      body: { handle: 'api' },
    });
    expect(elsewhere.statusCode).toBe(201);
  });

  it('needs a token, a visible environment and the deploy scope', async () => {
    await expectAccess(
      t,
      {
        method: 'POST',
        url: `/api/accounts/${f.environment.id}/apps`,
        body: { handle: 'denied' },
        scope: 'deploy',
        environmentId: f.environment.id,
      },
      cannotWrite(f),
    );
  });
});

describe('GET /apps and /accounts/:id/apps', () => {
  it('lists the apps of every readable environment across organizations, with embeds unless no_embed', async () => {
    const mine = await createApp('listed');
    const theirs = await seedApp(t.db, { environmentId: f.strangerEnvironment.id, handle: 'theirs' });

    const list = (await t.call('GET', '/api/apps', { token: f.reader.token })).json();
    const handles = list._embedded.apps.map((app: { handle: string }) => app.handle);
    expect(handles).toContain('listed');
    expect(handles).not.toContain('theirs');
    expect(list._embedded.apps[0]._embedded).toMatchObject({ services: expect.any(Array) });
    expect(list).toMatchObject({
      current_page: 1,
      total_count: handles.length,
      _links: { self: { href: `${api}/apps` } },
    });

    const bare = (
      await t.call('GET', '/api/apps?per_page=5000&no_embed=true', { token: f.reader.token })
    ).json();
    expect(bare).toMatchObject({ current_page: 1, per_page: 5000, total_count: handles.length });
    const bareApp = bare._embedded.apps.find((app: { id: string }) => app.id === mine.id);
    expect(bareApp._embedded).toBeUndefined();
    // Lean: the contract's links only (issue 11), not the app's own lists.
    expect(Object.keys(bareApp._links).sort()).toEqual(['account', 'self']);
    expect(Object.keys(list._embedded.apps[0]._links)).toContain('services');

    const strangerList = (await t.call('GET', '/api/apps', { token: f.stranger.token })).json();
    expect(strangerList._embedded.apps.map((app: { id: string }) => app.id)).toContain(String(theirs.id));
    expect(strangerList._embedded.apps.map((app: { id: string }) => app.id)).not.toContain(mine.id);
    expect((await t.call('GET', '/api/apps', { token: f.outsider.token })).json()._embedded.apps).toEqual([]);
    expect((await t.call('GET', '/api/apps')).statusCode).toBe(401);
  });

  it('pages with page and per_page', async () => {
    const all = (await t.call('GET', '/api/apps?no_embed=true', { token: f.owner.token })).json();
    const second = (
      await t.call('GET', '/api/apps?page=2&per_page=1&no_embed=true', { token: f.owner.token })
    ).json();
    expect(second).toMatchObject({ current_page: 2, per_page: 1, total_count: all.total_count });
    expect(second._embedded.apps).toEqual([all._embedded.apps[1]]);
    expect(second._links.prev.href).toContain('page=1');
  });

  it('lists one environment: 404 when it is invisible', async () => {
    await createApp('scoped');
    const url = `/api/accounts/${f.environment.id}/apps`;
    const [response] = await expectAccess(t, { method: 'GET', url }, [[f.reader, 200], ...cannotSee(f)]);
    const apps = response?.json()._embedded.apps;
    expect(apps.map((app: { handle: string }) => app.handle)).toContain('scoped');
    expect(
      apps.every((app: { _links: { account: { href: string } } }) =>
        app._links.account.href.endsWith(`/${f.environment.id}`),
      ),
    ).toBe(true);
  });
});

describe('GET /apps/:id', () => {
  it('embeds services, the current image and the latest operations of the app', async () => {
    const app = await seedApp(t.db, {
      environmentId: f.environment.id,
      handle: 'embedded',
      status: 'provisioned',
    });
    const image = await seedImage(t.db, {
      appId: app.id,
      dockerRepo: 'registry.berth.local/embedded',
      dockerRef: 'sha256:abc',
      gitRepo: null,
      gitRef: 'main',
      exposedPorts: [3000, 80],
    });
    await t.db
      .update(apps)
      .set({ currentImageId: image.id, deploymentMethod: 'git' })
      .where(eq(apps.id, app.id));
    const web = await seedService(t.db, {
      environmentId: f.environment.id,
      appId: app.id,
      handle: 'web',
      command: 'npm start',
    });
    const operation = onApp(f, app.id);
    const deploy = await seedOperation(t.db, {
      ...operation,
      type: 'deploy',
      status: 'succeeded',
      gitRef: 'main',
    });
    const restart = await seedOperation(t.db, { ...operation, type: 'restart', status: 'running' });
    await seedOperation(t.db, { ...operation, resourceType: 'service', resourceId: web.id, type: 'scale' });

    const [response] = await expectAccess(t, { method: 'GET', url: `/api/apps/${app.id}` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    const body = response?.json();
    expect(body).toMatchObject({
      id: String(app.id),
      deployment_method: 'git',
      status: 'provisioned',
      _links: { current_image: { href: `${api}/images/${image.id}` } },
    });
    expect(body._links.current_configuration).toBeUndefined();
    expect(body._embedded.services).toMatchObject([
      {
        id: String(web.id),
        _type: 'service',
        handle: 'web',
        _links: { app: { href: `${api}/apps/${app.id}` } },
      },
    ]);
    expect(body._embedded.current_image).toMatchObject({
      _type: 'image',
      id: String(image.id),
      exposed_ports: [3000, 80],
    });
    expect(body._embedded.last_deploy_operation).toMatchObject({
      _type: 'operation',
      id: String(deploy.id),
      type: 'deploy',
    });
    expect(body._embedded.last_operation).toMatchObject({
      _type: 'operation',
      id: String(restart.id),
      type: 'restart',
      _links: { resource: { href: `${api}/apps/${app.id}` } },
    });
  });

  it('links the code scan result of an embedded scan_code operation (§4.3)', async () => {
    const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'scanned' });
    const scan = await seedOperation(t.db, {
      ...onApp(f, app.id),
      type: 'scan_code',
      status: 'succeeded',
      gitRef: 'main',
    });
    const result = await seedCodeScanResult(t.db, { appId: app.id, operationId: scan.id });
    const single = await t.call('GET', `/api/apps/${app.id}`, { token: f.reader.token });
    expect(single.json()._embedded.last_operation).toMatchObject({
      id: String(scan.id),
      type: 'scan_code',
      _links: { code_scan_result: { href: `${api}/code_scan_results/${result.id}` } },
    });
    const list = await t.call('GET', `/api/accounts/${f.environment.id}/apps`, { token: f.reader.token });
    const listed = (
      list.json()._embedded.apps as {
        id: string;
        _embedded: { last_operation: { _links: Record<string, unknown> } };
      }[]
    ).find((item) => item.id === String(app.id));
    expect(listed?._embedded.last_operation._links.code_scan_result).toEqual({
      href: `${api}/code_scan_results/${result.id}`,
    });
  });

  it('answers 404 for unknown and malformed ids', async () => {
    expect((await t.call('GET', '/api/apps/999999', { token: f.owner.token })).statusCode).toBe(404);
    const malformed = await t.call('GET', '/api/apps/abc', { token: f.owner.token });
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json().message).toBe('App not found');
  });
});

describe('PUT /apps/:id', () => {
  it('renames the app (on a simulated stack it still has no git remote)', async () => {
    const app = await createApp('old-name');
    const response = await t.call('PUT', `/api/apps/${app.id}`, {
      token: f.deployer.token,
      body: { handle: 'new-name' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: app.id,
      handle: 'new-name',
      git_repo: '',
    });
    const same = await t.call('PUT', `/api/apps/${app.id}`, {
      token: f.deployer.token,
      body: { handle: 'new-name' },
    });
    expect(same.statusCode).toBe(200);
  });

  it('refuses a bad or taken handle with 422', async () => {
    const app = await createApp('rename-me');
    await createApp('taken');
    const bad = await t.call('PUT', `/api/apps/${app.id}`, {
      token: f.deployer.token,
      body: { handle: 'Bad!' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe(
      'Handle may contain only lowercase letters, digits, periods, hyphens and underscores',
    );
    const taken = await t.call('PUT', `/api/apps/${app.id}`, {
      token: f.deployer.token,
      body: { handle: 'taken' },
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().message).toBe('An app with the handle "taken" already exists in this environment');
  });

  it('needs the deploy scope', async () => {
    const app = await createApp('guarded');
    await expectAccess(
      t,
      {
        method: 'PUT',
        url: `/api/apps/${app.id}`,
        body: { handle: 'x' },
        scope: 'deploy',
        environmentId: f.environment.id,
      },
      cannotWrite(f),
    );
  });
});
