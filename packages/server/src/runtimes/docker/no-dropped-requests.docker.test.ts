import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { apps, services } from '../../db/schema.ts';
import {
  BASE_IMAGE,
  baseImage,
  builtImage,
  dockerTestConfig,
  removeDockerTestResources,
  suiteEngine,
  webImage,
  whoamiImage,
} from '../../testing/docker-images.ts';
import { getThroughEdge, startRequestLoop } from '../../testing/request-loop.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';
import { createEdgeClient } from './caddy-edge.ts';
import { containersLabelled, LABELS } from './engine.ts';

// Issue 35: no request is dropped by an app's restart, configure, scale or deploy. A steady loop of
// requests (one every 50 ms, each on a connection of its own) goes to an app of 2 containers through the
// edge while each operation runs; every request must be answered. A restart that fails, or that finds
// containers stopped, leaves the edge routing to every container that runs, and nothing held for
// draining. Skipped locally without an engine.

const docker = await suiteEngine();

const run = randomBytes(3).toString('hex');
const network = `berth-steady-${run}`;
const environmentHandle = `steady-${run}`;
const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-steady-'));

/** A web app with a slow page: busybox's httpd runs /cgi-bin/slow, which answers after 6 s. */
const SLOW_IMAGE = 'berth-test/slow:1';
/**
 * A whoami app whose container, once restarted, answers only after 15 s: longer than the suite's health
 * timeout (10 s), so its restart fails, and it answers a moment later.
 */
const LATE_AFTER_RESTART_IMAGE = 'berth-test/late-after-restart:1';

describe.skipIf(!docker)('operations under a steady request loop on the docker runtime', () => {
  const engine = docker as Docker;
  let config: Partial<Config>;
  let t: TestApp;
  let owner: TestUser;
  let appId: number;
  let serviceId: number;
  let hostname: string;

  beforeAll(async () => {
    await baseImage(engine);
    await whoamiImage(engine, 'berth-test/whoami:1');
    await webImage(engine, 'berth-test/web:2', 'version-two');
    await builtImage(engine, SLOW_IMAGE, {
      Dockerfile: [
        `FROM ${BASE_IMAGE}`,
        'ENV PATH=/bin',
        'RUN mkdir -p /www/cgi-bin && echo fast > /www/index.html',
        'COPY slow /www/cgi-bin/slow',
        'RUN /bin/busybox chmod 755 /www/cgi-bin/slow',
        'CMD ["/bin/sh", "-c", "exec httpd -f -p $PORT -h /www"]',
        '',
      ].join('\n'),
      slow: '#!/bin/sh\nsleep 6\necho "Content-Type: text/plain"\necho\necho slow-done\n',
    });
    await builtImage(engine, LATE_AFTER_RESTART_IMAGE, {
      Dockerfile: [
        `FROM ${BASE_IMAGE}`,
        'ENV PATH=/bin',
        'RUN mkdir -p /www',
        // Its file system outlives a restart: the mark says it has started before.
        'CMD ["/bin/sh", "-c", "hostname > /www/index.html; if [ -e /www/started ]; then sleep 15; fi; echo > /www/started; exec httpd -f -p $PORT -h /www"]',
        '',
      ].join('\n'),
    });
    config = await dockerTestConfig(dataDir, network);
    t = await testApp(config);
    owner = await t.signUp();
    const org = await t.createOrganization(owner);
    const environment = await t.createEnvironment(owner, org.id, environmentHandle);
    const [app] = await t.db
      .insert(apps)
      .values({ environmentId: Number(environment.id), handle: 'steady' })
      .returning();
    appId = app?.id ?? 0;
    const deployed = await t.operate(owner, `/api/apps/${appId}/operations`, {
      type: 'deploy',
      docker_image: 'berth-test/whoami:1',
    });
    expect(deployed.status).toBe('succeeded');
    const [service] = await t.db.select().from(services).where(eq(services.appId, appId));
    serviceId = service?.id ?? 0;
    const scaled = await t.operate(owner, `/api/services/${serviceId}/operations`, {
      type: 'scale',
      container_count: 2,
    });
    expect(scaled.status).toBe('succeeded');
    const created = await t.call('POST', `/api/services/${serviceId}/vhosts`, {
      token: owner.token,
      body: { type: 'http', platform: 'alb', acme: false, default: true, internal: false, ip_whitelist: [] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const endpointId = created.json().id as string;
    const provisioned = await t.operate(owner, `/api/vhosts/${endpointId}/operations`, { type: 'provision' });
    expect(provisioned.status).toBe('succeeded');
    hostname = (await t.call('GET', `/api/vhosts/${endpointId}`, { token: owner.token })).json()
      .virtual_domain;
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await removeDockerTestResources(engine, { environmentHandle, network, dataDir });
  });

  /** Runs operations while the loop sends requests; what the loop saw, and the operations' states. */
  async function underLoad(...operations: [string, Record<string, unknown>][]) {
    const loop = startRequestLoop(config.edge?.httpPort ?? 0, hostname);
    const states: string[] = [];
    for (const [url, body] of operations) states.push((await t.operate(owner, url, body)).status);
    // Requests a moment after the end too: the old containers have just stopped.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const result = await loop.stop();
    console.log(
      `${operations.map(([, body]) => body.type).join(', ')}: ${result.failures.length} of ${result.sent} requests failed`,
    );
    return { ...result, states };
  }

  const running = async () =>
    (await containersLabelled(engine, { [LABELS.environment]: environmentHandle }))
      .filter((container) => container.State === 'running')
      .sort((a, b) => (a.Names[0] ?? '').localeCompare(b.Names[0] ?? ''));

  const edge = () =>
    createEdgeClient({
      adminSocket: path.join(dataDir, 'edge', 'admin.sock'),
      httpPort: config.edge?.httpPort ?? 0,
      httpsPort: config.edge?.httpsPort ?? 0,
      acmeEmail: null,
    });

  /** The routes the edge has that hold containers for draining. */
  async function drainRoutes(): Promise<unknown[]> {
    const servers = (
      (await edge().currentConfig()) as {
        apps: { http: { servers: Record<string, { routes: { '@id'?: string }[] }> } };
      }
    ).apps.http.servers;
    return Object.values(servers)
      .flatMap((server) => server.routes)
      .filter((route) => String(route['@id']).startsWith('berth-draining-'));
  }

  /** A container's address on the network the edge reaches it on. */
  const addressOf = (container: Docker.ContainerInfo) =>
    Object.values(container.NetworkSettings?.Networks ?? {})
      .map((network) => network.IPAddress)
      .find(Boolean);

  it('answers every request while the app restarts its 2 containers', async () => {
    const { states, failures, sent } = await underLoad([
      `/api/services/${serviceId}/operations`,
      { type: 'restart' },
    ]);
    expect(states).toEqual(['succeeded']);
    expect(sent).toBeGreaterThan(20);
    expect(failures, JSON.stringify(failures)).toEqual([]);
    expect(await running()).toHaveLength(2);
  });

  it('answers every request while a configuration change rolls out new containers', async () => {
    const { states, failures } = await underLoad([
      `/api/apps/${appId}/operations`,
      { type: 'configure', env: { GREETING: 'steady' } },
    ]);
    expect(states).toEqual(['succeeded']);
    expect(failures, JSON.stringify(failures)).toEqual([]);
  });

  it('answers every request while the service scales up to 3 and down to 2', async () => {
    const { states, failures } = await underLoad(
      [`/api/services/${serviceId}/operations`, { type: 'scale', container_count: 3 }],
      [`/api/services/${serviceId}/operations`, { type: 'scale', container_count: 2 }],
    );
    expect(states).toEqual(['succeeded', 'succeeded']);
    expect(failures, JSON.stringify(failures)).toEqual([]);
    expect(await running()).toHaveLength(2);
  });

  it('answers every request while a new image is deployed', async () => {
    const { states, failures } = await underLoad([
      `/api/apps/${appId}/operations`,
      { type: 'deploy', docker_image: 'berth-test/web:2' },
    ]);
    expect(states).toEqual(['succeeded']);
    expect(failures, JSON.stringify(failures)).toEqual([]);
  });

  it('lets a slow request finish on an old container before the roll-out stops it', async () => {
    expect(
      (await t.operate(owner, `/api/apps/${appId}/operations`, { type: 'deploy', docker_image: SLOW_IMAGE }))
        .status,
    ).toBe('succeeded');
    // Six seconds: in flight on an old container when the roll-out has its new ones answering.
    const slow = getThroughEdge(config.edge?.httpPort ?? 0, hostname, {
      path: '/cgi-bin/slow',
      timeoutMs: 20_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { states, failures } = await underLoad([
      `/api/apps/${appId}/operations`,
      { type: 'configure', env: { GREETING: 'slow' } },
    ]);
    expect(states).toEqual(['succeeded']);
    expect(failures, JSON.stringify(failures)).toEqual([]);
    expect(await slow).toEqual({ status: 200, body: 'slow-done' });
  });

  it('answers every request while a lone container restarts: its replacement answers first', async () => {
    await t.operate(owner, `/api/services/${serviceId}/operations`, { type: 'scale', container_count: 1 });
    const [before] = await running();
    const { states, failures } = await underLoad([
      `/api/services/${serviceId}/operations`,
      { type: 'restart' },
    ]);
    expect(states).toEqual(['succeeded']);
    expect(failures, JSON.stringify(failures)).toEqual([]);
    const after = await running();
    expect(after).toHaveLength(1);
    expect(after[0]?.Id).not.toBe(before?.Id);
  });

  it('leaves nothing held for draining when the containers a deploy replaces had stopped', async () => {
    expect(
      (await t.operate(owner, `/api/services/${serviceId}/operations`, { type: 'scale', container_count: 1 }))
        .status,
    ).toBe('succeeded');
    const [only] = await running();
    // Stopped by hand, so it has no address to drain; and the edge routes to an address none of the
    // app's containers has (as after the engine restarted them elsewhere), which the engine may give
    // another's container later.
    await engine.getContainer(only?.Id ?? '').stop({ t: 1 });
    const [proxy] = await edge().proxies();
    await edge().setProxyDials(proxy?.id ?? '', ['192.0.2.1:5000']);
    const deployed = await t.operate(owner, `/api/apps/${appId}/operations`, {
      type: 'deploy',
      docker_image: 'berth-test/whoami:1',
    });
    expect(deployed.status).toBe('succeeded');
    expect(await drainRoutes()).toEqual([]);
    expect(await getThroughEdge(config.edge?.httpPort ?? 0, hostname)).toMatchObject({ status: 200 });
  });

  it("answers every request while the reconciler's restart brings back one of 2 containers that stopped: replacements answer first", async () => {
    expect(
      (await t.operate(owner, `/api/services/${serviceId}/operations`, { type: 'scale', container_count: 2 }))
        .status,
    ).toBe('succeeded');
    // The second by name: the restart takes the running one first, with no other running to serve.
    const [, second] = await running();
    await engine.getContainer(second?.Id ?? '').stop({ t: 1 });
    // The reconciler's pass sends the routes to the running container and queues the service's restart.
    expect(await t.reconciler.reconcileOnce()).toBe(1);
    const loop = startRequestLoop(config.edge?.httpPort ?? 0, hostname);
    await t.worker.drain();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { failures, sent } = await loop.stop();
    console.log(
      `automated restart, one of 2 containers stopped: ${failures.length} of ${sent} requests failed`,
    );
    const listed = await t.call('GET', `/api/services/${serviceId}/operations`, { token: owner.token });
    const [restart] = listed.json()._embedded.operations;
    expect(restart).toMatchObject({ type: 'restart', status: 'succeeded', automated: true });
    expect(await t.operationLog(owner, restart.id)).toContain(
      'Restarting service cmd: only one of its 2 containers runs, so replacements start first and requests keep being answered',
    );
    expect(sent).toBeGreaterThan(20);
    expect(failures, JSON.stringify(failures)).toEqual([]);
    expect(await running()).toHaveLength(2);
    expect(await drainRoutes()).toEqual([]);
  });

  it('routes a container whose restart failed back to the edge with the others, and it serves once it answers', async () => {
    expect(
      (
        await t.operate(owner, `/api/apps/${appId}/operations`, {
          type: 'deploy',
          docker_image: LATE_AFTER_RESTART_IMAGE,
        })
      ).status,
    ).toBe('succeeded');
    const restarted = await t.operate(owner, `/api/services/${serviceId}/operations`, { type: 'restart' });
    expect(restarted.status).toBe('failed');
    expect(await t.operationLog(owner, restarted.id)).toContain(
      'The endpoint route(s) of service cmd go to its 2 running container(s)',
    );
    const containers = await running();
    expect(containers).toHaveLength(2);
    const routed = (await edge().proxies()).flatMap((proxy) => proxy.dials.map((dial) => dial.split(':')[0]));
    expect(routed.sort()).toEqual(containers.map(addressOf).sort());
    expect(await drainRoutes()).toEqual([]);
    // Once the late one answers, both serve through the edge.
    const answered = new Set<string>();
    await expect
      .poll(
        async () => {
          const answer = await getThroughEdge(config.edge?.httpPort ?? 0, hostname);
          if ('status' in answer && answer.status === 200) answered.add(answer.body);
          return answered.size;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe(2);
  }, 90_000);
});
