import { OPERATION_RESOURCE_TYPES, operationTypesOf } from '@berth/core';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apps, deployments, operations, vhosts } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { environmentSuite } from '../testing/environment-fixture.ts';
import { seedApp, seedOperation, seedService } from '../testing/factories.ts';
import type { TestUser } from '../testing/test-app.ts';
import { handlerFor } from './handlers/registry.ts';
import { createOperationsService, type OperationsService } from './operations.service.ts';
import { appendLog } from './queue.ts';

const { t, f } = await environmentSuite();
let service: OperationsService;
let appId: number;
let serviceId: number;
let foreignAppId: number;

const as = (user: TestUser, name = 'Someone') => ({ id: user.id, name, email: user.email });

/** The error a call ends with: the answer the routes send. */
async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

beforeAll(async () => {
  service = createOperationsService({ db: t.db, logsKey: new Uint8Array(32) });
  appId = (await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop' })).id;
  serviceId = (await seedService(t.db, { environmentId: f.environment.id, appId, handle: 'web' })).id;
  foreignAppId = (await seedApp(t.db, { environmentId: f.strangerEnvironment.id, handle: 'theirs' })).id;
});

describe('every type of the catalog has a handler', () => {
  it.each(
    OPERATION_RESOURCE_TYPES.flatMap((resourceType) =>
      operationTypesOf(resourceType).map((type) => [resourceType, type] as const),
    ),
  )('%s %s', (resourceType, type) => {
    expect(handlerFor(resourceType, type)?.run).toBeTypeOf('function');
  });

  it('and none outside it, inherited names included', () => {
    expect(handlerFor('app', 'scale')).toBeUndefined();
    expect(handlerFor('app', 'toString')).toBeUndefined();
    expect(handlerFor('database', 'deploy')).toBeUndefined();
    expect(handlerFor('log_drain', 'deploy')).toBeUndefined();
    expect(handlerFor('metric_drain', 'configure')).toBeUndefined();
  });
});

describe('OperationsService.start reads a request as the routes did (contract §6)', () => {
  it('refuses a missing or unknown type with the same messages', async () => {
    const missing = await refusal(service.start(as(f.deployer), 'app', appId, {}));
    expect(missing).toMatchObject({ status: 422, message: 'type must not be empty' });
    expect(missing.details).toEqual({ type: ['type must not be empty'] });
    const unknown = await refusal(service.start(as(f.deployer), 'app', appId, { type: 'scale' }));
    expect(unknown).toMatchObject({
      status: 422,
      message: 'Operation type "scale" is not supported for an app',
    });
    const inherited = await refusal(
      service.start(as(f.deployer), 'service', serviceId, { type: 'toString' }),
    );
    expect(inherited.message).toBe('Operation type "toString" is not supported for a service');
  });

  it('refuses a body invalid for its type with the same messages', async () => {
    const badKey = await refusal(
      service.start(as(f.deployer), 'app', appId, { type: 'configure', env: { 'bad-key': 'x' } }),
    );
    expect(badKey).toMatchObject({
      status: 422,
      message: 'bad-key does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/',
      details: { env: ['bad-key does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/'] },
    });
    const noRef = await refusal(service.start(as(f.deployer), 'app', appId, { type: 'scan_code' }));
    expect(noRef).toMatchObject({ status: 422, message: 'git_ref must not be empty' });
    const noChange = await refusal(service.start(as(f.deployer), 'service', serviceId, { type: 'scale' }));
    expect(noChange).toMatchObject({
      status: 422,
      message: 'A scale needs container_count, container_size or instance_profile',
    });
    const tooLong = await refusal(
      service.start(as(f.deployer), 'app', appId, { type: 'deploy', git_ref: 'x'.repeat(256) }),
    );
    expect(tooLong.message).toBe('git_ref must be at most 255 characters');
  });

  it('checks the scope before reading the body, and hides resources out of reach (404)', async () => {
    const denied = await refusal(
      service.start(as(f.reader), 'app', appId, { type: 'configure', env: { 'bad-key': 'x' } }),
    );
    expect(denied).toMatchObject({
      status: 403,
      message: `You do not have "deploy" permissions for this environment (id:${f.environment.id})`,
    });
    for (const [user, id] of [
      [f.deployer, foreignAppId],
      [f.outsider, appId],
      [f.deployer, 999_999],
    ] as const) {
      const hidden = await refusal(service.start(as(user), 'app', id, { type: 'deploy' }));
      expect(hidden).toMatchObject({ status: 404, message: 'Environment not found' });
    }
    const noEndpoint = await refusal(service.start(as(f.deployer), 'vhost', null, { type: 'renew' }));
    expect(noEndpoint).toMatchObject({ status: 404, message: 'Endpoint not found' });
  });

  it('queues a deploy with its deployment, in the columns the body asked for', async () => {
    const { op } = await service.start(as(f.deployer, 'Deployer'), 'app', appId, {
      type: 'deploy',
      git_ref: ' v1 ',
      id: 'ignored',
    });
    expect(op).toMatchObject({
      resourceType: 'app',
      resourceId: appId,
      resourceHandle: 'shop',
      type: 'deploy',
      status: 'queued',
      gitRef: 'v1',
      dockerRef: null,
      userName: 'Deployer',
    });
    const [deployment] = await t.db.select().from(deployments).where(eq(deployments.operationId, op.id));
    expect(deployment).toMatchObject({ appId, status: 'queued', gitRef: 'v1', dockerImage: null });
  });
});

describe('enqueue side effects come from the type’s handler, whoever enqueues', () => {
  it('a deprovision marks the app as it is queued, and the app then takes nothing else', async () => {
    const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'leaving' });
    await service.enqueue({
      organizationId: f.organization.id,
      environmentId: f.environment.id,
      resourceType: 'app',
      resourceId: app.id,
      resourceHandle: app.handle,
      type: 'deprovision',
      user: as(f.owner),
    });
    const [marked] = await t.db.select().from(apps).where(eq(apps.id, app.id));
    expect(marked?.status).toBe('deprovisioning');
    const refused = await refusal(service.start(as(f.owner), 'app', app.id, { type: 'restart' }));
    expect(refused).toMatchObject({ status: 422, message: 'App leaving is being deprovisioned' });
  });

  it('an endpoint passes through provisioning, and waits for it before another operation', async () => {
    const created = await t.call('POST', `/api/services/${serviceId}/vhosts`, {
      token: f.deployer.token,
      body: { default: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    const vhostId = Number(created.json().id);
    const { op } = await service.start(as(f.deployer), 'vhost', vhostId, { type: 'provision' });
    expect(op).toMatchObject({ resourceType: 'vhost', type: 'provision', status: 'queued' });
    const [row] = await t.db.select().from(vhosts).where(eq(vhosts.id, vhostId));
    expect(row?.status).toBe('provisioning');
    const busy = await refusal(service.start(as(f.deployer), 'vhost', vhostId, { type: 'renew' }));
    expect(busy).toMatchObject({
      status: 422,
      message: 'This endpoint is being provisioned; wait for the operation to finish',
    });
  });
});

describe('OperationsService.follow', () => {
  it('hands on the log as it grows, headed per retry as the log text is, and answers how it ended', async () => {
    const op = await seedOperation(t.db, {
      organizationId: f.organization.id,
      environmentId: f.environment.id,
      resourceType: 'app',
      resourceId: appId,
      type: 'deploy',
      status: 'running',
    });
    const seen: string[][] = [];
    const following = service.follow(op.id, (lines) => seen.push(lines), {
      signal: new AbortController().signal,
      pollMs: 20,
    });
    await appendLog(t.db, op.id, ['first try'], 1);
    await vi.waitFor(() => expect(seen.flat()).toEqual(['first try']));
    await appendLog(t.db, op.id, ['second try', 'done'], 2);
    await t.db.update(operations).set({ status: 'failed' }).where(eq(operations.id, op.id));
    expect(await following).toBe('failed');
    expect(seen.flat()).toEqual(['first try', '--- Attempt 2 of 3 ---', 'second try', 'done']);
    expect(seen.flat().join('\n')).toBe((await service.logText(op.id)).trimEnd());
  });

  it('stops when told to, and for an operation that is gone', async () => {
    const op = await seedOperation(t.db, {
      organizationId: f.organization.id,
      environmentId: f.environment.id,
      resourceType: 'app',
      resourceId: appId,
      type: 'deploy',
      status: 'queued',
    });
    const stop = new AbortController();
    const following = service.follow(op.id, () => undefined, { signal: stop.signal, pollMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop.abort();
    expect(await following).toBeNull();
    const live = new AbortController().signal;
    expect(await service.follow(-1, () => undefined, { signal: live, pollMs: 10 })).toBeNull();
  });
});
