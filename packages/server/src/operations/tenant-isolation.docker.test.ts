import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSigningKey } from '../auth/tokens/token-keys.ts';
import { apps, containers, environments, releases, services, stacks } from '../db/schema.ts';
import { createEdgeClient, type Edge, serviceHash } from '../runtimes/docker/caddy-edge.ts';
import { containersLabelled, LABELS } from '../runtimes/docker/engine.ts';
import { installationId } from '../runtimes/runtimes.ts';
import {
  baseImage,
  dockerTestConfig,
  pageText,
  removeDockerTestResources,
  suiteEngine,
  webImage,
} from '../testing/docker-images.ts';
import { getThroughEdge, startRequestLoop } from '../testing/request-loop.ts';
import { type TestApp, type TestUser, testApp } from '../testing/test-app.ts';

// Two organizations on the shared docker stack, each with an environment `production` holding an app
// `web`: the same handles, and so, while the engine's and the edge's keys were made of handles, the same
// keys. One tenant's deploys, scales, restarts and deprovision leave the other's containers running and
// its endpoint answering with its own page; what an older Berth made under the handle keys (containers,
// endpoint routes) is taken over by its own app only. Skipped locally without an engine.

const docker = await suiteEngine();

const run = randomBytes(3).toString('hex');
const network = `berth-tenants-${run}`;
const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-tenants-'));

const ALPHA_ONE = 'berth-test/tenant-alpha:1';
const ALPHA_TWO = 'berth-test/tenant-alpha:2';
const BETA_ONE = 'berth-test/tenant-beta:1';

interface Tenant {
  user: TestUser;
  environmentId: number;
  appId: number;
  serviceId: number;
  vhostId: number;
  hostname: string;
}

describe.skipIf(!docker)('tenants with the same handles on the shared docker stack', () => {
  const engine = docker as Docker;
  let t: TestApp;
  let installation = '';
  let edge: Edge;
  const httpPort = () => t.config.edge.httpPort;

  beforeAll(async () => {
    await baseImage(engine);
    await webImage(engine, ALPHA_ONE, 'alpha-one');
    await webImage(engine, ALPHA_TWO, 'alpha-two');
    await webImage(engine, BETA_ONE, 'beta-one');
    t = await testApp(await dockerTestConfig(dataDir, network));
    installation = installationId(await loadSigningKey(t.db, t.config.jwtSecret));
    edge = createEdgeClient({
      adminSocket: path.join(t.config.edge.dir, 'admin.sock'),
      httpPort: t.config.edge.httpPort,
      httpsPort: t.config.edge.httpsPort,
      acmeEmail: null,
    });
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    // Its environments' handles are everyone's (`production`): only this server's containers go.
    if (installation) await removeDockerTestResources(engine, { installation, network, dataDir });
  });

  const operate = (tenant: Tenant, url: string, body: Record<string, unknown>) =>
    t.operate(tenant.user, url, body);

  async function tenant(name: string, appHandle = 'web'): Promise<Tenant> {
    const user = await t.signUp();
    const organization = await t.createOrganization(user, `Tenant ${name}`);
    const environment = await t.createEnvironment(user, organization.id, 'production');
    const environmentId = Number(environment.id);
    const [app] = await t.db.insert(apps).values({ environmentId, handle: appHandle }).returning();
    return { user, environmentId, appId: app?.id ?? 0, serviceId: 0, vhostId: 0, hostname: '' };
  }

  /** Deploys the tenant's app from an image, then gives its service a default endpoint. */
  async function deployWithEndpoint(tenant: Tenant, image: string) {
    const deployed = await operate(tenant, `/api/apps/${tenant.appId}/operations`, {
      type: 'deploy',
      docker_image: image,
    });
    expect(deployed.status).toBe('succeeded');
    const [service] = await t.db.select().from(services).where(eq(services.appId, tenant.appId));
    tenant.serviceId = service?.id ?? 0;
    const created = await t.call('POST', `/api/services/${tenant.serviceId}/vhosts`, {
      token: tenant.user.token,
      body: { type: 'http', platform: 'alb', acme: false, default: true, internal: false, ip_whitelist: [] },
    });
    expect(created.statusCode, created.body).toBe(201);
    tenant.vhostId = Number(created.json().id);
    const provisioned = await operate(tenant, `/api/vhosts/${tenant.vhostId}/operations`, {
      type: 'provision',
    });
    expect(provisioned.status).toBe('succeeded');
    const endpoint = await t.call('GET', `/api/vhosts/${tenant.vhostId}`, { token: tenant.user.token });
    tenant.hostname = endpoint.json().virtual_domain;
  }

  /** The containers Berth records for the tenant's service (its current release's). */
  async function recorded(tenant: Tenant) {
    const rows = await t.db
      .select({ container: containers })
      .from(containers)
      .innerJoin(releases, eq(containers.releaseId, releases.id))
      .innerJoin(services, eq(releases.serviceId, services.id))
      .where(
        and(
          eq(services.appId, tenant.appId),
          eq(services.currentReleaseId, releases.id),
          isNull(containers.deletedAt),
        ),
      );
    return rows.map((row) => row.container);
  }

  /**
   * The tenant's recorded containers run, and its endpoint answers with its own page every time (never
   * the other tenant's); the names of those containers.
   */
  async function expectServing(tenant: Tenant, page: string, count = 1): Promise<string[]> {
    const rows = await recorded(tenant);
    expect(rows).toHaveLength(count);
    for (const row of rows)
      expect((await engine.getContainer(row.dockerName).inspect()).State.Running).toBe(true);
    const answers = [];
    for (let index = 0; index < 6; index++) answers.push(await getThroughEdge(httpPort(), tenant.hostname));
    expect(answers).toEqual(answers.map(() => ({ status: 200, body: page })));
    return rows.map((row) => row.dockerName).sort();
  }

  /** The service hashes the edge's proxies of an endpoint carry (what a switch finds them by). */
  async function routeKeys(tenant: Tenant): Promise<string[]> {
    return (await edge.proxies())
      .filter((proxy) => proxy.vhostId === tenant.vhostId)
      .map((proxy) => proxy.serviceHash);
  }

  it("keeps each tenant's containers and endpoint its own while the other's app of the same handles is deployed, scaled, restarted and deprovisioned", async () => {
    const alpha = await tenant('alpha');
    const beta = await tenant('beta');
    await deployWithEndpoint(alpha, ALPHA_ONE);
    await deployWithEndpoint(beta, BETA_ONE);
    expect(alpha.hostname).not.toBe(beta.hostname);
    await expectServing(alpha, 'alpha-one');
    const betaContainers = await expectServing(beta, 'beta-one');

    const loop = startRequestLoop(httpPort(), beta.hostname, { body: 'beta-one', everyMs: 100 });
    const steps: [string, () => Promise<{ status: string }>, number][] = [
      [
        'deploy',
        () =>
          operate(alpha, `/api/apps/${alpha.appId}/operations`, { type: 'deploy', docker_image: ALPHA_TWO }),
        1,
      ],
      [
        'scale',
        () =>
          operate(alpha, `/api/services/${alpha.serviceId}/operations`, {
            type: 'scale',
            container_count: 2,
          }),
        2,
      ],
      // Two containers restart in place, one at a time, each taken out of its endpoint's routes.
      ['restart', () => operate(alpha, `/api/apps/${alpha.appId}/operations`, { type: 'restart' }), 2],
      [
        'deprovision',
        () => operate(alpha, `/api/apps/${alpha.appId}/operations`, { type: 'deprovision' }),
        0,
      ],
    ];
    for (const [step, perform, count] of steps) {
      expect((await perform()).status, step).toBe('succeeded');
      if (count > 0) await expectServing(alpha, 'alpha-two', count);
      expect(await expectServing(beta, 'beta-one'), step).toEqual(betaContainers);
    }
    const { sent, failures } = await loop.stop();
    expect(failures, JSON.stringify(failures)).toEqual([]);
    expect(sent).toBeGreaterThan(20);
    // Alpha's app is gone, with its containers and endpoint; beta's are all this server runs.
    expect(await getThroughEdge(httpPort(), alpha.hostname)).toMatchObject({ status: 404 });
    const left = await containersLabelled(engine, { [LABELS.installation]: installation });
    expect(left.flatMap((container) => container.Names.map((name) => name.slice(1))).sort()).toEqual(
      betaContainers,
    );
  });

  /**
   * A container as a Berth before id keys made it, from one made since: under the handle keys, on the
   * network every container shared then, answering on port 5000.
   */
  async function legacyContainer(made: Docker.ContainerInspectInfo, legacyAppKey: string, release?: string) {
    if (!(await engine.listNetworks({ filters: { name: [network] } })).some(({ Name }) => Name === network))
      await engine.createNetwork({ Name: network, Driver: 'bridge', Labels: { [LABELS.managed]: 'true' } });
    const name = `production-web-cmd-1-${randomBytes(4).toString('hex')}`;
    const container = await engine.createContainer({
      name,
      Image: made.Image,
      Env: made.Config.Env,
      Labels: {
        [LABELS.managed]: 'true',
        [LABELS.installation]: installation,
        [LABELS.stack]: made.Config.Labels[LABELS.stack] ?? '',
        [LABELS.environment]: 'production',
        [LABELS.app]: legacyAppKey,
        [LABELS.service]: `${legacyAppKey}/cmd`,
        [LABELS.release]: release ?? made.Config.Labels[LABELS.release] ?? '',
        [LABELS.layer]: 'app',
        [LABELS.port]: '5000',
      },
      HostConfig: { NetworkMode: network, Init: true, RestartPolicy: { Name: 'unless-stopped' } },
    });
    await container.start();
    const address = (await container.inspect()).NetworkSettings.Networks[network]?.IPAddress ?? '';
    await expect.poll(() => pageText(address, 5000).catch(() => ''), { timeout: 10_000 }).not.toBe('');
    return { name, container, address };
  }

  /**
   * Puts a tenant's service back as a Berth before id keys left it: its container made again under the
   * handle keys on the network every container shared then, recorded for the service, and its
   * endpoint's route keyed by the handle key, sending to that container.
   */
  async function makeLegacy(tenant: Tenant, legacyAppKey: string) {
    const [row] = await recorded(tenant);
    const made = await engine.getContainer(row?.dockerName ?? '').inspect();
    const { name, container, address } = await legacyContainer(made, legacyAppKey);
    await engine.getContainer(made.Id).remove({ force: true });
    await t.db
      .update(containers)
      .set({ dockerName: name, host: address, awsInstanceId: container.id.slice(0, 12) })
      .where(eq(containers.id, row?.id ?? 0));
    // The route's proxy as the older Berth named it: by the hash of the handle key.
    const config = JSON.stringify(await edge.currentConfig()).replace(
      new RegExp(`"berth-up-${tenant.vhostId}-(http|https)-[0-9a-f]{16}-(\\d+)"`, 'g'),
      `"berth-up-${tenant.vhostId}-$1-${serviceHash(`${legacyAppKey}/cmd`)}-$2"`,
    );
    await edge.load(JSON.parse(config));
    const [proxy] = (await edge.proxies()).filter((found) => found.vhostId === tenant.vhostId);
    await edge.setProxyDials(proxy?.id ?? '', [`${address}:5000`]);
    return { name, id: container.id, address };
  }

  it("takes over an older Berth's handle-keyed containers and routes at their own app's deploy and restart, never the other tenant's of the same old key", async () => {
    // Tenants of their own: what the first test's did is no part of this one. Beta's app deploys under
    // another handle, then takes alpha's: no deploy of one touches the other's before both are as an
    // older Berth left them (where the keys were handles, a deploy did).
    const alpha = await tenant('gamma');
    const beta = await tenant('delta', 'web-2');
    await deployWithEndpoint(alpha, ALPHA_ONE);
    await deployWithEndpoint(beta, BETA_ONE);
    await t.db.update(apps).set({ handle: 'web' }).where(eq(apps.id, beta.appId));
    const [place] = await t.db
      .select({ stackName: stacks.name })
      .from(environments)
      .innerJoin(stacks, eq(environments.stackId, stacks.id))
      .where(eq(environments.id, alpha.environmentId));
    // Both tenants' old keys: the stack is the shared one, the handles the same.
    const legacyAppKey = `${place?.stackName}/production/web`;
    const legacyAlpha = await makeLegacy(alpha, legacyAppKey);
    const legacyBeta = await makeLegacy(beta, legacyAppKey);
    expect(await expectServing(alpha, 'alpha-one')).toEqual([legacyAlpha.name]);
    expect(await expectServing(beta, 'beta-one')).toEqual([legacyBeta.name]);
    expect(await routeKeys(alpha)).toEqual(await routeKeys(beta));

    let loop = startRequestLoop(httpPort(), beta.hostname, { body: 'beta-one', everyMs: 100 });
    const deployed = await operate(alpha, `/api/apps/${alpha.appId}/operations`, {
      type: 'deploy',
      docker_image: ALPHA_TWO,
    });
    expect(deployed.status).toBe('succeeded');
    // Beta's, under the same old key, is as it was: its container, its old route, its page.
    expect((await loop.stop()).failures).toEqual([]);
    expect(await expectServing(beta, 'beta-one')).toEqual([legacyBeta.name]);
    expect(await routeKeys(beta)).toEqual([serviceHash(`${legacyAppKey}/cmd`)]);
    // Alpha's old container is retired, its new one keyed by its app's id, and its route follows.
    await expect(engine.getContainer(legacyAlpha.id).inspect()).rejects.toMatchObject({ statusCode: 404 });
    const [fresh] = await expectServing(alpha, 'alpha-two');
    const freshLabels = (await engine.getContainer(fresh ?? '').inspect()).Config.Labels;
    expect(freshLabels[LABELS.service]).toBe(`app-${alpha.appId}/cmd`);
    expect(await routeKeys(alpha)).toEqual([serviceHash(`app-${alpha.appId}/cmd`)]);

    // The reconciler: beta's old route, gone stale (as after an engine restart), is sent to beta's
    // container alone, not to a newer one of the same old key that Berth records for no service (an
    // older Berth's roll-out that died), and no recorded container is an orphan.
    const stray = await legacyContainer(
      await engine.getContainer(fresh ?? '').inspect(),
      legacyAppKey,
      'sha256:stray',
    );
    const [stale] = (await edge.proxies()).filter((proxy) => proxy.vhostId === beta.vhostId);
    await edge.setProxyDials(stale?.id ?? '', ['192.0.2.1:5000']);
    expect(await t.reconciler.reconcileOnce()).toBe(0);
    expect(await expectServing(beta, 'beta-one')).toEqual([legacyBeta.name]);
    await expectServing(alpha, 'alpha-two');
    // Made just now, it is no orphan yet; one old enough is, and goes, while the recorded ones stay.
    expect(await t.reconciler.reconcileOnce({ orphanAgeMs: 0 })).toBe(0);
    await expect(stray.container.inspect()).rejects.toMatchObject({ statusCode: 404 });
    expect(await expectServing(beta, 'beta-one')).toEqual([legacyBeta.name]);

    // Beta's restart takes its old container over in turn, and alpha's stays as it is.
    loop = startRequestLoop(httpPort(), beta.hostname, { body: 'beta-one', everyMs: 100 });
    const restarted = await operate(beta, `/api/services/${beta.serviceId}/operations`, { type: 'restart' });
    expect(restarted.status).toBe('succeeded');
    expect((await loop.stop()).failures).toEqual([]);
    await expect(engine.getContainer(legacyBeta.id).inspect()).rejects.toMatchObject({ statusCode: 404 });
    const [taken] = await expectServing(beta, 'beta-one');
    expect((await engine.getContainer(taken ?? '').inspect()).Config.Labels[LABELS.service]).toBe(
      `app-${beta.appId}/cmd`,
    );
    expect(await routeKeys(beta)).toEqual([serviceHash(`app-${beta.appId}/cmd`)]);
    expect(await expectServing(alpha, 'alpha-two')).toEqual([fresh]);
  });
});
