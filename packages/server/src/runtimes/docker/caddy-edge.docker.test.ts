import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ENDPOINT_TOKEN_HEADER } from '@berth/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteEngine, testEdge } from '../../testing/docker-images.ts';
import { getThroughEdge } from '../../testing/request-loop.ts';
import { createEdgeClient, type EdgeEndpoint, serviceHash } from './caddy-edge.ts';
import { stopEdge, superviseEdge } from './caddy-process.ts';

// The edge (a real Caddy) driven through its admin API, with a plain HTTP server of the test standing
// in for a container: what a container taken out of the routes is held for (its requests in flight
// counted) is never a way in, only the addresses a caller drains are held, and Caddy, which outlives
// the server, keeps none of the server's secrets. Skipped locally without an engine (the docker suite).

const docker = await suiteEngine();

const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-caddy-edge-'));
const SECRETS = { BERTH_JWT_SECRET: 'the-servers-jwt-secret', DATABASE_URL: 'postgres://berth:pw@db/berth' };

/** Connections the kernel dropped in this network namespace because a listening socket's queue was full. */
function listenOverflows(): number {
  const [names, values] = fs
    .readFileSync('/proc/net/netstat', 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('TcpExt:'))
    .map((line) => line.split(/\s+/));
  return Number(values?.[names?.indexOf('ListenOverflows') ?? -1] ?? Number.NaN);
}

/** The key of a service as the runtime names it: the drain route's hash is computable from it. */
const serviceKey = 'shared/production/shop/web';

describe.skipIf(!docker)("the edge's drain route and process", () => {
  let settings: Awaited<ReturnType<typeof testEdge>> & { adminSocket: string };
  let edge: ReturnType<typeof superviseEdge>;
  let container: Server;
  let containerPort: number;
  /** The requests the stand-in container received. */
  const received: IncomingHttpHeaders[] = [];
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    const edgeSettings = await testEdge(dataDir);
    settings = { ...edgeSettings, adminSocket: path.join(edgeSettings.dir, 'admin.sock') };
    container = createServer((req, res) => {
      received.push(req.headers);
      // A slow page keeps a request in flight while the test takes the container out of the routes.
      setTimeout(
        () => res.end(req.url === '/slow' ? 'slow-done' : 'container'),
        req.url === '/slow' ? 2000 : 0,
      );
    });
    await new Promise<void>((resolve) => container.listen(0, '127.0.0.1', resolve));
    containerPort = (container.address() as AddressInfo).port;
    // The server's own secrets are in its environment when it starts the edge.
    for (const [name, value] of Object.entries(SECRETS)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    edge = superviseEdge(settings);
    try {
      await edge.start();
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }, 60_000);

  afterAll(async () => {
    edge?.detach();
    await stopEdge(settings.dir);
    await new Promise((resolve) => container?.close(resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const endpoint = (upstreams: EdgeEndpoint['upstreams'], vhostId: number): EdgeEndpoint => ({
    vhostId,
    serviceKey,
    hostname: `shop-production-${vhostId}.localhost`,
    containerPort: null,
    ipAllowlist: [],
    tokenHeader: 'endpoint-token',
    loadBalancing: 'round_robin',
    grpc: false,
    tls: { kind: 'none' },
    upstreams,
  });

  /** The addresses the edge holds for draining, per drain route. */
  async function heldForDraining(): Promise<string[][]> {
    const config = (await createEdgeClient(settings).currentConfig()) as {
      apps: { http: { servers: Record<string, { routes: Record<string, unknown>[] }> } };
    };
    return Object.values(config.apps.http.servers)
      .flatMap((server) => server.routes)
      .filter((route) => String(route['@id']).startsWith('berth-draining-'))
      .map((route) =>
        ((route.handle as { upstreams: { dial: string }[] }[])[0]?.upstreams ?? []).map((up) => up.dial),
      );
  }

  it('keeps a container taken out of the routes counted while it drains, and lets no request reach it that way', async () => {
    const client = createEdgeClient(settings);
    await client.putEndpoint(endpoint([{ address: '127.0.0.1', port: containerPort }], 1));
    const slow = getThroughEdge(settings.httpPort, 'shop-production-1.localhost', {
      path: '/slow',
      timeoutMs: 10_000,
      headers: { [ENDPOINT_TOKEN_HEADER]: 'endpoint-token' },
    });
    await expect.poll(() => received.length).toBe(1);
    await client.switchService(serviceKey, [], ['127.0.0.1']);
    // Why the drain route exists: the request sent before the switch is still counted.
    expect(await client.requestsInFlight(['127.0.0.1'])).toBe(1);
    // Its hash is computable by anyone who knows the app's name; without the endpoint's token, and
    // without the route's hostname, no request may reach the container through it.
    const outsider = await getThroughEdge(settings.httpPort, `${serviceHash(serviceKey)}.draining.invalid`);
    expect(outsider).toEqual({ status: 404, body: 'No endpoint answers at this address.' });
    expect(received).toHaveLength(1);
    expect(await slow).toEqual({ status: 200, body: 'slow-done' });
    await client.releaseDrained(serviceKey);
    expect(await heldForDraining()).toEqual([]);
  });

  it('holds for draining only the addresses the caller will drain', async () => {
    const client = createEdgeClient(settings);
    const at = (address: string) => ({ address, port: 5000 });
    await client.putEndpoint(endpoint([at('192.0.2.10'), at('192.0.2.11'), at('192.0.2.12')], 2));
    // A switch whose caller drains nothing (containers coming back) holds nothing.
    await client.switchService(serviceKey, [at('192.0.2.11'), at('192.0.2.12')], []);
    expect(await heldForDraining()).toEqual([]);
    // 192.0.2.11 is drained; 192.0.2.12 is a stale address no container of the caller has.
    await client.switchService(serviceKey, [], ['192.0.2.11']);
    expect(await heldForDraining()).toEqual([['192.0.2.11:5000']]);
    await client.releaseDrained(serviceKey);
    expect(await heldForDraining()).toEqual([]);
  });

  it("waits out a container's full accept queue: a connection its kernel dropped is retried before the dial gives up", async () => {
    // A container busy for a moment takes no connections, and once its accept queue is full its kernel
    // drops new ones at their first packet; the edge's kernel sends each again a second later (TCP's first
    // retransmission). The dial must last past that second: cut off there, each one counts as the
    // container failing, three take it out of the routes for ten seconds, and every request answers 502
    // (what failed a CI run, behind busybox's httpd and its queue of nine). This container's queue holds
    // four: the test fills it while the container is busy, sends four requests, and frees the container
    // once their first packets are dropped. The container closes each connection, as httpd does, so no
    // kept-alive one can carry them instead. It stays busy until this file exists.
    const freeFlag = path.join(dataDir, 'container-free');
    const busy = spawn(
      process.execPath,
      [
        '-e',
        `const server = require('node:http').createServer((req, res) => {
           res.setHeader('connection', 'close');
           res.end('patient');
         });
         server.listen({ port: 0, host: '127.0.0.1', backlog: 3 }, () => console.log(server.address().port));
         process.stdin.on('data', () => {
           process.stdout.write('busy\\n');
           const until = Date.now() + 10000;
           while (!require('node:fs').existsSync(process.argv[1]) && Date.now() < until);
         });`,
        freeFlag,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    try {
      const lines = createInterface({ input: busy.stdout })[Symbol.asyncIterator]();
      const port = Number((await lines.next()).value);
      const client = createEdgeClient(settings);
      await client.putEndpoint({ ...endpoint([{ address: '127.0.0.1', port }], 3), tokenHeader: null });
      const hostname = 'shop-production-3.localhost';
      expect(await getThroughEdge(settings.httpPort, hostname)).toEqual({ status: 200, body: 'patient' });
      const droppedBefore = listenOverflows();
      busy.stdin.write('go\n');
      expect((await lines.next()).value).toBe('busy');
      // Four connections of the test fill the queue; then the edge's are dropped at their first packet.
      const fillers = await Promise.all(
        [1, 2, 3, 4].map(
          () =>
            new Promise<Socket>((resolve, reject) => {
              const socket = connect(port, '127.0.0.1', () => resolve(socket));
              socket.on('error', reject);
            }),
        ),
      );
      const answers = Promise.all(
        Array.from({ length: 4 }, () => getThroughEdge(settings.httpPort, hostname, { timeoutMs: 10_000 })),
      );
      // Once the kernel has dropped the edge's four (else this proves nothing), the container is freed at
      // once, well before their second packets come a second later.
      await expect
        .poll(listenOverflows, { timeout: 5000, interval: 5 })
        .toBeGreaterThanOrEqual(droppedBefore + 4);
      fs.writeFileSync(freeFlag, '');
      expect(await answers).toEqual(Array.from({ length: 4 }, () => ({ status: 200, body: 'patient' })));
      for (const filler of fillers) filler.destroy();
    } finally {
      busy.kill();
    }
  });

  it("passes Caddy none of the server's environment but what it reads", () => {
    const pid = edge.pid();
    expect(pid).not.toBeNull();
    const environment = Object.fromEntries(
      fs
        .readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .filter(Boolean)
        .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
    );
    for (const name of Object.keys(SECRETS)) expect(environment).not.toHaveProperty(name);
    expect(Object.keys(environment).filter((name) => name.startsWith('BERTH_'))).toEqual([]);
    expect(environment).toMatchObject({
      HOME: settings.dir,
      XDG_CONFIG_HOME: path.join(settings.dir, 'config'),
      XDG_DATA_HOME: path.join(settings.dir, 'data'),
    });
  });
});
