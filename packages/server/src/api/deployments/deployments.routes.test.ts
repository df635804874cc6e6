import { beforeAll, describe, expect, it } from 'vitest';
import { cannotSee, environmentSuite, expectAccess, onApp } from '../../testing/environment-fixture.ts';
import {
  seedApp,
  seedConfiguration,
  seedDeployment,
  seedImage,
  seedOperation,
  seedSource,
} from '../../testing/factories.ts';

const { t, f } = await environmentSuite();
let appId: number;
let first: Awaited<ReturnType<typeof seedDeployment>>;
let second: Awaited<ReturnType<typeof seedDeployment>>;
let foreign: Awaited<ReturnType<typeof seedDeployment>>;
let links: { operationId: number; configurationId: number; imageId: number; sourceId: number };

const api = 'http://berth.test/api';
const ids = (items: { id: string }[]) => items.map((item) => item.id);

beforeAll(async () => {
  appId = (await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop' })).id;
  const operation = await seedOperation(t.db, {
    ...onApp(f, appId),
    type: 'deploy',
    status: 'succeeded',
  });
  const configuration = await seedConfiguration(t.db, { appId, env: { PORT: '3000' } });
  const image = await seedImage(t.db, {
    appId,
    dockerRepo: 'registry.berth.local/shop',
    dockerRef: 'sha256:2',
  });
  const source = await seedSource(t.db, {
    organizationId: f.organization.id,
    displayName: 'acme/shop',
    url: 'https://github.com/acme/shop',
  });
  links = {
    operationId: operation.id,
    configurationId: configuration.id,
    imageId: image.id,
    sourceId: source.id,
  };
  first = await seedDeployment(t.db, {
    appId,
    operationId: operation.id,
    status: 'failed',
    createdAt: new Date('2024-01-01T00:00:00Z'),
  });
  second = await seedDeployment(t.db, {
    appId,
    operationId: operation.id,
    configurationId: configuration.id,
    imageId: image.id,
    sourceId: source.id,
    status: 'succeeded',
    gitRepositoryUrl: 'https://github.com/acme/shop',
    gitRef: 'main',
    gitCommitSha: 'abc123',
    gitCommitUrl: 'https://github.com/acme/shop/commit/abc123',
    gitCommitMessage: 'Fix checkout',
    gitCommitTimestamp: new Date('2024-02-01T10:00:00Z'),
    createdAt: new Date('2024-02-01T10:05:00Z'),
  });
  const strangerApp = await seedApp(t.db, { environmentId: f.strangerEnvironment.id, handle: 'theirs' });
  foreign = await seedDeployment(t.db, { appId: strangerApp.id, operationId: 1 });
});

describe('GET /deployments', () => {
  it('lists deployments of every readable app, newest first', async () => {
    const [response] = await expectAccess(t, { method: 'GET', url: '/api/deployments?per_page=5000' }, [
      [f.reader, 200],
      [null, 401],
    ]);
    expect(ids(response?.json()._embedded.deployments)).toEqual([String(second.id), String(first.id)]);
    expect(response?.json()).toMatchObject({ current_page: 1, per_page: 5000, total_count: 2 });
    expect(
      (await t.call('GET', '/api/deployments', { token: f.outsider.token })).json()._embedded.deployments,
    ).toEqual([]);
    const stranger = (await t.call('GET', '/api/deployments', { token: f.stranger.token })).json();
    expect(ids(stranger._embedded.deployments)).toEqual([String(foreign.id)]);
  });
});

describe('GET /deployments/:id', () => {
  it('answers the contract shape with its links', async () => {
    const [response] = await expectAccess(t, { method: 'GET', url: `/api/deployments/${second.id}` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    expect(response?.json()).toEqual({
      id: String(second.id),
      _type: 'deployment',
      status: 'succeeded',
      docker_image: null,
      docker_repository_url: null,
      git_repository_url: 'https://github.com/acme/shop',
      git_ref: 'main',
      git_commit_sha: 'abc123',
      git_commit_url: 'https://github.com/acme/shop/commit/abc123',
      git_commit_message: 'Fix checkout',
      git_commit_timestamp: '2024-02-01T10:00:00.000Z',
      created_at: '2024-02-01T10:05:00.000Z',
      updated_at: expect.any(String),
      _links: {
        self: { href: `${api}/deployments/${second.id}` },
        app: { href: `${api}/apps/${appId}` },
        operation: { href: `${api}/operations/${links.operationId}` },
        configuration: { href: `${api}/configurations/${links.configurationId}` },
        image: { href: `${api}/images/${links.imageId}` },
        source: { href: `${api}/sources/${links.sourceId}` },
      },
    });
    const bare = (await t.call('GET', `/api/deployments/${first.id}`, { token: f.reader.token })).json();
    expect(Object.keys(bare._links).sort()).toEqual(['app', 'operation', 'self']);
  });
});

describe('GET /apps/:id/deployments', () => {
  it('lists the app deployments newest first', async () => {
    const [response] = await expectAccess(t, { method: 'GET', url: `/api/apps/${appId}/deployments` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    expect(ids(response?.json()._embedded.deployments)).toEqual([String(second.id), String(first.id)]);
  });
});
