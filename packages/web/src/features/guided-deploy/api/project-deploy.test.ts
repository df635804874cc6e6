import { type Actor, databasePlaceholder, POLL_INTERVAL_MS, projectMessages } from '@berth/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { databaseResourceFixture } from '../../../../test/database-fixtures.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, errorBody, TEST_CONFIG } from '../../../../test/fixtures.ts';
import { operationResourceFixture } from '../../../../test/operation-fixtures.ts';
import { signIn } from '../../../../test/render.tsx';
import {
  deployProject,
  OPERATION_WAIT_LIMIT_MS,
  operationOutcome,
  redeployApp,
  refreshDatabaseUrls,
  TRANSIENT_RETRIES,
} from './project-deploy.ts';

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

const owner: Actor = { roleTypes: ['owner'], permissions: [] };
/** A member with these scopes on environment 10. */
const member = (...scopes: Actor['permissions'][number]['scope'][]): Actor => ({
  roleTypes: ['platform_user'],
  permissions: scopes.map((scope) => ({ environmentId: '10', scope })),
});
const SENSITIVE_DENIAL = 'You do not have "sensitive" permissions for this environment (id:10)';

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
      'GET /api/operations/103': () =>
        json(200, operationResourceFixture({ id: '103', status: 'succeeded' })),
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
    const result = await deployProject(
      {
        appId: '1',
        environmentId: '10',
        databases: [{ envVar: 'DATABASE_URL', handle: 'shop-postgresql', type: 'postgresql', imageId: '3' }],
        variables: [{ key: 'KEEP', value: 'yes' }],
        currentEnv: { GONE: 'x' },
        gitRef: 'main',
      },
      { actor: member('deploy', 'sensitive') },
    );
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
      deployProject(
        {
          appId: '1',
          environmentId: '10',
          databases: [{ envVar: 'REDIS_URL', handle: 'shop-redis', type: 'redis', imageId: '4' }],
          variables: [],
          currentEnv: {},
          gitRef: 'main',
        },
        { actor: owner },
      ),
    ).rejects.toThrow('Provisioning failed for shop-redis');
    expect(
      calls.filter((call) => call.method === 'POST' && (call.body as { type?: string }).type === 'deploy'),
    ).toEqual([]);
  });

  it('refuses a draft without an app or an environment, with the spec messages', async () => {
    const draft = { databases: [], variables: [], currentEnv: {}, gitRef: 'main' };
    await expect(
      deployProject({ ...draft, appId: '', environmentId: '10' }, { actor: owner }),
    ).rejects.toThrow('no app found with id , cannot deploy project');
    await expect(
      deployProject({ ...draft, appId: '1', environmentId: '' }, { actor: owner }),
    ).rejects.toThrow('envId cannot be empty, cannot deploy project');
  });

  it('refuses a deploy-only caller a draft with databases or placeholders before anything is made', async () => {
    signIn();
    const { calls } = mockServer({});
    const draft = { appId: '1', environmentId: '10', currentEnv: {}, gitRef: 'main' };
    await expect(
      deployProject(
        {
          ...draft,
          databases: [{ envVar: 'REDIS_URL', handle: 'shop-redis', type: 'redis', imageId: '4' }],
          variables: [],
        },
        { actor: member('deploy') },
      ),
    ).rejects.toThrow(SENSITIVE_DENIAL);
    await expect(
      deployProject(
        {
          ...draft,
          databases: [],
          variables: [{ key: 'REDIS_URL', value: databasePlaceholder('shop-redis') }],
        },
        { actor: member('deploy') },
      ),
    ).rejects.toThrow(SENSITIVE_DENIAL);
    await expect(
      deployProject({ ...draft, databases: [], variables: [] }, { actor: member('sensitive') }),
    ).rejects.toThrow('You do not have "deploy" permissions for this environment (id:10)');
    expect(calls).toEqual([]);
  });

  it('lets a deploy-only caller deploy a draft without databases', async () => {
    signIn();
    const { calls } = mockServer({
      'POST /api/apps/1/operations': () => json(201, operationResourceFixture({ id: '9', type: 'deploy' })),
    });
    const draft = { appId: '1', environmentId: '10', databases: [], variables: [], currentEnv: {} };
    expect(await deployProject({ ...draft, gitRef: 'main' }, { actor: member('deploy') })).toEqual({
      deployOperationId: '9',
    });
    expect(calls.map((call) => call.body)).toEqual([{ type: 'deploy', git_ref: 'main' }]);
  });

  it('deploys nothing when the configure that puts the connection URLs in fails', async () => {
    signIn();
    const { calls } = mockServer({
      'POST /api/accounts/10/databases': () =>
        json(201, databaseResourceFixture({ id: '7', handle: 'shop-postgresql' })),
      'POST /api/apps/1/operations': [
        () => json(201, operationResourceFixture({ id: '100', type: 'configure' })),
        () => json(201, operationResourceFixture({ id: '103', type: 'configure' })),
      ],
      'POST /api/databases/7/operations': () =>
        json(201, operationResourceFixture({ id: '101', type: 'provision' })),
      'GET /api/operations/100': () =>
        json(200, operationResourceFixture({ id: '100', status: 'succeeded' })),
      'GET /api/operations/101': () =>
        json(200, operationResourceFixture({ id: '101', status: 'succeeded' })),
      'GET /api/operations/103': () => json(200, operationResourceFixture({ id: '103', status: 'failed' })),
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
    });
    await expect(
      deployProject(
        {
          appId: '1',
          environmentId: '10',
          databases: [
            { envVar: 'DATABASE_URL', handle: 'shop-postgresql', type: 'postgresql', imageId: '3' },
          ],
          variables: [],
          currentEnv: {},
          gitRef: 'main',
        },
        { actor: owner },
      ),
    ).rejects.toThrow("Putting the databases' connection URLs in the configuration failed (operation 103)");
    expect(
      calls.filter((call) => call.method === 'POST' && (call.body as { type?: string }).type === 'deploy'),
    ).toEqual([]);
  });
});

describe('following an operation (spec 3 §4 polling)', () => {
  const running = () => json(200, operationResourceFixture({ id: '5', status: 'running' }));
  const succeeded = () => json(200, operationResourceFixture({ id: '5', status: 'succeeded' }));

  function setHidden(hidden: boolean) {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (hidden ? 'hidden' : 'visible'),
    });
    document.dispatchEvent(new Event('visibilitychange'));
  }

  afterEach(() => {
    // The document's own visibilityState again.
    Reflect.deleteProperty(document, 'visibilityState');
  });

  it('asks again after a network error or a 5xx, then ends with the status', async () => {
    vi.useFakeTimers();
    signIn();
    const { calls } = mockServer({
      'GET /api/operations/5': [
        () => Promise.reject(new TypeError('Failed to fetch')),
        () => json(503, errorBody(503, 'unavailable', 'restarting')),
        running,
        succeeded,
      ],
    });
    const outcome = operationOutcome('5');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS.operation * 3);
    expect(await outcome).toBe('succeeded');
    expect(calls).toHaveLength(4);
  });

  it('gives up after a few transient failures in a row, and at once on a refusal', async () => {
    vi.useFakeTimers();
    signIn();
    const { calls } = mockServer({
      'GET /api/operations/5': () => json(502, errorBody(502, 'bad_gateway', 'no upstream')),
      'GET /api/operations/6': () => json(403, errorBody(403, 'forbidden', 'not yours')),
    });
    const outcome = operationOutcome('5');
    const failure = expect(outcome).rejects.toThrow('no upstream');
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS.operation * (TRANSIENT_RETRIES + 1));
    await failure;
    expect(calls).toHaveLength(TRANSIENT_RETRIES + 1);
    await expect(operationOutcome('6')).rejects.toThrow('not yours');
    expect(calls).toHaveLength(TRANSIENT_RETRIES + 2);
  });

  it('pauses while the tab is hidden and goes on once it is visible', async () => {
    vi.useFakeTimers();
    signIn();
    const { calls } = mockServer({ 'GET /api/operations/5': [running, succeeded] });
    const outcome = operationOutcome('5');
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    setHidden(true);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS.operation * 10);
    expect(calls).toHaveLength(1);
    setHidden(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(await outcome).toBe('succeeded');
    expect(calls).toHaveLength(2);
  });

  it('stops when aborted, and asks nothing more', async () => {
    vi.useFakeTimers();
    signIn();
    const { calls } = mockServer({ 'GET /api/operations/5': running });
    const controller = new AbortController();
    const outcome = operationOutcome('5', controller.signal);
    const stopped = expect(outcome).rejects.toThrow('left the page');
    await vi.advanceTimersByTimeAsync(0);
    controller.abort(new Error('left the page'));
    await stopped;
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS.operation * 5);
    expect(calls).toHaveLength(1);
  });

  it('gives up on an operation that does not end within the wait limit', async () => {
    vi.useFakeTimers();
    signIn();
    const { calls } = mockServer({ 'GET /api/operations/5': running });
    const outcome = operationOutcome('5');
    const failure = expect(outcome).rejects.toThrow(
      'Operation 5 has not finished after 30 minutes: follow it on its page',
    );
    await vi.advanceTimersByTimeAsync(OPERATION_WAIT_LIMIT_MS + POLL_INTERVAL_MS.operation);
    await failure;
    expect(calls).toHaveLength(OPERATION_WAIT_LIMIT_MS / POLL_INTERVAL_MS.operation + 1);
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
      'GET /api/operations/5': () =>
        json(200, operationResourceFixture({ id: '5', type: 'configure', status: 'succeeded' })),
    });
    expect(
      await redeployApp({
        appId: '1',
        environmentId: '10',
        source: { gitRef: 'berth-scan' },
        waitsForDatabases: true,
        actor: member('deploy', 'sensitive'),
      }),
    ).toEqual({ deployOperationId: '6' });
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
      { type: 'configure', env: { DATABASE_URL: URL } },
      { type: 'deploy', git_ref: 'berth-scan' },
    ]);
  });

  it('Redeploy of an image deploys the same image again', async () => {
    signIn();
    const { calls } = mockServer({
      'POST /api/apps/1/operations': () => json(201, operationResourceFixture({ id: '6', type: 'deploy' })),
    });
    await redeployApp({
      appId: '1',
      environmentId: '10',
      source: { dockerImage: 'quay.io/berth/shop:1.2' },
      waitsForDatabases: false,
      actor: member('deploy'),
    });
    expect(calls.map((call) => call.body)).toEqual([
      { type: 'deploy', docker_image: 'quay.io/berth/shop:1.2' },
    ]);
  });

  it('Redeploy refuses a deploy-only caller when the configuration waits for databases, asking nothing', async () => {
    signIn();
    const { calls } = mockServer({});
    await expect(
      redeployApp({
        appId: '1',
        environmentId: '10',
        source: { gitRef: 'main' },
        waitsForDatabases: true,
        actor: member('deploy'),
      }),
    ).rejects.toThrow(SENSITIVE_DENIAL);
    expect(calls).toEqual([]);
  });
});
