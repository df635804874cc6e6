import { beforeAll, describe, expect, it } from 'vitest';
import { environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { seedApp, seedDeployment, seedSource } from '../../testing/factories.ts';

const { t, f } = await environmentSuite();
let source: Awaited<ReturnType<typeof seedSource>>;
let visible: Awaited<ReturnType<typeof seedDeployment>>;
let hidden: Awaited<ReturnType<typeof seedDeployment>>;
let foreignSource: Awaited<ReturnType<typeof seedSource>>;

const api = 'http://berth.test/api';
const ids = (items: { id: string }[]) => items.map((item) => item.id);

beforeAll(async () => {
  source = await seedSource(t.db, { organizationId: f.organization.id, url: 'https://github.com/acme/shop' });
  foreignSource = await seedSource(t.db, {
    organizationId: f.strangerEnvironment.organizationId,
    displayName: 'other/repo',
    url: 'https://github.com/other/repo',
  });
  const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop' });
  visible = await seedDeployment(t.db, { appId: app.id, operationId: 1, sourceId: source.id });
  // Same source, deployed in an environment the reader cannot see.
  const secret = await t.createEnvironment(f.owner, f.organization.id, 'secret');
  const secretApp = await seedApp(t.db, { environmentId: Number(secret.id), handle: 'shop' });
  hidden = await seedDeployment(t.db, { appId: secretApp.id, operationId: 2, sourceId: source.id });
});

describe('GET /sources and /sources/:id', () => {
  it('shows the sources of the caller organizations to any member', async () => {
    const [list] = await expectAccess(t, { method: 'GET', url: '/api/sources' }, [
      [f.outsider, 200],
      [null, 401],
    ]);
    expect(list?.json()._embedded.sources).toEqual([
      {
        id: String(source.id),
        _type: 'source',
        display_name: null,
        url: 'https://github.com/acme/shop',
        app_count: 0,
        deployment_count: expect.any(Number),
        live_commits: [],
        created_at: expect.any(String),
        updated_at: expect.any(String),
        _links: {
          self: { href: `${api}/sources/${source.id}` },
          organization: { href: `http://berth.test/auth/organizations/${f.organization.id}` },
          deployments: { href: `${api}/sources/${source.id}/deployments` },
        },
      },
    ]);
    const stranger = (await t.call('GET', '/api/sources', { token: f.stranger.token })).json();
    expect(ids(stranger._embedded.sources)).toEqual([String(foreignSource.id)]);

    const [one] = await expectAccess(t, { method: 'GET', url: `/api/sources/${source.id}` }, [
      [f.reader, 200],
      [f.outsider, 200],
      [null, 401],
      [f.stranger, 404],
    ]);
    expect(one?.json()).toMatchObject({ id: String(source.id), _type: 'source' });
  });
});

describe('GET /sources/:id/deployments', () => {
  it('lists deployments from the source in apps the caller can see', async () => {
    const url = `/api/sources/${source.id}/deployments`;
    const [reader, owner, outsider] = await expectAccess(t, { method: 'GET', url }, [
      [f.reader, 200],
      [f.owner, 200],
      [f.outsider, 200],
      [null, 401],
      [f.stranger, 404],
    ]);
    expect(ids(reader?.json()._embedded.deployments)).toEqual([String(visible.id)]);
    expect(ids(owner?.json()._embedded.deployments).sort()).toEqual(
      [String(visible.id), String(hidden.id)].sort(),
    );
    expect(outsider?.json()._embedded.deployments).toEqual([]);
  });
});
