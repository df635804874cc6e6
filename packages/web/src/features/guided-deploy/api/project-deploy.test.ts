import { databasePlaceholder, projectMessages } from '@berth/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { databaseResourceFixture } from '../../../../test/database-fixtures.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, errorBody, TEST_CONFIG } from '../../../../test/fixtures.ts';
import { operationResourceFixture } from '../../../../test/operation-fixtures.ts';
import { signIn } from '../../../../test/render.tsx';
import { deployProject, redeployApp, refreshDatabaseUrls } from './project-deploy.ts';

// spec 3 §4 Project deploy and Redeploy as the console runs them against the contract's calls (§7): the
// order of the calls, what each sends, and the spec's messages when a read fails.

const URL = 'postgresql://aptible:secret@db-shared-us-west-1-7.berth.internal:5432/db';

function configurationHal(env: Record<string, string>) {
  return {
    _type: 'configuration',
    id: '40',
    env,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    _links: {
      self: { href: `${TEST_CONFIG.apiUrl}/configurations/40` },
      resource: { href: `${TEST_CONFIG.apiUrl}/apps/1` },
    },
  };
}

const appWithConfiguration = () =>
  appResourceFixture({
    _links: { current_configuration: { href: `${TEST_CONFIG.apiUrl}/configurations/40` } },
  });

afterEach(() => vi.useRealTimers());

describe('the project deploy (spec 3 §4)', () => {
  it('creates the database, sets its placeholder, provisions it, puts its URL in, then deploys', async () => {
    signIn();
    const operation = (id: string, type: string, status = 'queued') =>
      json(201, operationResourceFixture({ id, type, status }));
    const { calls } = mockServer({
      'POST /api/accounts/10/databases': () =>
        json(201, databaseResourceFixture({ id: '7', handle: 'shop-postgresql', status: 'pending' })),
      'POST /api/apps/1/operations': [
        () => operation('100', 'configure'),
        () => operation('103', 'configure'),
        () => operation('104', 'deploy'),
      ],
      'POST /api/databases/7/operations': () => operation('101', 'provision'),
      'GET /api/operations/100': () =>
        json(200, operationResourceFixture({ id: '100', status: 'succeeded' })),
      'GET /api/operations/101': () =>
        json(200, operationResourceFixture({ id: '101', status: 'succeeded' })),
      'GET /api/accounts/10/databases': () =>
        json(
          200,
          collection('databases', [
            databaseResourceFixture({ id: '7', handle: 'shop-postgresql', connection_url: URL }),
          ]),
        ),
      'GET /api/apps/1': () => json(200, appWithConfiguration()),
      'GET /api/configurations/40': () =>
        json(200, configurationHal({ KEEP: 'yes', DATABASE_URL: databasePlaceholder('shop-postgresql') })),
    });
    const result = await deployProject({
      appId: '1',
      environmentId: '10',
      databases: [{ envVar: 'DATABASE_URL', handle: 'shop-postgresql', type: 'postgresql', imageId: '3' }],
      variables: [{ key: 'KEEP', value: 'yes' }],
      currentEnv: { GONE: 'x' },
      gitRef: 'main',
    });
    expect(result).toEqual({ deployOperationId: '104' });
    const posts = calls.filter((call) => call.method === 'POST').map((call) => [call.path, call.body]);
    expect(posts).toEqual([
      [
        '/api/accounts/10/databases',
        {
          handle: 'shop-postgresql',
          type: 'postgresql',
          database_image_id: '3',
          enable_backups: true,
          account_id: '10',
        },
      ],
      [
        '/api/apps/1/operations',
        {
          type: 'configure',
          env: { KEEP: 'yes', DATABASE_URL: '{{berth_database:shop-postgresql}}', GONE: '' },
        },
      ],
      [
        '/api/databases/7/operations',
        {
          type: 'provision',
          container_size: 1024,
          disk_size: 10,
          provisioned_iops: 3000,
          instance_profile: 'm5',
        },
      ],
      ['/api/apps/1/operations', { type: 'configure', env: { DATABASE_URL: URL } }],
      ['/api/apps/1/operations', { type: 'deploy', git_ref: 'main' }],
    ]);
  });

  it('ends in an error when a database does not provision, and deploys nothing', async () => {
    signIn();
    const { calls } = mockServer({
      'POST /api/accounts/10/databases': () =>
        json(201, databaseResourceFixture({ id: '7', handle: 'shop-redis' })),
      'POST /api/apps/1/operations': () =>
        json(201, operationResourceFixture({ id: '100', type: 'configure' })),
      'POST /api/databases/7/operations': () =>
        json(201, operationResourceFixture({ id: '101', type: 'provision' })),
      'GET /api/operations/100': () =>
        json(200, operationResourceFixture({ id: '100', status: 'succeeded' })),
      'GET /api/operations/101': () => json(200, operationResourceFixture({ id: '101', status: 'failed' })),
    });
    await expect(
      deployProject({
        appId: '1',
        environmentId: '10',
        databases: [{ envVar: 'REDIS_URL', handle: 'shop-redis', type: 'redis', imageId: '4' }],
        variables: [],
        currentEnv: {},
        gitRef: 'main',
      }),
    ).rejects.toThrow('Provisioning failed for shop-redis');
    expect(
      calls.filter((call) => call.method === 'POST' && (call.body as { type?: string }).type === 'deploy'),
    ).toEqual([]);
  });

  it('refuses a draft without an app or an environment, with the spec messages', async () => {
    const draft = { databases: [], variables: [], currentEnv: {}, gitRef: 'main' };
    await expect(deployProject({ ...draft, appId: '', environmentId: '10' })).rejects.toThrow(
      'no app found with id , cannot deploy project',
    );
    await expect(deployProject({ ...draft, appId: '1', environmentId: '' })).rejects.toThrow(
      'envId cannot be empty, cannot deploy project',
    );
  });
});

describe('the database URL update (spec 3 §8)', () => {
  it("says 'failed to fetch databases' when the environment's databases cannot be read", async () => {
    signIn();
    mockServer({ 'GET /api/accounts/10/databases': () => json(500, errorBody(500, 'internal', 'boom')) });
    await expect(refreshDatabaseUrls('1', '10')).rejects.toThrow(projectMessages.fetchDatabases);
  });

  it("says 'failed to fetch app env vars' when the app's configuration cannot be read", async () => {
    signIn();
    mockServer({
      'GET /api/accounts/10/databases': () => json(200, collection('databases', [])),
      'GET /api/apps/1': () => json(200, appWithConfiguration()),
      'GET /api/configurations/40': () => json(403, errorBody(403, 'forbidden', 'no read scope')),
    });
    await expect(refreshDatabaseUrls('1', '10')).rejects.toThrow(projectMessages.fetchEnv);
  });

  it('Redeploy fills in a placeholder left behind, then deploys the ref again', async () => {
    signIn();
    const { calls } = mockServer({
      'GET /api/accounts/10/databases': () =>
        json(
          200,
          collection('databases', [
            databaseResourceFixture({ id: '7', handle: 'shop-postgresql', connection_url: URL }),
          ]),
        ),
      'GET /api/apps/1': () => json(200, appWithConfiguration()),
      'GET /api/configurations/40': () =>
        json(200, configurationHal({ DATABASE_URL: databasePlaceholder('shop-postgresql') })),
      'POST /api/apps/1/operations': [
        () => json(201, operationResourceFixture({ id: '5', type: 'configure' })),
        () => json(201, operationResourceFixture({ id: '6', type: 'deploy' })),
      ],
    });
    expect(await redeployApp({ appId: '1', environmentId: '10', gitRef: 'berth-scan' })).toEqual({
      deployOperationId: '6',
    });
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
      { type: 'configure', env: { DATABASE_URL: URL } },
      { type: 'deploy', git_ref: 'berth-scan' },
    ]);
  });
});
