import type { PlanName } from '@berth/core';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../admin-commands.ts';
import {
  apps,
  backups,
  databaseImages,
  databases,
  environments,
  operations,
  services,
  sizingPolicies,
  vhosts,
} from '../../db/schema.ts';
import { createAutoscaler } from '../../operations/autoscaler.ts';
import { createBackupScheduler } from '../../operations/backup-scheduler.ts';
import { createOperationsService } from '../../operations/operations.service.ts';
import { seedApp, seedDatabase, seedService } from '../../testing/factories.ts';
import { type TestUser, testApp } from '../../testing/test-app.ts';
import { reserveDeployMemory } from './operation-limits.ts';

// Issue 37: each plan limit holds where its resources are made, at the limit and one past it, and when
// two requests race for the last slot; a refusal names the limit, its number and the plan that lifts it;
// lowering a plan removes nothing.

const t = await testApp({ defaultPlan: 'starter' });
afterAll(() => t.close());
let postgres17: number;

beforeAll(async () => {
  const [image] = await t.db.select().from(databaseImages).where(eq(databaseImages.version, '17'));
  if (!image) throw new Error('the catalog has no PostgreSQL 17');
  postgres17 = image.id;
});

/** An Account Owner, their organization on `plan`, and one environment in it. */
async function organizationOn(plan: PlanName = 'starter') {
  const owner = await t.signUp({ name: 'Owner' });
  const organization = await t.createOrganization(owner);
  if (plan !== 'starter') await runAdminCommand(t.db, ['plans', 'assign', organization.id, plan]);
  const environment = await t.createEnvironment(owner, organization.id, 'production');
  return { owner, organization, environmentId: Number(environment.id) };
}

/** An app service (one 512 MB container, as seeded). */
async function appService(environmentId: number, handle = 'web') {
  const app = await seedApp(t.db, { environmentId, handle: `${handle}-app` });
  return seedService(t.db, { environmentId, appId: app.id, handle });
}

function expectRefusal(
  response: { statusCode: number; json(): Record<string, unknown> },
  limit: string,
  message: string,
  liftedBy?: string,
) {
  expect(response.statusCode).toBe(422);
  const body = response.json();
  expect(body).toMatchObject({ error: 'plan_limit', message });
  expect(body.details).toMatchObject({ limit: [limit], ...(liftedBy ? { lifted_by: [liftedBy] } : {}) });
}

function statuses(responses: { statusCode: number }[]) {
  return responses.map((response) => response.statusCode).sort();
}

const newEnvironment = (owner: TestUser, organizationId: string, handle: string) =>
  t.call('POST', '/api/accounts', {
    token: owner.token,
    body: { handle, organization_id: organizationId, type: 'development', onboarding_status: 'initiated' },
  });

describe('environments', () => {
  it('are made up to the limit, and the next is refused naming the limit and the plan that lifts it', async () => {
    const { owner, organization } = await organizationOn();
    expect((await newEnvironment(owner, organization.id, 'staging')).statusCode).toBe(201);
    const past = await newEnvironment(owner, organization.id, 'third');
    expectRefusal(
      past,
      'environments',
      'The starter plan allows 2 environments. The development plan allows 3 environments. Change your plan on the Plans page to lift the limit.',
      'development',
    );
  });

  it('two made at once at the last slot: one is refused', async () => {
    const { owner, organization } = await organizationOn();
    const raced = await Promise.all([
      newEnvironment(owner, organization.id, 'left'),
      newEnvironment(owner, organization.id, 'right'),
    ]);
    expect(statuses(raced)).toEqual([201, 422]);
    const [made] = await t.db
      .select({ value: count() })
      .from(environments)
      .where(eq(environments.organizationId, organization.id));
    expect(made?.value).toBe(2);
  });
});

describe('endpoints', () => {
  const createEndpoint = (owner: TestUser, serviceId: number) =>
    t.call('POST', `/api/services/${serviceId}/vhosts`, { token: owner.token, body: { default: true } });

  it('are made up to the limit; past it the refusal names the plan that lifts it', async () => {
    const { owner, environmentId } = await organizationOn();
    const web = await appService(environmentId);
    expect((await createEndpoint(owner, web.id)).statusCode).toBe(201);
    expectRefusal(
      await createEndpoint(owner, web.id),
      'endpoints',
      'The starter plan allows 1 endpoint. The growth plan allows 3 endpoints. Change your plan on the Plans page to lift the limit.',
      'growth',
    );
  });

  it('names the plan its owners may choose that lifts the limit, and sends them to support for any other', async () => {
    const { owner, organization, environmentId } = await organizationOn();
    const web = await appService(environmentId);
    expect((await createEndpoint(owner, web.id)).statusCode).toBe(201);
    // Growth lifts it first, but production is the one of their plans that does.
    await runAdminCommand(t.db, ['plans', 'available', organization.id, 'starter,production']);
    expectRefusal(
      await createEndpoint(owner, web.id),
      'endpoints',
      'The starter plan allows 1 endpoint. The production plan allows 100 endpoints. Change your plan on the Plans page to lift the limit.',
      'production',
    );
    await runAdminCommand(t.db, ['plans', 'available', organization.id, 'starter']);
    expectRefusal(
      await createEndpoint(owner, web.id),
      'endpoints',
      'The starter plan allows 1 endpoint. The growth plan allows 3 endpoints. Please contact support to move to it.',
      'growth',
    );
  });

  it('two made at once at the last slot: one is refused', async () => {
    const { owner, environmentId } = await organizationOn();
    const web = await appService(environmentId);
    const raced = await Promise.all([createEndpoint(owner, web.id), createEndpoint(owner, web.id)]);
    expect(statuses(raced)).toEqual([201, 422]);
  });

  it('lowering the plan removes nothing: what is over the limit stays, and new ones are refused', async () => {
    const { owner, organization, environmentId } = await organizationOn('growth');
    const web = await appService(environmentId);
    for (let made = 0; made < 3; made += 1)
      expect((await createEndpoint(owner, web.id)).statusCode).toBe(201);
    expectRefusal(
      await createEndpoint(owner, web.id),
      'endpoints',
      expect.stringContaining('growth plan allows 3'),
    );
    const listed = await t.call('GET', `/api/active_plans?organization_id=${organization.id}`, {
      token: owner.token,
    });
    const [active] = listed.json()._embedded.active_plans;
    const starter = (await t.call('GET', '/api/plans', { token: owner.token }))
      .json()
      ._embedded.plans.find((plan: { name: string }) => plan.name === 'starter');
    const lowered = await t.call('PUT', `/api/active_plans/${active.id}`, {
      token: owner.token,
      body: { plan_id: starter.id },
    });
    expect(lowered.statusCode, lowered.body).toBe(200);
    const [kept] = await t.db.select({ value: count() }).from(vhosts).where(eq(vhosts.serviceId, web.id));
    expect(kept?.value).toBe(3);
    expectRefusal(
      await createEndpoint(owner, web.id),
      'endpoints',
      'The starter plan allows 1 endpoint. The scale plan allows 20 endpoints. Change your plan on the Plans page to lift the limit.',
      'scale',
    );
  });
});

describe('container memory and profiles', () => {
  const scale = (owner: TestUser, serviceId: number, body: Record<string, unknown>) =>
    t.call('POST', `/api/services/${serviceId}/operations`, {
      token: owner.token,
      body: { type: 'scale', id: serviceId, ...body },
    });

  it('scales up to the organization’s memory limit, counting queued scales at their sizes, and not past it', async () => {
    const { owner, environmentId } = await organizationOn();
    const web = await appService(environmentId, 'web');
    const worker = await appService(environmentId, 'worker');
    // 4 × 512 + 512 = 2560 MB, the web scale still queued.
    expect((await scale(owner, web.id, { container_count: 4 })).statusCode).toBe(201);
    // 2048 + 2 × 512 = 3072 MB: the starter plan's 3 GB exactly.
    expect((await scale(owner, worker.id, { container_count: 2 })).statusCode).toBe(201);
    expectRefusal(
      await scale(owner, worker.id, { container_count: 3 }),
      'containerMemory',
      'The starter plan allows 3 GB of container memory. The growth plan allows 11 GB of container memory. Change your plan on the Plans page to lift the limit.',
      'growth',
    );
    // Coming down is never refused.
    expect((await scale(owner, web.id, { container_count: 1 })).statusCode).toBe(201);
  });

  it('two scales at once at the last slot: one is refused', async () => {
    const { owner, environmentId } = await organizationOn();
    const web = await appService(environmentId, 'web');
    const worker = await appService(environmentId, 'worker');
    // Either alone: 2048 + 512 = 2560 MB; both: 4096 MB.
    const raced = await Promise.all([
      scale(owner, web.id, { container_count: 4 }),
      scale(owner, worker.id, { container_count: 4 }),
    ]);
    expect(statuses(raced)).toEqual([201, 422]);
  });

  /** An app with nothing deployed yet: its first deploy makes a service of the default size. */
  async function newApp(environmentId: number, handle: string) {
    const [app] = await t.db.insert(apps).values({ environmentId, handle }).returning();
    if (!app) throw new Error('no app');
    return app;
  }
  const deploy = (owner: TestUser, appId: number) =>
    t.call('POST', `/api/apps/${appId}/operations`, {
      token: owner.token,
      body: { type: 'deploy', git_ref: 'main' },
    });
  /** Takes all but `leftMb` of the starter plan's 3 GB with one service. */
  async function fill(environmentId: number, leftMb: number) {
    const filler = await appService(environmentId, 'filler');
    await t.db
      .update(services)
      .set({ containerMemoryLimitMb: 3 * 1024 - leftMb })
      .where(eq(services.id, filler.id));
  }

  it('refuses a first deploy whose new service does not fit, and lets a redeploy through', async () => {
    const { owner, environmentId } = await organizationOn();
    await fill(environmentId, 512);
    const first = await newApp(environmentId, 'shop');
    const deployed = await t.operate(owner, `/api/apps/${first.id}/operations`, {
      type: 'deploy',
      git_ref: 'main',
    });
    expect(deployed.status).toBe('succeeded');
    // The plan is full now: another app's first deploy would add 512 MB more.
    const second = await newApp(environmentId, 'blog');
    expectRefusal(
      await deploy(owner, second.id),
      'containerMemory',
      'The starter plan allows 3 GB of container memory. The growth plan allows 11 GB of container memory. Change your plan on the Plans page to lift the limit.',
      'growth',
    );
    // Deploying again onto the services an app has adds nothing.
    expect((await deploy(owner, first.id)).statusCode).toBe(201);
  });

  it('two first deploys at once at the last slot: one is refused', async () => {
    const { owner, environmentId } = await organizationOn();
    await fill(environmentId, 512);
    const [shop, blog] = [await newApp(environmentId, 'shop'), await newApp(environmentId, 'blog')];
    const raced = await Promise.all([deploy(owner, shop.id), deploy(owner, blog.id)]);
    expect(statuses(raced)).toEqual([201, 422]);
  });

  it('a queued first deploy holds its memory against a scale', async () => {
    const { owner, environmentId } = await organizationOn();
    await fill(environmentId, 1024);
    const web = await appService(environmentId, 'web');
    const shop = await newApp(environmentId, 'shop');
    expect((await deploy(owner, shop.id)).statusCode).toBe(201);
    expectRefusal(
      await scale(owner, web.id, { container_count: 2 }),
      'containerMemory',
      'The starter plan allows 3 GB of container memory. The growth plan allows 11 GB of container memory. Change your plan on the Plans page to lift the limit.',
      'growth',
    );
  });

  it('a deploy whose image brings more process types than fit fails with the plan’s refusal', async () => {
    const { owner, environmentId } = await organizationOn();
    await fill(environmentId, 1024);
    const shop = await newApp(environmentId, 'shop');
    const queued = await deploy(owner, shop.id);
    expect(queued.statusCode).toBe(201);
    const id = Number(queued.json().id);
    const [op] = await t.db.select().from(operations).where(eq(operations.id, id));
    if (!op) throw new Error('no operation');
    expect(op.reservedMemoryMb).toBe(512);
    // Its image turned out to have three process types: 1536 MB where 1024 MB are left.
    await expect(t.db.transaction((tx) => reserveDeployMemory(tx, op, 3))).rejects.toMatchObject({
      error: 'plan_limit',
      message:
        'The starter plan allows 3 GB of container memory. The growth plan allows 11 GB of container memory. Change your plan on the Plans page to lift the limit.',
    });
    // Two fit, and are then held for it.
    await t.db.transaction((tx) => reserveDeployMemory(tx, op, 2));
    const [held] = await t.db.select().from(operations).where(eq(operations.id, id));
    expect(held?.reservedMemoryMb).toBe(1024);
  });

  it('refuses a container profile the plan does not run', async () => {
    const { owner, environmentId } = await organizationOn();
    const web = await appService(environmentId);
    expectRefusal(
      await scale(owner, web.id, { instance_profile: 'c5', container_size: 2048 }),
      'cpuProfile',
      'The starter plan does not include compute optimized containers (c5). The scale plan does. Change your plan on the Plans page to lift the limit.',
      'scale',
    );
  });
});

describe('database disk', () => {
  async function database(owner: TestUser, environmentId: number, handle: string) {
    const created = await t.call('POST', `/api/accounts/${environmentId}/databases`, {
      token: owner.token,
      body: {
        handle,
        type: 'postgresql',
        account_id: String(environmentId),
        database_image_id: String(postgres17),
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().id as string;
  }
  const provision = (owner: TestUser, id: string, diskSize: number) =>
    t.call('POST', `/api/databases/${id}/operations`, {
      token: owner.token,
      body: { type: 'provision', disk_size: diskSize, container_size: 512 },
    });

  it('provisions up to the disk limit, and not past it', async () => {
    const { owner, environmentId } = await organizationOn();
    const first = await database(owner, environmentId, 'orders');
    expect((await provision(owner, first, 20)).statusCode).toBe(201);
    const second = await database(owner, environmentId, 'events');
    expectRefusal(
      await provision(owner, second, 10),
      'disk',
      'The starter plan allows 20 GB of database disk. The growth plan allows 60 GB of database disk. Change your plan on the Plans page to lift the limit.',
      'growth',
    );
  });

  it('two provisions at once at the last slot: one is refused', async () => {
    const { owner, environmentId } = await organizationOn();
    const left = await database(owner, environmentId, 'left');
    const right = await database(owner, environmentId, 'right');
    const raced = await Promise.all([provision(owner, left, 15), provision(owner, right, 15)]);
    expect(statuses(raced)).toEqual([201, 422]);
  });
});

describe('backups per database', () => {
  async function databaseWithBackups(
    environmentId: number,
    kind: 'manual' | 'auto',
    made: number,
    takenAt = new Date(),
  ) {
    const db = await seedDatabase(t.db, {
      environmentId,
      handle: `db-${kind}-${made}`,
      type: 'postgresql',
      status: 'provisioned',
      provisioned: true,
    });
    for (let n = 0; n < made; n += 1) {
      await t.db.insert(backups).values({
        environmentId,
        databaseId: db.id,
        databaseHandle: db.handle,
        databaseType: 'postgresql',
        kind,
        // One a day back from `takenAt`, as the scheduler makes them (retention keeps one a day).
        createdAt: new Date(takenAt.getTime() - n * 24 * 3_600_000),
      });
    }
    return db;
  }
  const backup = (owner: TestUser, databaseId: number) =>
    t.call('POST', `/api/databases/${databaseId}/operations`, {
      token: owner.token,
      body: { type: 'backup' },
    });

  it('manual backups: up to the limit (queued ones count), and not past it', async () => {
    const { owner, environmentId } = await organizationOn();
    const db = await databaseWithBackups(environmentId, 'manual', 4);
    expect((await backup(owner, db.id)).statusCode).toBe(201);
    expectRefusal(
      await backup(owner, db.id),
      'manualBackups',
      'The starter plan allows 5 manual backups per database. The growth plan allows 10 manual backups per database. Change your plan on the Plans page to lift the limit.',
      'growth',
    );
  });

  it('two manual backups at once at the last slot: one is refused', async () => {
    const { owner, environmentId } = await organizationOn();
    const db = await databaseWithBackups(environmentId, 'manual', 4);
    expect(statuses(await Promise.all([backup(owner, db.id), backup(owner, db.id)]))).toEqual([201, 422]);
  });

  it('automated backups count apart, against their own limit', async () => {
    const { organization, environmentId } = await organizationOn();
    const operations = createOperationsService({ db: t.db, logsKey: new Uint8Array(32) });
    const automated = (databaseId: number, handle: string) =>
      operations.enqueue({
        organizationId: organization.id,
        environmentId,
        resourceType: 'database',
        resourceId: databaseId,
        resourceHandle: handle,
        type: 'backup',
        user: null,
      });
    const room = await databaseWithBackups(environmentId, 'auto', 6);
    await expect(automated(room.id, room.handle)).resolves.toMatchObject({
      status: 'queued',
      automated: true,
    });
    const full = await databaseWithBackups(environmentId, 'auto', 7);
    await expect(automated(full.id, full.handle)).rejects.toMatchObject({
      status: 422,
      message:
        'The starter plan allows 7 automated backups per database. The growth plan allows 30 automated backups per database. Change your plan on the Plans page to lift the limit.',
    });
    // Manual backups of that database are still allowed: the kinds are counted apart.
    const [manual] = await t.db
      .select({ value: count() })
      .from(backups)
      .where(and(eq(backups.databaseId, full.id), eq(backups.kind, 'manual')));
    expect(manual?.value).toBe(0);
  });

  it('the backup scheduler rolls a database at its limit: the oldest automated backup goes, a new one comes', async () => {
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3_600_000);
    const limited = await organizationOn();
    const full = await databaseWithBackups(limited.environmentId, 'auto', 7, twoDaysAgo);
    const other = await organizationOn('growth');
    const due = await databaseWithBackups(other.environmentId, 'auto', 7, twoDaysAgo);
    await t.db
      .update(databases)
      .set({ enableBackups: true })
      .where(inArray(databases.id, [full.id, due.id]));
    const scheduler = createBackupScheduler({
      db: t.db,
      operations: createOperationsService({ db: t.db, logsKey: new Uint8Array(32) }),
    });
    await scheduler.runOnce();
    const queued = await t.db
      .select({ resourceId: operations.resourceId })
      .from(operations)
      .where(and(eq(operations.type, 'backup'), inArray(operations.resourceId, [full.id, due.id])))
      .orderBy(operations.resourceId);
    expect(queued).toEqual([{ resourceId: full.id }, { resourceId: due.id }]);
    // Only the database at its limit loses one, its oldest: the count stays at the plan's 7.
    const fullBackups = await t.db
      .select({ id: backups.id })
      .from(backups)
      .where(eq(backups.databaseId, full.id))
      .orderBy(backups.createdAt);
    const purges = await t.db
      .select({ resourceId: operations.resourceId, automated: operations.automated })
      .from(operations)
      .where(and(eq(operations.type, 'purge'), eq(operations.organizationId, limited.organization.id)));
    expect(purges).toEqual([{ resourceId: fullBackups[0]?.id, automated: true }]);
    const otherPurges = await t.db
      .select({ id: operations.id })
      .from(operations)
      .where(and(eq(operations.type, 'purge'), eq(operations.organizationId, other.organization.id)));
    expect(otherPurges).toEqual([]);
  });

  it('over a lowered limit, an automated backup replaces one and the count stays; it never grows', async () => {
    const { organization, environmentId } = await organizationOn();
    const over = await databaseWithBackups(environmentId, 'auto', 9);
    const service = createOperationsService({ db: t.db, logsKey: new Uint8Array(32) });
    const automated = (type: 'backup' | 'purge', resourceType: string, resourceId: number) =>
      service.enqueue({
        organizationId: organization.id,
        environmentId,
        resourceType,
        resourceId,
        resourceHandle: over.handle,
        type,
        user: null,
      });
    // Nine kept where the starter plan allows seven: a tenth is refused.
    await expect(automated('backup', 'database', over.id)).rejects.toMatchObject({ error: 'plan_limit' });
    const [oldest] = await t.db
      .select({ id: backups.id })
      .from(backups)
      .where(eq(backups.databaseId, over.id));
    await automated('purge', 'backup', oldest?.id ?? -1);
    await expect(automated('backup', 'database', over.id)).resolves.toMatchObject({ status: 'queued' });
  });
});

describe('autoscaling', () => {
  const policy = (owner: TestUser, serviceId: number, autoscaling: 'vertical' | 'horizontal') =>
    t.call('POST', `/api/services/${serviceId}/service_sizing_policies`, {
      token: owner.token,
      body:
        autoscaling === 'vertical'
          ? { scaling_enabled: true, autoscaling }
          : {
              scaling_enabled: true,
              autoscaling,
              min_containers: 2,
              max_containers: 4,
              min_cpu_threshold: 0.2,
              max_cpu_threshold: 0.8,
            },
    });

  it('is refused on a plan without it, naming the plan that has it, and allowed once on that plan', async () => {
    const { owner, organization, environmentId } = await organizationOn();
    const web = await appService(environmentId);
    expectRefusal(
      await policy(owner, web.id, 'vertical'),
      'verticalAutoscaling',
      'The starter plan does not include vertical autoscaling. The scale plan does. Change your plan on the Plans page to lift the limit.',
      'scale',
    );
    expectRefusal(
      await policy(owner, web.id, 'horizontal'),
      'horizontalAutoscaling',
      'The starter plan does not include horizontal autoscaling. The scale plan does. Change your plan on the Plans page to lift the limit.',
      'scale',
    );
    await runAdminCommand(t.db, ['plans', 'assign', organization.id, 'scale']);
    const allowed = await policy(owner, web.id, 'horizontal');
    expect(allowed.statusCode, allowed.body).toBe(201);
  });
});

describe('the autoscaler', () => {
  /** An organization on `plan` whose app's web service has a horizontal policy, and an autoscaler that finds it busy. */
  async function autoscaledService(plan: PlanName) {
    const { owner, organization, environmentId } = await organizationOn(plan);
    const [app] = await t.db.insert(apps).values({ environmentId, handle: 'shop' }).returning();
    const deployed = await t.operate(owner, `/api/apps/${app?.id}/operations`, {
      type: 'deploy',
      git_ref: 'main',
    });
    expect(deployed.status).toBe('succeeded');
    const [web] = await t.db
      .select()
      .from(services)
      .where(eq(services.appId, app?.id ?? -1));
    const policy = await t.call('POST', `/api/services/${web?.id}/service_sizing_policies`, {
      token: owner.token,
      body: {
        scaling_enabled: true,
        autoscaling: 'horizontal',
        min_containers: 1,
        max_containers: 3,
        min_cpu_threshold: 0.2,
        max_cpu_threshold: 0.8,
        post_release_cooldown_seconds: 60,
      },
    });
    expect(policy.statusCode, policy.body).toBe(201);
    const errors: unknown[] = [];
    const autoscaler = createAutoscaler({
      onError: (error) => errors.push(error),
      db: t.db,
      operations: createOperationsService({ db: t.db, logsKey: new Uint8Array(32) }),
      load: async () => ({
        cpu: Array.from({ length: 30 }, () => 0.95),
        memory: Array.from({ length: 30 }, () => 0.5),
      }),
      now: () => new Date(Date.now() + 90_000),
    });
    const scales = () =>
      t.db
        .select()
        .from(operations)
        .where(and(eq(operations.organizationId, organization.id), eq(operations.type, 'scale')));
    return { organization, environmentId, web, autoscaler, errors, scales };
  }

  it('leaves a service as it is when the plan refuses its scale, without reporting an error each pass', async () => {
    const { environmentId, web, autoscaler, errors, scales } = await autoscaledService('scale');
    // The rest of the scale plan's 40 GB is taken, so one more container is past it.
    const used = (web?.containerCount ?? 1) * (web?.containerMemoryLimitMb ?? 512);
    const filler = await appService(environmentId, 'filler');
    await t.db
      .update(services)
      .set({ containerMemoryLimitMb: 40 * 1024 - used })
      .where(eq(services.id, filler.id));
    expect(await autoscaler.run()).toBe(0);
    expect(errors).toEqual([]);
    expect(await scales()).toEqual([]);
  });

  it('scales by no policy whose mode the plan lost when it was lowered, and keeps the policy', async () => {
    const { organization, web, autoscaler, errors, scales } = await autoscaledService('scale');
    await runAdminCommand(t.db, ['plans', 'assign', organization.id, 'starter']);
    expect(await autoscaler.run()).toBe(0);
    expect(errors).toEqual([]);
    expect(await scales()).toEqual([]);
    const [kept] = await t.db
      .select()
      .from(sizingPolicies)
      .where(eq(sizingPolicies.serviceId, web?.id ?? -1));
    expect(kept?.scalingEnabled).toBe(true);
    // Back on a plan with it, the same load scales the service.
    await runAdminCommand(t.db, ['plans', 'assign', organization.id, 'scale']);
    expect(await autoscaler.run()).toBe(1);
    expect(await scales()).toHaveLength(1);
  });
});
