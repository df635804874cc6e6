import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, services, sizingRecommendations } from '../db/schema.ts';
import { createSimRuntime } from '../runtimes/sim/sim-runtime.ts';
import { type TestApp, type TestUser, testApp } from '../testing/test-app.ts';
import type { ContainerSamples } from './container-load.ts';
import { createSizingRecommender, runtimeUsageSource, type UsageSource } from './sizing-recommender.ts';

// Daily manual sizing recommendations (spec 2 §9) from a service's 14 days of CPU and memory, with the
// clock and the measurements in the test's hands.

const DAY = 86_400_000;

describe('sizing recommendations', () => {
  let t: TestApp;
  let owner: TestUser;
  let serviceId: number;
  let clock = new Date();
  const asked: { from: Date; to: Date }[] = [];
  // Each container (4 GB of m5: 1 core) at most 0.4 of its CPU and 1500 MB of memory.
  const usage: UsageSource = async ({ containers, from, to }) => {
    asked.push({ from, to });
    return containers.map(
      (container): ContainerSamples => ({
        container,
        cpu: [0.1, 0.4, 0.4, null],
        memoryMb: [900, 1500, 1200, null],
      }),
    );
  };

  beforeAll(async () => {
    t = await testApp();
    owner = await t.signUp();
    const organization = await t.createOrganization(owner);
    const environment = await t.createEnvironment(owner, organization.id, 'advised');
    const [app] = await t.db
      .insert(apps)
      .values({ environmentId: Number(environment.id), handle: 'shop' })
      .returning();
    expect(
      (await t.operate(owner, `/api/apps/${app?.id}/operations`, { type: 'deploy', git_ref: 'main' })).status,
    ).toBe('succeeded');
    const [web] = await t.db
      .select()
      .from(services)
      .where(eq(services.appId, app?.id ?? -1));
    serviceId = web?.id ?? -1;
    const scaled = await t.operate(owner, `/api/services/${serviceId}/operations`, {
      type: 'scale',
      container_count: 2,
      container_size: 4096,
    });
    expect(scaled.status).toBe('succeeded');
  });

  afterAll(() => t.close());

  const recommender = (minimumObservedMs: number) =>
    createSizingRecommender({ db: t.db, usage, minimumObservedMs, now: () => clock });
  const stored = async () =>
    (
      await t.db.select().from(sizingRecommendations).where(eq(sizingRecommendations.serviceId, serviceId))
    )[0];

  it('waits until a service has run long enough to say something', async () => {
    clock = new Date(Date.now() + 60_000);
    expect(await recommender(DAY).run()).toBe(0);
    expect(await stored()).toBeUndefined();
  });

  it("advises the cheapest size that holds the 95th percentile CPU and the most memory, over all the service's containers", async () => {
    clock = new Date(Date.now() + DAY + 60_000);
    expect(await recommender(DAY).run()).toBe(1);
    // The window: 14 days back at most, from when the service's first container started.
    const window = asked.at(-1);
    expect((window?.to.getTime() ?? 0) - (window?.from.getTime() ?? 0)).toBeLessThan(14 * DAY);
    expect(await stored()).toMatchObject({
      cpuUsage: 0.4 * 1,
      ramUsage: 1500,
      ramTarget: 1875,
      recommendedInstanceClass: 'm5',
      recommendedContainerMemoryLimitMb: 2048,
      instanceClassAtTime: 'm5',
      containerMemoryLimitMbAtTime: 4096,
      // 2 containers × 2 GB saved × $0.08 × 730 h.
      costSavings: 233.6,
      metricPercentile: 95,
    });
    const listed = await t.call('GET', '/api/manual_service_sizing_recommendations?per_page=5000', {
      token: owner.token,
    });
    expect(listed.json()._embedded.manual_service_sizing_recommendations).toEqual([
      expect.objectContaining({ service_id: String(serviceId), cost_savings: 233.6 }),
    ]);
  });

  it('makes one a day per service, replacing the last', async () => {
    const first = await stored();
    clock = new Date(clock.getTime() + DAY / 2);
    expect(await recommender(DAY).run()).toBe(0);
    clock = new Date(clock.getTime() + DAY);
    expect(await recommender(DAY).run()).toBe(1);
    const second = await stored();
    expect(second?.id).toBe(first?.id);
    expect(second?.createdAt.getTime()).toBe(clock.getTime());
    expect(await t.db.select().from(sizingRecommendations)).toHaveLength(1);
  });

  it('makes a new one at once for a service resized since its last', async () => {
    clock = new Date(clock.getTime() + 60_000);
    expect(await recommender(DAY).run()).toBe(0);
    await t.db.update(services).set({ containerMemoryLimitMb: 2048 }).where(eq(services.id, serviceId));
    expect(await recommender(DAY).run()).toBe(1);
    expect(await stored()).toMatchObject({ containerMemoryLimitMbAtTime: 2048, costSavings: 0 });
  });

  it("measures from the runtime's own metrics", async () => {
    const measured = runtimeUsageSource({ sim: createSimRuntime({ stepMs: 1 }) });
    const to = new Date();
    const container = {
      id: 1,
      dockerName: 'web-1',
      layer: 'app',
      instanceClass: 'm5',
      memoryLimitMb: 1024,
      startedAt: new Date(to.getTime() - 3 * DAY),
      stoppedAt: null,
    };
    const [samples] = await measured({
      runtime: 'sim',
      containers: [container],
      from: new Date(to.getTime() - 14 * DAY),
      to,
    });
    // Hourly over 14 days; nothing before the container started.
    expect(samples?.cpu).toHaveLength(14 * 24);
    expect(samples?.memoryMb.filter((mb) => mb !== null).length).toBeGreaterThanOrEqual(3 * 24 - 1);
    expect(samples?.memoryMb[0]).toBeNull();
    for (const mb of samples?.memoryMb ?? []) if (mb !== null) expect(mb).toBeLessThanOrEqual(1024);
  });
});
