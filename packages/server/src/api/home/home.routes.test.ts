import { type HomeResource, permissionMessages } from '@berth/core';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apps,
  databases,
  deployments,
  operations,
  samlConfigurations,
  type services,
  sizingRecommendations,
  stacks,
  users,
  vhosts,
} from '../../db/schema.ts';
import { environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { seedService, seedSource } from '../../testing/factories.ts';
import type { TestUser } from '../../testing/test-app.ts';

// spec 3 §2 Home through GET /organizations/:id/home: every figure counted over what the caller may
// read; the beta feedback banner dismissed for good through DELETE …/home/feedback_banner.

const { t, f } = await environmentSuite();
const HOUR = 3_600_000;
let production: number;
let staging: number;
let base: number;

/** Rows inserted in one statement, ids in the order given. */
async function insertApps(environmentId: number, handles: string[]) {
  const rows = await t.db
    .insert(apps)
    .values(handles.map((handle) => ({ environmentId, handle })))
    .returning({ id: apps.id });
  return rows.map((row) => row.id);
}

/** Each app runs a deployment of `sourceId` at the given commit, committed at the given time. */
async function runFrom(sourceId: number, running: { appId: number; sha: string; at: number }[]) {
  for (const { appId, sha, at } of running) {
    const [app] = await t.db
      .select({ environmentId: apps.environmentId })
      .from(apps)
      .where(eq(apps.id, appId));
    const [deployment] = await t.db
      .insert(deployments)
      .values({
        appId,
        environmentId: app?.environmentId as number,
        operationId: 1,
        sourceId,
        status: 'succeeded',
        gitRef: 'main',
        gitCommitSha: sha,
        gitCommitMessage: `commit ${sha}`,
        gitCommitUrl: `https://github.com/acme/shop/commit/${sha}`,
        gitCommitTimestamp: new Date(at),
      })
      .returning({ id: deployments.id });
    await t.db
      .update(apps)
      .set({ currentSourceId: sourceId, currentDeploymentId: deployment?.id })
      .where(eq(apps.id, appId));
  }
}

let productionApps: number[];
let stagingApps: number[];
let serviceIds: Record<string, number>;
let shopSource: number;
let stagingSource: number;

beforeAll(async () => {
  production = f.environment.id;
  staging = Number((await t.createEnvironment(f.owner, f.organization.id, 'staging')).id);
  base = Date.now() - 48 * HOUR;

  // Production: ten apps, nine from the shop repository (eight distinct commits: a7 and a8 run the same),
  // one without a source. Staging, which only the owner reads: ten apps from another repository.
  productionApps = await insertApps(production, [...Array.from({ length: 9 }, (_, i) => `a${i}`), 'loose']);
  stagingApps = await insertApps(
    staging,
    Array.from({ length: 10 }, (_, i) => `b${i}`),
  );
  shopSource = (
    await seedSource(t.db, {
      organizationId: f.organization.id,
      displayName: 'acme/shop',
      url: 'https://github.com/acme/shop',
    })
  ).id;
  stagingSource = (
    await seedSource(t.db, { organizationId: f.organization.id, url: 'https://github.com/acme/staging' })
  ).id;
  await runFrom(
    shopSource,
    productionApps.slice(0, 9).map((appId, i) => ({
      appId,
      sha: `sha${Math.min(i, 7)}`,
      // a8 runs sha7 too, from an older deployment.
      at: base + (i === 8 ? 0 : i) * HOUR,
    })),
  );
  await runFrom(
    stagingSource,
    stagingApps.map((appId) => ({ appId, sha: 'stagingsha', at: base })),
  );

  // Services: a0 autoscales horizontally, a1 vertically; a2's policy is off. b0 is in staging.
  const service = (environmentId: number, appId: number, sizing: Partial<typeof services.$inferInsert>) =>
    seedService(t.db, { environmentId, appId, handle: 'web', ...sizing });
  const a = productionApps;
  serviceIds = {
    a0: (await service(production, a[0] as number, { containerCount: 2, containerMemoryLimitMb: 1024 })).id,
    a1: (await service(production, a[1] as number, { containerMemoryLimitMb: 512, instanceClass: 'r5' })).id,
    a2: (await service(production, a[2] as number, { containerMemoryLimitMb: 4096 })).id,
    a3: (await service(production, a[3] as number, { containerMemoryLimitMb: 1024 })).id,
    a4: (await service(production, a[4] as number, { containerMemoryLimitMb: 1024 })).id,
    a5: (await service(production, a[5] as number, { containerMemoryLimitMb: 1024 })).id,
    a6: (await service(production, a[6] as number, { containerMemoryLimitMb: 1024 })).id,
    b0: (
      await service(staging, stagingApps[0] as number, { containerMemoryLimitMb: 2048, instanceClass: 'c5' })
    ).id,
  };
  const policy = async (serviceId: number | undefined, body: Record<string, unknown>) => {
    const created = await t.call('POST', `/api/services/${serviceId}/service_sizing_policies`, {
      token: f.owner.token,
      body,
    });
    expect(created.statusCode, created.body).toBe(201);
  };
  await policy(serviceIds.a0, {
    scaling_enabled: true,
    autoscaling: 'horizontal',
    min_containers: 2,
    max_containers: 6,
    min_cpu_threshold: 0.2,
    max_cpu_threshold: 0.8,
  });
  await policy(serviceIds.a1, { scaling_enabled: true, autoscaling: 'vertical' });
  await policy(serviceIds.a2, { scaling_enabled: false });
  // Recommendations (spec 2 §4): a2 saves 200 (Scale Down), a3 costs 300 more (Scale Up); a4's 100 is
  // under 150, a5's is 3 days old, a6 was made for another size, a0 autoscales: none of those count.
  const recommend = (
    serviceId: number | undefined,
    costSavings: number,
    extra: { atMb?: number; ageMs?: number },
  ) => ({
    serviceId: serviceId as number,
    environmentId: production,
    cpuUsage: 0.1,
    ramUsage: 500,
    ramTarget: 625,
    recommendedInstanceClass: 'm5',
    recommendedContainerMemoryLimitMb: 1024,
    instanceClassAtTime: 'm5',
    containerMemoryLimitMbAtTime: extra.atMb ?? 1024,
    costSavings,
    metricPercentile: 95,
    createdAt: new Date(Date.now() - (extra.ageMs ?? HOUR)),
  });
  await t.db
    .insert(sizingRecommendations)
    .values([
      recommend(serviceIds.a2, 200, { atMb: 4096 }),
      recommend(serviceIds.a3, -300, {}),
      recommend(serviceIds.a4, 100, {}),
      recommend(serviceIds.a5, 500, { ageMs: 72 * HOUR }),
      recommend(serviceIds.a6, 400, { atMb: 2048 }),
      recommend(serviceIds.a0, 999, {}),
    ]);

  // Databases: production has one with backups and one without; staging one with.
  await t.db.insert(databases).values([
    { environmentId: production, handle: 'orders', type: 'postgresql' },
    { environmentId: production, handle: 'cache', type: 'redis', enableBackups: false },
    { environmentId: staging, handle: 'orders', type: 'postgresql' },
  ]);
  // Endpoints: production has one behind an IP allowlist and one open; staging one behind an allowlist.
  await t.db.insert(vhosts).values([
    { environmentId: production, serviceId: serviceIds.a0 as number, ipWhitelist: ['10.0.0.0/8'] },
    { environmentId: production, serviceId: serviceIds.a1 as number },
    { environmentId: staging, serviceId: serviceIds.b0 as number, ipWhitelist: ['192.168.0.0/16'] },
  ]);
  // A dedicated stack of the organization's (counted) and a self-hosted one (not).
  await t.db.insert(stacks).values([
    {
      name: `dedicated-${f.organization.id.slice(0, 8)}`,
      region: 'us-east-1',
      organizationId: f.organization.id,
    },
    {
      name: `self-hosted-${f.organization.id.slice(0, 8)}`,
      region: 'us-east-1',
      organizationId: f.organization.id,
      selfHosted: true,
    },
  ]);
  // Two of the five members use two-factor authentication; the organization has SAML, not enforced.
  await t.db
    .update(users)
    .set({ otpEnabled: true })
    .where(inArray(users.id, [f.owner.id, f.viewer.id]));
  await t.db.insert(samlConfigurations).values({
    organizationId: f.organization.id,
    entityId: 'https://idp.example.com',
    signInUrl: 'https://idp.example.com/sso',
    certificate: 'certificate',
    spCertificate: 'sp certificate',
    spPrivateKeySealed: 'sealed',
  });

  // Activity: six operations in production an hour apart, the newest of them a poll, then one in staging.
  const operation = (environmentId: number, resourceId: number, type: string, at: number) => ({
    organizationId: f.organization.id,
    environmentId,
    resourceType: 'app',
    resourceId,
    resourceHandle: `app-${resourceId}`,
    type,
    status: 'succeeded',
    createdAt: new Date(at),
    updatedAt: new Date(at),
  });
  const now = Date.now();
  await t.db
    .insert(operations)
    .values([
      ...Array.from({ length: 5 }, (_, i) =>
        operation(production, productionApps[i] as number, 'deploy', now - (10 - i) * HOUR),
      ),
      operation(production, productionApps[5] as number, 'poll', now - 4 * HOUR),
      operation(staging, stagingApps[0] as number, 'restart', now - 3 * HOUR),
    ]);
});

async function homeOf(user: TestUser): Promise<HomeResource> {
  const response = await t.call('GET', `/api/organizations/${f.organization.id}/home`, { token: user.token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** What the cost lists say the caller's environments and the organization's stacks cost together. */
async function costListsTotal(user: TestUser): Promise<number> {
  let total = 0;
  for (const list of ['accounts', 'stacks']) {
    const response = await t.call('GET', `/api/costs/${f.organization.id}/${list}`, { token: user.token });
    for (const cost of response.json()._embedded.costs as { est_cost: number }[]) total += cost.est_cost;
  }
  return total;
}

const handlesOf = (home: HomeResource) =>
  home._embedded.activities.map((activity) => `${activity.type} ${activity.resource_handle}`);

describe('GET /organizations/:id/home', () => {
  it("answers the owner's whole organization: counts, cost, scaling, top source, activity and security", async () => {
    const home = await homeOf(f.owner);
    expect(home.id).toBe(f.organization.id);
    expect(home._type).toBe('home');
    expect(home.counts).toEqual({ dedicated_stacks: 1, environments: 2, apps: 20, databases: 3 });
    expect(home.estimated_monthly_cost).toBeCloseTo(await costListsTotal(f.owner), 6);
    // The dedicated stack alone costs $499 a month.
    expect(home.estimated_monthly_cost).toBeGreaterThan(499);
    expect(home.scaling).toEqual({
      services: 8,
      containers: 9,
      container_memory_mb: 12800,
      autoscaling_services: 2,
      horizontal_autoscaling_services: 1,
      vertical_autoscaling_services: 1,
      scale_down_services: 1,
      scale_up_services: 1,
      potential_savings: 200,
    });
    // Staging's ten apps run one source, production's nine another: the ten win.
    expect(home.top_source).toEqual({
      id: String(stagingSource),
      display_name: null,
      url: 'https://github.com/acme/staging',
      app_count: 10,
      live_commit_count: 1,
      live_commits: [
        {
          sha: 'stagingsha',
          ref: 'main',
          message: 'commit stagingsha',
          date: new Date(base).toISOString(),
          url: 'https://github.com/acme/shop/commit/stagingsha',
        },
      ],
    });
    expect(home._links.top_source?.href).toBe(`http://berth.test/api/sources/${stagingSource}`);
    // The latest five, newest first, the poll left out.
    expect(handlesOf(home)).toEqual([
      `restart app-${stagingApps[0]}`,
      `deploy app-${productionApps[4]}`,
      `deploy app-${productionApps[3]}`,
      `deploy app-${productionApps[2]}`,
      `deploy app-${productionApps[1]}`,
    ]);
    expect(home._embedded.activities[0]?._type).toBe('operation');
    expect(home.security).toEqual({
      members: 5,
      members_with_two_factor: 2,
      sso_configured: true,
      sso_enforced: false,
      databases: 3,
      databases_with_backups: 2,
      endpoints: 3,
      endpoints_with_ip_allowlist: 2,
    });
    expect(home.feedback_banner_dismissed).toBe(false);
    expect(home._links).toMatchObject({
      self: { href: `http://berth.test/api/organizations/${f.organization.id}/home` },
      organization: { href: `http://berth.test/auth/organizations/${f.organization.id}` },
      operations: { href: `http://berth.test/api/organizations/${f.organization.id}/operations` },
      feedback_banner: {
        href: `http://berth.test/api/organizations/${f.organization.id}/home/feedback_banner`,
      },
    });
  });

  it('counts only the environments a member may read, and shows security to Full Visibility only', async () => {
    const reader = await homeOf(f.reader);
    expect(reader.counts).toEqual({ dedicated_stacks: 1, environments: 1, apps: 10, databases: 2 });
    expect(reader.estimated_monthly_cost).toBeCloseTo(await costListsTotal(f.reader), 6);
    expect(reader.estimated_monthly_cost).toBeLessThan((await homeOf(f.owner)).estimated_monthly_cost);
    expect(reader.scaling).toMatchObject({ services: 7, containers: 8, container_memory_mb: 10752 });
    // Production's source is the top one here, with its newest seven of eight distinct commits.
    expect(reader.top_source).toMatchObject({
      id: String(shopSource),
      display_name: 'acme/shop',
      app_count: 9,
      live_commit_count: 8,
    });
    expect(reader.top_source?.live_commits.map((commit) => commit.sha)).toEqual([
      'sha7',
      'sha6',
      'sha5',
      'sha4',
      'sha3',
      'sha2',
      'sha1',
    ]);
    expect(handlesOf(reader)).toEqual([4, 3, 2, 1, 0].map((i) => `deploy app-${productionApps[i]}`));
    // basic_read is not Full Visibility: no security card (spec 3 §2's rule for Security & Compliance).
    expect(reader.security).toBeNull();
    expect((await homeOf(f.deployer)).security).toBeNull();

    // read on production: the organization's members and sign-on, production's databases and endpoints.
    expect((await homeOf(f.viewer)).security).toEqual({
      members: 5,
      members_with_two_factor: 2,
      sso_configured: true,
      sso_enforced: false,
      databases: 2,
      databases_with_backups: 1,
      endpoints: 2,
      endpoints_with_ip_allowlist: 1,
    });

    // A member without any permission sees the organization's dedicated stack and nothing else.
    const outsider = await homeOf(f.outsider);
    expect(outsider.counts).toEqual({ dedicated_stacks: 1, environments: 0, apps: 0, databases: 0 });
    expect(outsider.estimated_monthly_cost).toBe(499);
    expect(outsider.scaling.services).toBe(0);
    expect(outsider.top_source).toBeNull();
    expect(outsider._embedded.activities).toEqual([]);
    expect(outsider.security).toBeNull();
    expect(permissionMessages.fullVisibilityAnywhere).toBe('Requires Full Visibility on any Environment');
  });

  it('answers 401 without a token and 404 for an organization the caller is not in', async () => {
    await expectAccess(t, { method: 'GET', url: `/api/organizations/${f.organization.id}/home` }, [
      [null, 401],
      [f.stranger, 404],
    ]);
    const unknown = await t.call('GET', '/api/organizations/00000000-0000-4000-8000-000000000000/home', {
      token: f.owner.token,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Organization not found');
    const malformed = await t.call('GET', '/api/organizations/not-an-id/home', { token: f.owner.token });
    expect(malformed.statusCode).toBe(404);
  });
});

describe('DELETE /organizations/:id/home/feedback_banner', () => {
  it('dismisses the banner for the caller alone, for good, and refuses those outside', async () => {
    const url = `/api/organizations/${f.organization.id}/home/feedback_banner`;
    await expectAccess(t, { method: 'DELETE', url }, [
      [null, 401],
      [f.stranger, 404],
    ]);
    expect((await homeOf(f.deployer)).feedback_banner_dismissed).toBe(false);
    const dismissed = await t.call('DELETE', url, { token: f.deployer.token });
    expect(dismissed.statusCode).toBe(204);
    expect(dismissed.body).toBe('');
    expect((await homeOf(f.deployer)).feedback_banner_dismissed).toBe(true);
    // Again changes nothing; nobody else's banner went.
    expect((await t.call('DELETE', url, { token: f.deployer.token })).statusCode).toBe(204);
    expect((await homeOf(f.deployer)).feedback_banner_dismissed).toBe(true);
    expect((await homeOf(f.viewer)).feedback_banner_dismissed).toBe(false);
  });
});
