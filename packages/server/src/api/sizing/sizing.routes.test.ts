import { SIZING_POLICY_DEFAULTS, sizingPolicyMessages } from '@berth/core';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { services, sizingRecommendations, stacks } from '../../db/schema.ts';
import { cannotSee, cannotWrite, environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { seedApp, seedDatabase, seedService } from '../../testing/factories.ts';
import { ensureDefaultStack } from '../stacks/stacks.service.ts';

// Service sizing policies and recommendations through the API (contract §5.7); the autoscaler that
// follows the policies is tested in operations/autoscaler.test.ts.

const { t, f } = await environmentSuite();
let web: { id: number };
let worker: { id: number };
let databaseService: { id: number };
let foreign: { id: number };
const policyUrl = (serviceId: number) => `/api/services/${serviceId}/service_sizing_policies`;
const horizontal = {
  scaling_enabled: true,
  autoscaling: 'horizontal',
  min_containers: 2,
  max_containers: 6,
  min_cpu_threshold: 0.2,
  max_cpu_threshold: 0.8,
};

beforeAll(async () => {
  const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop' });
  web = await seedService(t.db, { environmentId: f.environment.id, appId: app.id, handle: 'web' });
  worker = await seedService(t.db, { environmentId: f.environment.id, appId: app.id, handle: 'worker' });
  const database = await seedDatabase(t.db, {
    environmentId: f.environment.id,
    handle: 'db',
    type: 'postgresql',
  });
  databaseService = await seedService(t.db, {
    environmentId: f.environment.id,
    databaseId: database.id,
    handle: 'postgresql',
  });
  const strangerApp = await seedApp(t.db, { environmentId: f.strangerEnvironment.id, handle: 'theirs' });
  foreign = await seedService(t.db, {
    environmentId: f.strangerEnvironment.id,
    appId: strangerApp.id,
    handle: 'web',
  });
});

describe('service sizing policies', () => {
  it('creates a policy with the defaults filled in, links it from its service, and changes it with PUT', async () => {
    const none = await t.call('GET', policyUrl(web.id), { token: f.owner.token });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe(sizingPolicyMessages.noPolicy);

    const created = await t.call('POST', policyUrl(web.id), { token: f.deployer.token, body: horizontal });
    expect(created.statusCode, created.body).toBe(201);
    const { created_at, updated_at, _links, id, _type, ...fields } = created.json();
    expect(_type).toBe('service_sizing_policy');
    expect(fields).toEqual({ ...SIZING_POLICY_DEFAULTS, ...horizontal });
    expect(_links.service.href).toBe(`http://berth.test/api/services/${web.id}`);
    const service = (await t.call('GET', `/api/services/${web.id}`, { token: f.reader.token })).json();
    expect(service._links.service_sizing_policy.href).toBe(`http://berth.test${policyUrl(web.id)}`);

    const again = await t.call('POST', policyUrl(web.id), { token: f.deployer.token, body: horizontal });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(sizingPolicyMessages.exists);

    const changed = await t.call('PUT', policyUrl(web.id), {
      token: f.deployer.token,
      body: { max_containers: 8, percentile: 95 },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ ...horizontal, max_containers: 8, percentile: 95, id });
    const shown = await t.call('GET', policyUrl(web.id), { token: f.reader.token });
    expect(shown.json()).toMatchObject({ id, max_containers: 8 });
  });

  it("refuses a policy the spec's rules refuse, naming the field, and keeps the one in force", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...horizontal, min_containers: 0 }, sizingPolicyMessages.minContainersPositive],
      [{ ...horizontal, max_containers: null }, sizingPolicyMessages.maxContainersRequired],
      [{ ...horizontal, max_containers: 2 }, sizingPolicyMessages.minContainersBelowMax],
      [{ ...horizontal, min_cpu_threshold: 0.9 }, sizingPolicyMessages.minCpuBelowMax],
      [{ ...horizontal, max_cpu_threshold: 0 }, sizingPolicyMessages.maxCpuRange],
      [{ ...horizontal, metric_lookback_seconds: 60 }, sizingPolicyMessages.lookback],
      [{ ...horizontal, percentile: 40 }, sizingPolicyMessages.percentile],
      [{ autoscaling: 'vertical', mem_cpu_ratio_r_threshold: 1 }, sizingPolicyMessages.ratio],
      [{ percentile: 'most' }, 'Percentile must be a number'],
    ];
    for (const [body, message] of cases) {
      const refused = await t.call('PUT', policyUrl(web.id), { token: f.deployer.token, body });
      expect(refused.statusCode, JSON.stringify(body)).toBe(422);
      expect(refused.json().message).toBe(message);
    }
    // Every problem is in the details, by field.
    const both = await t.call('PUT', policyUrl(web.id), {
      token: f.deployer.token,
      body: { ...horizontal, max_containers: 2 },
    });
    expect(both.json().details).toEqual({
      min_containers: [sizingPolicyMessages.minContainersBelowMax],
      max_containers: [sizingPolicyMessages.maxContainersAboveMin],
    });
    const kept = await t.call('GET', policyUrl(web.id), { token: f.reader.token });
    expect(kept.json()).toMatchObject({ min_containers: 2, max_containers: 8 });
  });

  // Memory bounds hold whatever the mode: a horizontal policy keeps its memory fields too, and the
  // autoscaler reads them as soon as the policy turns vertical.
  it('bounds minimum and maximum memory to the container sizes in every mode', async () => {
    const before = (await t.call('GET', policyUrl(web.id), { token: f.reader.token })).json();
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [{ ...horizontal, minimum_memory: 1 }, { minimum_memory: [sizingPolicyMessages.minimumMemory] }],
      [{ ...horizontal, minimum_memory: -2048 }, { minimum_memory: [sizingPolicyMessages.minimumMemory] }],
      [{ ...horizontal, minimum_memory: 10 ** 12 }, { minimum_memory: [sizingPolicyMessages.minimumMemory] }],
      [{ ...horizontal, minimum_memory: 2048.5 }, { minimum_memory: [sizingPolicyMessages.minimumMemory] }],
      [{ ...horizontal, maximum_memory: 10 ** 9 }, { maximum_memory: [sizingPolicyMessages.maximumMemory] }],
      [
        { ...horizontal, minimum_memory: 4096, maximum_memory: 1024 },
        { maximum_memory: [sizingPolicyMessages.maximumBelowMinimum] },
      ],
      [
        { autoscaling: 'vertical', scaling_enabled: false, maximum_memory: 256 },
        { maximum_memory: [sizingPolicyMessages.maximumMemory] },
      ],
    ];
    for (const [body, details] of cases) {
      for (const method of ['PUT', 'POST'] as const) {
        const service = method === 'PUT' ? web : worker;
        const refused = await t.call(method, policyUrl(service.id), { token: f.deployer.token, body });
        expect(refused.statusCode, `${method} ${JSON.stringify(body)}`).toBe(422);
        expect(refused.json().details).toEqual(details);
      }
    }
    const kept = (await t.call('GET', policyUrl(web.id), { token: f.reader.token })).json();
    expect(kept).toEqual(before);
    expect((await t.call('GET', policyUrl(worker.id), { token: f.reader.token })).statusCode).toBe(404);

    // The bounds themselves are sizes a policy may name: the smallest container and the form's largest.
    const widest = await t.call('PUT', policyUrl(web.id), {
      token: f.deployer.token,
      body: { ...horizontal, minimum_memory: 512, maximum_memory: 784384 },
    });
    expect(widest.statusCode, widest.body).toBe(200);
    expect(widest.json()).toMatchObject({ minimum_memory: 512, maximum_memory: 784384 });
    await t.call('PUT', policyUrl(web.id), {
      token: f.deployer.token,
      body: { minimum_memory: before.minimum_memory, maximum_memory: before.maximum_memory },
    });
  });

  it('offers a mode only where the stack allows it, and policies to app services only', async () => {
    const [stack] = await t.db.select().from(stacks);
    await t.db.update(stacks).set({ horizontalAutoscaling: false });
    try {
      const refused = await t.call('POST', policyUrl(worker.id), {
        token: f.deployer.token,
        body: horizontal,
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe('Horizontal autoscaling is not enabled for this stack');
      // A policy that is off names no mode in force.
      const off = await t.call('POST', policyUrl(worker.id), {
        token: f.deployer.token,
        body: { ...horizontal, scaling_enabled: false },
      });
      expect(off.statusCode).toBe(201);
    } finally {
      await t.db.update(stacks).set({ horizontalAutoscaling: stack?.horizontalAutoscaling ?? true });
    }
    const database = await t.call('POST', policyUrl(databaseService.id), {
      token: f.deployer.token,
      body: horizontal,
    });
    expect(database.statusCode).toBe(422);
    expect(database.json().message).toBe(sizingPolicyMessages.appServicesOnly);
  });

  it('needs the Ops scope to set or remove a policy, and shows policies to those who see the environment', async () => {
    for (const method of ['POST', 'PUT'] as const) {
      await expectAccess(
        t,
        {
          method,
          url: policyUrl(web.id),
          body: horizontal,
          scope: 'observability',
          environmentId: f.environment.id,
        },
        cannotWrite(f),
      );
    }
    await expectAccess(
      t,
      {
        method: 'DELETE',
        url: `/api/services/${web.id}/service_sizing_policy`,
        scope: 'observability',
        environmentId: f.environment.id,
      },
      cannotWrite(f),
    );
    await expectAccess(t, { method: 'GET', url: policyUrl(web.id) }, [[f.reader, 200], ...cannotSee(f)]);
    const [listed] = await expectAccess(
      t,
      { method: 'GET', url: `/api/accounts/${f.environment.id}/service_sizing_policies` },
      [[f.reader, 200], ...cannotSee(f)],
    );
    expect(listed?.json()._embedded.service_sizing_policies).toHaveLength(2);
    const mine = await t.call('GET', '/api/service_sizing_policies?per_page=5000', { token: f.reader.token });
    expect(mine.json().total_count).toBe(2);
    const theirs = await t.call('GET', '/api/service_sizing_policies', { token: f.stranger.token });
    expect(theirs.json()._embedded.service_sizing_policies).toEqual([]);
    // Another organization's service is out of reach.
    const foreignPolicy = await t.call('POST', policyUrl(foreign.id), {
      token: f.owner.token,
      body: horizontal,
    });
    expect(foreignPolicy.statusCode).toBe(404);
  });

  it('deletes a policy at the singular path and unlinks it from its service', async () => {
    const deleted = await t.call('DELETE', `/api/services/${worker.id}/service_sizing_policy`, {
      token: f.deployer.token,
    });
    expect(deleted.statusCode).toBe(204);
    const [row] = await t.db.select().from(services).where(eq(services.id, worker.id));
    expect(row?.sizingPolicyId).toBeNull();
    const service = (await t.call('GET', `/api/services/${worker.id}`, { token: f.reader.token })).json();
    expect(service._links.service_sizing_policy).toBeUndefined();
    const twice = await t.call('DELETE', `/api/services/${worker.id}/service_sizing_policy`, {
      token: f.deployer.token,
    });
    expect(twice.statusCode).toBe(404);
  });
});

describe('manual sizing recommendations', () => {
  it('lists the recommendations of the services the caller sees, and shows one', async () => {
    const [row] = await t.db
      .insert(sizingRecommendations)
      .values({
        serviceId: web.id,
        environmentId: f.environment.id,
        cpuUsage: 0.12,
        ramUsage: 1500,
        ramTarget: 1875,
        recommendedInstanceClass: 'm5',
        recommendedContainerMemoryLimitMb: 2048,
        instanceClassAtTime: 'm5',
        containerMemoryLimitMbAtTime: 4096,
        costSavings: 233.6,
        metricPercentile: 95,
      })
      .returning();
    const [listed] = await expectAccess(
      t,
      { method: 'GET', url: '/api/manual_service_sizing_recommendations?per_page=5000' },
      [[f.reader, 200]],
    );
    expect(listed?.json()._embedded.manual_service_sizing_recommendations).toEqual([
      expect.objectContaining({
        _type: 'manual_service_sizing_recommendation',
        service_id: String(web.id),
        cost_savings: 233.6,
        recommended_container_memory_limit_mb: 2048,
        metric_percentile: 95,
      }),
    ]);
    const theirs = await t.call('GET', '/api/manual_service_sizing_recommendations', {
      token: f.stranger.token,
    });
    expect(theirs.json()._embedded.manual_service_sizing_recommendations).toEqual([]);
    await expectAccess(t, { method: 'GET', url: `/api/manual_service_sizing_recommendations/${row?.id}` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
  });
});

describe('BERTH_AUTOSCALING', () => {
  it('names the modes the default stack offers: both by default, a list, or off', async () => {
    expect(loadConfig({}).autoscaling).toEqual({ horizontal: true, vertical: true });
    expect(loadConfig({ BERTH_AUTOSCALING: 'vertical' }).autoscaling).toEqual({
      horizontal: false,
      vertical: true,
    });
    expect(loadConfig({ BERTH_AUTOSCALING: ' Horizontal, vertical ' }).autoscaling).toEqual({
      horizontal: true,
      vertical: true,
    });
    expect(loadConfig({ BERTH_AUTOSCALING: 'off' }).autoscaling).toEqual({
      horizontal: false,
      vertical: false,
    });
    expect(() => loadConfig({ BERTH_AUTOSCALING: 'diagonal' })).toThrow(
      'BERTH_AUTOSCALING must be horizontal, vertical, both separated by a comma, or off; got "diagonal"',
    );
  });

  it('is what the default stack says at every start', async () => {
    const stack = await ensureDefaultStack(t.db, 'sim', undefined, { horizontal: false, vertical: true });
    expect(stack).toMatchObject({ horizontalAutoscaling: false, verticalAutoscaling: true });
    const again = await ensureDefaultStack(t.db, 'sim', undefined, { horizontal: true, vertical: true });
    expect(again).toMatchObject({ horizontalAutoscaling: true, verticalAutoscaling: true });
  });
});
