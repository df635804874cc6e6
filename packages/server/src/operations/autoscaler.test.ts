import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, operations, services, stacks } from '../db/schema.ts';
import { createSimRuntime } from '../runtimes/sim/sim-runtime.ts';
import { type TestApp, type TestUser, testApp } from '../testing/test-app.ts';
import type { ServiceLoad } from './autoscale-decision.ts';
import { createAutoscaler, type LoadSource, runtimeLoadSource } from './autoscaler.ts';
import { createOperationsService } from './operations.service.ts';

// The autoscaler against the real queue, worker and sim runtime, with its clock and its metric source
// in the test's hands (issue 13: no sleeps).

describe('the autoscaler', () => {
  let t: TestApp;
  let owner: TestUser;
  let serviceId: number;
  let clock = new Date();
  let load: ServiceLoad = { cpu: [], memory: [] };
  const windows: number[] = [];
  const source: LoadSource = async ({ containers, from, to }) => {
    windows.push((to.getTime() - from.getTime()) / 1000);
    expect(containers.length).toBeGreaterThan(0);
    return load;
  };
  let autoscaler: ReturnType<typeof createAutoscaler>;

  const steady = (cpu: number, memory = 0.5): ServiceLoad => ({
    cpu: Array.from({ length: 30 }, () => cpu),
    memory: Array.from({ length: 30 }, () => memory),
  });
  const service = async () => (await t.db.select().from(services).where(eq(services.id, serviceId)))[0];
  const lastScale = async () =>
    (
      await t.db
        .select()
        .from(operations)
        .where(and(eq(operations.resourceType, 'service'), eq(operations.resourceId, serviceId)))
        .orderBy(desc(operations.id))
        .limit(1)
    )[0];
  /** The clock `seconds` after the last scale finished. */
  const afterLastScale = async (seconds: number) => {
    const finished = (await lastScale())?.finishedAt ?? new Date();
    return new Date(finished.getTime() + seconds * 1000);
  };

  beforeAll(async () => {
    t = await testApp();
    owner = await t.signUp();
    const organization = await t.createOrganization(owner);
    const environment = await t.createEnvironment(owner, organization.id, 'scaled');
    const [app] = await t.db
      .insert(apps)
      .values({ environmentId: Number(environment.id), handle: 'shop' })
      .returning();
    const deployed = await t.operate(owner, `/api/apps/${app?.id}/operations`, {
      type: 'deploy',
      git_ref: 'main',
    });
    expect(deployed.status).toBe('succeeded');
    const [web] = await t.db
      .select()
      .from(services)
      .where(eq(services.appId, app?.id ?? -1));
    serviceId = web?.id ?? -1;
    const policy = await t.call('POST', `/api/services/${serviceId}/service_sizing_policies`, {
      token: owner.token,
      body: {
        scaling_enabled: true,
        autoscaling: 'horizontal',
        min_containers: 1,
        max_containers: 3,
        min_cpu_threshold: 0.2,
        max_cpu_threshold: 0.8,
        post_scale_up_cooldown_seconds: 60,
        post_scale_down_cooldown_seconds: 300,
        post_release_cooldown_seconds: 60,
        metric_lookback_seconds: 300,
      },
    });
    expect(policy.statusCode, policy.body).toBe(201);
    autoscaler = createAutoscaler({
      db: t.db,
      operations: createOperationsService({ db: t.db, logsKey: randomBytes(32) }),
      load: source,
      now: () => clock,
    });
  });

  afterAll(() => t.close());

  it('waits out the cooldown after a release, then scales up under load with its reason', async () => {
    expect((await service())?.containerCount).toBe(1);
    load = steady(0.95);
    clock = new Date(Date.now() + 10_000);
    expect(await autoscaler.run()).toBe(0);

    clock = new Date(Date.now() + 90_000);
    expect(await autoscaler.run()).toBe(1);
    // The policy's lookback is the window measured.
    expect(windows.at(-1)).toBe(300);
    // One automated scale at a time: the queued one holds the service.
    expect(await autoscaler.run()).toBe(0);
    const queued = await lastScale();
    expect(queued).toMatchObject({ type: 'scale', automated: true, containerCount: 2, status: 'queued' });
    expect(queued?.note).toBe(
      'Autoscaling: CPU use at the 99th percentile over 300 s was 0.95, above the scale-up threshold 0.8: 1 → 2 containers',
    );
    await t.worker.drain();
    expect((await lastScale())?.status).toBe('succeeded');
    expect((await service())?.containerCount).toBe(2);
    expect(await t.operationLog(owner, queued?.id ?? -1)).toContain(queued?.note ?? '?');
  });

  it('respects the scale-up cooldown, then steps up to the maximum and no further', async () => {
    clock = await afterLastScale(30);
    expect(await autoscaler.run()).toBe(0);
    clock = await afterLastScale(61);
    expect(await autoscaler.run()).toBe(1);
    await t.worker.drain();
    expect((await service())?.containerCount).toBe(3);
    clock = await afterLastScale(120);
    expect(await autoscaler.run()).toBe(0);
  });

  it('scales back down when the load is gone, after each cooldown, to the minimum', async () => {
    load = steady(0.05);
    // The last scale went up: its cooldown (60 s) holds.
    clock = await afterLastScale(30);
    expect(await autoscaler.run()).toBe(0);
    clock = await afterLastScale(61);
    expect(await autoscaler.run()).toBe(1);
    expect((await lastScale())?.note).toContain('below the scale-down threshold 0.2: 3 → 2 containers');
    await t.worker.drain();
    expect((await service())?.containerCount).toBe(2);
    // After a scale down, the longer cooldown (300 s).
    clock = await afterLastScale(200);
    expect(await autoscaler.run()).toBe(0);
    clock = await afterLastScale(301);
    expect(await autoscaler.run()).toBe(1);
    await t.worker.drain();
    expect((await service())?.containerCount).toBe(1);
    clock = await afterLastScale(1000);
    expect(await autoscaler.run()).toBe(0);
  });

  it('does nothing for a policy that is off, or one its stack no longer offers', async () => {
    load = steady(0.95);
    clock = await afterLastScale(1000);
    const off = await t.call('PUT', `/api/services/${serviceId}/service_sizing_policies`, {
      token: owner.token,
      body: { scaling_enabled: false },
    });
    expect(off.statusCode).toBe(200);
    expect(await autoscaler.run()).toBe(0);
    const on = await t.call('PUT', `/api/services/${serviceId}/service_sizing_policies`, {
      token: owner.token,
      body: { scaling_enabled: true },
    });
    expect(on.statusCode).toBe(200);
    await t.db.update(stacks).set({ horizontalAutoscaling: false });
    expect(await autoscaler.run()).toBe(0);
    await t.db.update(stacks).set({ horizontalAutoscaling: true });
    expect(await autoscaler.run()).toBe(1);
  });

  it("measures the runtime's containers: CPU as a share of their allowance, memory of their limit", async () => {
    const measure = runtimeLoadSource({ sim: createSimRuntime({ stepMs: 1 }) });
    const to = new Date();
    const from = new Date(to.getTime() - 300_000);
    const container = (id: number) => ({
      id,
      dockerName: `web-${id}`,
      layer: 'app',
      instanceClass: 'm5',
      memoryLimitMb: 1024,
      startedAt: new Date(to.getTime() - 3_600_000),
      stoppedAt: null,
    });
    const measured = await measure({ runtime: 'sim', containers: [container(1), container(2)], from, to });
    // Every 10 s over 300 s: 30 moments, each the mean over both containers.
    expect(measured.cpu).toHaveLength(30);
    expect(measured.memory).toHaveLength(30);
    for (const value of [...measured.cpu, ...measured.memory]) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1.5);
    }
    // A runtime the server does not have, or no containers, measures nothing.
    expect(await measure({ runtime: 'docker', containers: [container(1)], from, to })).toEqual({
      cpu: [],
      memory: [],
    });
    expect(await measure({ runtime: 'sim', containers: [], from, to })).toEqual({ cpu: [], memory: [] });
  });
});
