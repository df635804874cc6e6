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
import { containersLabelled, LABELS } from './engine.ts';

// Issue 35: no request is dropped by an app's restart, configure, scale or deploy. A steady loop of
// requests (one every 50 ms, each on a connection of its own) goes to an app of 2 containers through the
// edge while each operation runs; every request must be answered. Skipped locally without an engine.

const docker = await suiteEngine();

const run = randomBytes(3).toString('hex');
const network = `berth-steady-${run}`;
const environmentHandle = `steady-${run}`;
const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-steady-'));

/** A web app with a slow page: busybox's httpd runs /cgi-bin/slow, which answers after 6 s. */
const SLOW_IMAGE = 'berth-test/slow:1';

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
    (await containersLabelled(engine, { [LABELS.environment]: environmentHandle })).filter(
      (container) => container.State === 'running',
    );

  it('answers every request while the app restarts its 2 containers', async () => {
    const { states, failures, sent } = await underLoad([
      `/api/services/${serviceId}/operations`,
      { type: 'restart' },
    ]);
    expect(states).toEqual(['succeeded']);
    expect(sent).toBeGreaterThan(20);
    expect(failures).toEqual([]);
    expect(await running()).toHaveLength(2);
  });

  it('answers every request while a configuration change rolls out new containers', async () => {
    const { states, failures } = await underLoad([
      `/api/apps/${appId}/operations`,
      { type: 'configure', env: { GREETING: 'steady' } },
    ]);
    expect(states).toEqual(['succeeded']);
    expect(failures).toEqual([]);
  });

  it('answers every request while the service scales up to 3 and down to 2', async () => {
    const { states, failures } = await underLoad(
      [`/api/services/${serviceId}/operations`, { type: 'scale', container_count: 3 }],
      [`/api/services/${serviceId}/operations`, { type: 'scale', container_count: 2 }],
    );
    expect(states).toEqual(['succeeded', 'succeeded']);
    expect(failures).toEqual([]);
    expect(await running()).toHaveLength(2);
  });

  it('answers every request while a new image is deployed', async () => {
    const { states, failures } = await underLoad([
      `/api/apps/${appId}/operations`,
      { type: 'deploy', docker_image: 'berth-test/web:2' },
    ]);
    expect(states).toEqual(['succeeded']);
    expect(failures).toEqual([]);
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
    expect(failures).toEqual([]);
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
    expect(failures).toEqual([]);
    const after = await running();
    expect(after).toHaveLength(1);
    expect(after[0]?.Id).not.toBe(before?.Id);
  });
});
