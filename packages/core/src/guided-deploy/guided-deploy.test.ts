import { describe, expect, it } from 'vitest';
import type { Actor } from '../permissions/permissions.ts';
import {
  databasePlaceholder,
  draftWaitsForDatabases,
  GUIDED_DEPLOY_HEADINGS,
  GUIDED_DEPLOY_STEPS,
  guidedDeployState,
  isProjectDatabase,
  pendingDatabaseHandles,
  placeholderHandle,
  projectCreationProblem,
  projectDatabaseHandle,
  projectDeployDenial,
  projectDeployProblem,
  projectMessages,
  resolveDatabasePlaceholders,
} from './guided-deploy.ts';

describe('the guided deploy (spec 3 "Guided app deployment")', () => {
  it('has the four steps and the three headings of the spec', () => {
    expect(GUIDED_DEPLOY_STEPS).toEqual(['Name App', 'SSH/Git', 'Configure', 'Deploy']);
    expect(Object.values(GUIDED_DEPLOY_HEADINGS)).toEqual([
      'Deploying',
      'Deployed your Code',
      'Deployment Failed',
    ]);
  });

  it('states the spec §8 project messages word for word', () => {
    expect(projectMessages.stackEmpty).toBe('stack cannot be empty');
    expect(projectMessages.nameEmpty).toBe('name cannot be empty');
    expect(projectMessages.noApp('42')).toBe('no app found with id 42, cannot deploy project');
    expect(projectMessages.noEnvironment).toBe('envId cannot be empty, cannot deploy project');
    expect(projectMessages.fetchDatabases).toBe('failed to fetch databases');
    expect(projectMessages.fetchEnv).toBe('failed to fetch app env vars');
    expect(projectMessages.redeployInitiated).toBe('Redeploy initiated');
  });

  it('refuses a project without a stack, then without a name (spec 3 §4 Project creation)', () => {
    expect(projectCreationProblem({ stackId: '', name: '' })).toBe('stack cannot be empty');
    expect(projectCreationProblem({ stackId: '1', name: '  ' })).toBe('name cannot be empty');
    expect(projectCreationProblem({ stackId: '1', name: 'shop' })).toBeNull();
  });

  it('refuses a deploy without an app, then without an environment (spec 3 §4 Project deploy)', () => {
    expect(projectDeployProblem({ appId: '', environmentId: '' })).toBe(
      'no app found with id , cannot deploy project',
    );
    expect(projectDeployProblem({ appId: '7', environmentId: '' })).toBe(
      'envId cannot be empty, cannot deploy project',
    );
    expect(projectDeployProblem({ appId: '7', environmentId: '3' })).toBeNull();
  });
});

describe('database placeholders (spec 3 §4: set, provision, replace)', () => {
  it('names a database by handle and reads only well-formed placeholders back', () => {
    const placeholder = databasePlaceholder('shop-postgresql');
    expect(placeholder).toBe('{{berth_database:shop-postgresql}}');
    expect(placeholderHandle(placeholder)).toBe('shop-postgresql');
    for (const value of [
      'postgres://x',
      '{{berth_database:}}',
      '{{berth_database:Bad Handle}}',
      `{{berth_database:${'a'.repeat(65)}}}`,
      '{{berth_database:shop',
      null,
      undefined,
    ]) {
      expect(placeholderHandle(value)).toBeNull();
    }
  });

  it('lists the databases a configuration waits for, once each', () => {
    expect(
      pendingDatabaseHandles({
        DATABASE_URL: databasePlaceholder('shop-postgresql'),
        READ_URL: databasePlaceholder('shop-postgresql'),
        REDIS_URL: databasePlaceholder('shop-redis'),
        PLAIN: 'x',
        GONE: null,
      }),
    ).toEqual(['shop-postgresql', 'shop-redis']);
  });

  it('puts each connection URL in place of its placeholder and names the databases without one', () => {
    const env = {
      DATABASE_URL: databasePlaceholder('shop-postgresql'),
      REDIS_URL: databasePlaceholder('shop-redis'),
      CACHE_URL: databasePlaceholder('shop-redis'),
      SECRET: 'kept',
    };
    expect(
      resolveDatabasePlaceholders(env, new Map([['shop-postgresql', 'postgresql://u:p@db-1:5432/db']])),
    ).toEqual({
      changes: { DATABASE_URL: 'postgresql://u:p@db-1:5432/db' },
      missing: ['shop-redis'],
    });
    // A connection URL hidden from the caller (no sensitive scope) reads as "": still missing.
    expect(resolveDatabasePlaceholders(env, new Map([['shop-redis', '']])).missing).toEqual([
      'shop-postgresql',
      'shop-redis',
    ]);
  });

  it('knows the databases it named for an app, and no other app’s', () => {
    expect(isProjectDatabase('shop', { handle: 'shop-postgresql', type: 'postgresql' })).toBe(true);
    expect(isProjectDatabase('shop', { handle: 'shop-redis-3', type: 'redis' })).toBe(true);
    expect(isProjectDatabase('shop', { handle: 'shop-api-postgresql', type: 'postgresql' })).toBe(false);
    expect(isProjectDatabase('shop', { handle: 'shop-redis-1', type: 'redis' })).toBe(false);
    expect(isProjectDatabase('shop', { handle: 'shop-postgresql', type: 'redis' })).toBe(false);
    const long = 'a'.repeat(64);
    expect(
      isProjectDatabase(long, { handle: projectDatabaseHandle(long, 'redis', new Set()), type: 'redis' }),
    ).toBe(true);
  });

  it('names new databases after the app and engine, numbered past taken handles, within 64 characters', () => {
    expect(projectDatabaseHandle('shop', 'postgresql', new Set())).toBe('shop-postgresql');
    expect(projectDatabaseHandle('shop', 'redis', new Set(['shop-redis', 'shop-redis-2']))).toBe(
      'shop-redis-3',
    );
    const long = projectDatabaseHandle('a'.repeat(64), 'postgresql', new Set());
    expect(long).toHaveLength(64);
    expect(long.endsWith('-postgresql')).toBe(true);
  });
});

describe('the Deploying page state', () => {
  const idle = { deploy: null, steps: [], preparing: false, preparationFailed: false };

  it('deploys while the console prepares or the deploy has not ended', () => {
    expect(guidedDeployState({ ...idle, preparing: true })).toBe('deploying');
    // An earlier deploy's outcome is not this one's while a new one is prepared.
    expect(guidedDeployState({ ...idle, preparing: true, deploy: { status: 'failed' } })).toBe('deploying');
    expect(guidedDeployState({ ...idle, steps: [{ status: 'running' }] })).toBe('deploying');
    expect(guidedDeployState({ ...idle, deploy: { status: 'queued' } })).toBe('deploying');
    expect(guidedDeployState({ ...idle, deploy: { status: 'running' } })).toBe('deploying');
  });

  it('is deployed once the deploy succeeded', () => {
    expect(
      guidedDeployState({ ...idle, deploy: { status: 'succeeded' }, steps: [{ status: 'failed' }] }),
    ).toBe('succeeded');
  });

  it('fails with the preparation, the deploy, or a step before any deploy', () => {
    expect(guidedDeployState({ ...idle, preparing: true, preparationFailed: true })).toBe('failed');
    expect(guidedDeployState({ ...idle, deploy: { status: 'failed' } })).toBe('failed');
    expect(guidedDeployState({ ...idle, steps: [{ status: 'succeeded' }, { status: 'failed' }] })).toBe(
      'failed',
    );
  });
});

describe('who may run a project deploy (spec 3 §4, spec 2 §6)', () => {
  const member = (...scopes: Actor['permissions'][number]['scope'][]): Actor => ({
    roleTypes: ['platform_user'],
    permissions: scopes.map((scope) => ({ environmentId: '3', scope })),
  });

  it('knows a draft waits for databases when it makes one or fills a placeholder in', () => {
    expect(draftWaitsForDatabases({ databases: [], variables: [{ value: 'x' }] })).toBe(false);
    expect(draftWaitsForDatabases({ databases: [{}], variables: [] })).toBe(true);
    expect(
      draftWaitsForDatabases({ databases: [], variables: [{ value: databasePlaceholder('shop-redis') }] }),
    ).toBe(true);
  });

  it('asks a deploy with databases for deploy, then the sensitive scope its connection URLs need', () => {
    const deployOnly = member('deploy');
    expect(projectDeployDenial(deployOnly, '3', false)).toBeNull();
    expect(projectDeployDenial(deployOnly, '3', true)).toBe(
      'You do not have "sensitive" permissions for this environment (id:3)',
    );
    expect(projectDeployDenial(member('sensitive'), '3', true)).toBe(
      'You do not have "deploy" permissions for this environment (id:3)',
    );
    expect(projectDeployDenial(member('deploy', 'sensitive'), '3', true)).toBeNull();
    expect(projectDeployDenial({ roleTypes: ['owner'], permissions: [] }, '3', true)).toBeNull();
    expect(projectDeployDenial(member('deploy', 'sensitive'), '4', true)).toBe(
      'You do not have "deploy" permissions for this environment (id:4)',
    );
  });
});
