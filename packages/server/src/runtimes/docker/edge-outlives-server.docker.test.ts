import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { apps, services } from '../../db/schema.ts';
import {
  baseImage,
  dockerTestConfig,
  removeDockerTestResources,
  suiteEngine,
  whoamiImage,
} from '../../testing/docker-images.ts';
import { getThroughEdge, startRequestLoop } from '../../testing/request-loop.ts';
import {
  exitOf,
  freePort,
  type ServerProcess,
  spawnServer,
  untilRunning,
} from '../../testing/server-process.ts';
import { testApp } from '../../testing/test-app.ts';
import { runningEdgePid } from './caddy-process.ts';

// Issue 35: the edge outlives the server. An app answers every request of a steady loop (one every
// 50 ms, each on a connection of its own) while the Berth server, a process of its own, is stopped by a
// Ctrl-C to its process group, stays down 15 s and starts again, and across a `kill -9` of the server:
// each start takes the running edge over instead of replacing it. Then `npm run admin -- stop-edge`
// stops it for good. Skipped locally without an engine.

const docker = await suiteEngine();

const run = randomBytes(3).toString('hex');
const network = `berth-outlive-${run}`;
const environmentHandle = `outlive-${run}`;
const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-outlive-'));
const edgeDir = path.join(dataDir, 'edge');
const serverRoot = fileURLToPath(new URL('../../..', import.meta.url));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!docker)('the edge outlives the server', () => {
  const engine = docker as Docker;
  let env: Record<string, string>;
  let hostname: string;
  let httpPort: number;
  let server: ServerProcess | null = null;
  const outputs: string[] = [];

  beforeAll(async () => {
    await baseImage(engine);
    await whoamiImage(engine, 'berth-test/whoami:1');
    const config = await dockerTestConfig(dataDir, network);
    httpPort = config.edge.httpPort;
    // An app of 2 containers behind a default endpoint, made through the API on the data directory
    // the server processes then run on.
    const t = await testApp(config, { database: await openDatabase({ dataDir }) });
    try {
      const owner = await t.signUp();
      const org = await t.createOrganization(owner);
      const environment = await t.createEnvironment(owner, org.id, environmentHandle);
      const [app] = await t.db
        .insert(apps)
        .values({ environmentId: Number(environment.id), handle: 'outlive' })
        .returning();
      const deployed = await t.operate(owner, `/api/apps/${app?.id}/operations`, {
        type: 'deploy',
        docker_image: 'berth-test/whoami:1',
      });
      expect(deployed.status).toBe('succeeded');
      const [service] = await t.db
        .select()
        .from(services)
        .where(eq(services.appId, app?.id ?? 0));
      expect(
        (
          await t.operate(owner, `/api/services/${service?.id}/operations`, {
            type: 'scale',
            container_count: 2,
          })
        ).status,
      ).toBe('succeeded');
      const created = await t.call('POST', `/api/services/${service?.id}/vhosts`, {
        token: owner.token,
        body: {
          type: 'http',
          platform: 'alb',
          acme: false,
          default: true,
          internal: false,
          ip_whitelist: [],
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const endpointId = created.json().id as string;
      expect(
        (await t.operate(owner, `/api/vhosts/${endpointId}/operations`, { type: 'provision' })).status,
      ).toBe('succeeded');
      hostname = (await t.call('GET', `/api/vhosts/${endpointId}`, { token: owner.token })).json()
        .virtual_domain;
    } finally {
      await t.close();
    }
    env = {
      BERTH_DATA_DIR: dataDir,
      PORT: String(await freePort()),
      BERTH_RUNTIME: 'docker',
      BERTH_DOCKER_NETWORK: network,
      BERTH_EDGE_HTTP_PORT: String(config.edge.httpPort),
      BERTH_EDGE_HTTPS_PORT: String(config.edge.httpsPort),
      BERTH_CADDY_PATH: config.edge.caddyPath,
    };
  }, 180_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await exitOf(server.child);
    }
    await removeDockerTestResources(engine, { environmentHandle, network, dataDir });
  });

  /** A server process on the data directory, in a process group of its own; resolves once it runs. */
  async function startServer() {
    server = await untilRunning(spawnServer(env, { processGroup: true }));
    return server;
  }

  async function stopped(current: ServerProcess) {
    await exitOf(current.child);
    outputs.push(current.output());
  }

  const admin = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/admin.ts', ...args], {
      cwd: serverRoot,
      env: { ...process.env, ...env },
    });

  it('answers every request while Berth is stopped by a Ctrl-C for 15 s and started again, and across a kill -9', async () => {
    // The first server starts the edge itself (the one the API calls above ran is stopped first).
    expect((await admin('stop-edge')).stdout).toMatch(/^Stopped the edge \(Caddy, pid \d+\)/);
    const first = await startServer();
    const edge = runningEdgePid(edgeDir);
    expect(edge).not.toBeNull();

    const loop = startRequestLoop(httpPort, hostname);
    // Ctrl-C in the terminal: SIGINT to the whole foreground process group.
    process.kill(-(first.child.pid ?? 0), 'SIGINT');
    await stopped(first);
    await sleep(15_000);
    const second = await startServer();
    await sleep(1000);
    const acrossStop = await loop.stop();
    console.log(
      `Berth stopped 15 s and started again: ${acrossStop.failures.length} of ${acrossStop.sent} requests failed`,
    );
    expect(acrossStop.failures, JSON.stringify(acrossStop.failures)).toEqual([]);
    expect(acrossStop.sent).toBeGreaterThan(200);
    // The same edge all along, taken over.
    expect(runningEdgePid(edgeDir)).toBe(edge);
    expect(second.output()).toContain(`The edge (Caddy, pid ${edge}) was running: this server took it over`);

    const again = startRequestLoop(httpPort, hostname);
    second.child.kill('SIGKILL');
    await stopped(second);
    await sleep(2000);
    const third = await startServer();
    await sleep(1000);
    const acrossKill = await again.stop();
    console.log(
      `Berth killed (kill -9) and started again: ${acrossKill.failures.length} of ${acrossKill.sent} requests failed`,
    );
    expect(acrossKill.failures, JSON.stringify(acrossKill.failures)).toEqual([]);
    expect(runningEdgePid(edgeDir)).toBe(edge);

    // While a server runs, the edge is its own: stop-edge refuses (the server would start it again).
    await expect(admin('stop-edge')).rejects.toThrow(/is in use by another Berth process/);
    third.child.kill('SIGTERM');
    await stopped(third);
    for (const output of outputs) {
      expect(output).not.toContain('starting it again');
      expect(output).not.toContain('Stopped the edge');
    }
    expect(outputs[0]).toContain(`The edge (Caddy, pid ${edge}) keeps serving the endpoints`);

    // Stopped for good by the operator's command.
    expect((await admin('stop-edge')).stdout.trim()).toBe(
      `Stopped the edge (Caddy, pid ${edge}): the apps' endpoints no longer answer until Berth starts with BERTH_RUNTIME=docker again.`,
    );
    expect(runningEdgePid(edgeDir)).toBeNull();
    expect(await getThroughEdge(httpPort, hostname)).toEqual({
      error: `connect ECONNREFUSED 127.0.0.1:${httpPort}`,
    });
  }, 240_000);
});
