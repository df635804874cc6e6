import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Docker from 'dockerode';
import { afterEach, describe, expect, it } from 'vitest';
import { isNodeLost, type SwarmChange, type SwarmWatchStatus, watchSwarmChanges } from './swarm-events.ts';

// The watcher against a local HTTP server that plays the Engine API's /events: what a stream that ends,
// fails or repeats itself does to it. (events.swarm.test.ts watches a real cluster.)

const nodeDown = {
  Type: 'node',
  Action: 'update',
  Actor: { ID: 'node3id', Attributes: { name: 'worker-3', 'state.new': 'down', 'state.old': 'ready' } },
  scope: 'swarm',
  time: 1_796_003_704,
  timeNano: 1_796_003_704_000_000_000,
};
const scaled = {
  Type: 'service',
  Action: 'update',
  Actor: { ID: 'svc1', Attributes: { name: 'web', 'replicas.new': '3', 'replicas.old': '2' } },
  scope: 'swarm',
  time: 1_796_003_710,
  timeNano: 1_796_003_710_000_000_000,
};
const drained = {
  Type: 'node',
  Action: 'update',
  Actor: {
    ID: 'node2id',
    Attributes: { name: 'worker-2', 'availability.new': 'drain', 'availability.old': 'active' },
  },
  scope: 'swarm',
  time: 1_796_003_720,
  timeNano: 1_796_003_720_000_000_000,
};

type Handler = (request: IncomingMessage, response: ServerResponse, connection: number) => void;

let server: Server | null = null;
const controllers: AbortController[] = [];

afterEach(async () => {
  for (const controller of controllers.splice(0)) controller.abort();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = null;
});

/** A fake engine: each connection to /events is handled by `handler`; the requests' URLs are kept. */
async function fakeEngine(handler: Handler): Promise<{ docker: Docker; urls: string[] }> {
  const urls: string[] = [];
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://engine');
    if (!url.pathname.endsWith('/events')) {
      response.writeHead(404).end();
      return;
    }
    urls.push(request.url ?? '');
    handler(request, response, urls.length);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { docker: new Docker({ host: '127.0.0.1', port, protocol: 'http' }), urls };
}

const line = (event: object) => `${JSON.stringify(event)}\n`;

function watch(docker: Docker, backoff = { initialMs: 20, maxMs: 80 }) {
  const controller = new AbortController();
  controllers.push(controller);
  const changes: SwarmChange[] = [];
  const statuses: SwarmWatchStatus[] = [];
  const done = watchSwarmChanges(docker, (change) => changes.push(change), {
    signal: controller.signal,
    onStatus: (status) => statuses.push(status),
    backoff,
  });
  return { controller, changes, statuses, done };
}

async function until(what: string, check: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('watchSwarmChanges', () => {
  it('connects again after the stream ends, from the last event on, and tells each change once', async () => {
    const { docker, urls } = await fakeEngine((_request, response, connection) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      if (connection === 1) {
        // A change, then the manager goes away.
        response.end(line(nodeDown));
        return;
      }
      // The engine repeats the events of the second asked for, then goes on (and stays open).
      response.write(line(nodeDown));
      response.write('not json at all\n');
      response.write(line({ Type: 'container', Action: 'die', Actor: { ID: 'c1' }, time: 1, timeNano: 1 }));
      // One event split across two writes.
      const split = line(scaled);
      response.write(split.slice(0, 30));
      setTimeout(() => response.write(split.slice(30)), 20);
    });
    const { changes, statuses } = watch(docker);
    await until('two changes', () => changes.length >= 2);

    expect(urls).toHaveLength(2);
    const first = new URL(urls[0] ?? '', 'http://engine').searchParams;
    expect(JSON.parse(first.get('filters') ?? '{}')).toEqual({ type: ['node', 'service'] });
    expect(first.get('since')).toBeNull();
    expect(new URL(urls[1] ?? '', 'http://engine').searchParams.get('since')).toBe(String(nodeDown.time));

    expect(changes).toEqual([
      {
        kind: 'node',
        action: 'update',
        nodeId: 'node3id',
        hostname: 'worker-3',
        state: { from: 'ready', to: 'down' },
        at: expect.any(Date),
      },
      {
        kind: 'service',
        action: 'update',
        serviceId: 'svc1',
        name: 'web',
        replicas: { from: '2', to: '3' },
        at: expect.any(Date),
      },
    ]);
    expect(isNodeLost(changes[0] as SwarmChange)).toBe(true);
    expect(isNodeLost(changes[1] as SwarmChange)).toBe(false);
    expect(statuses.slice(0, 3)).toEqual([
      { connected: true },
      { connected: false, error: 'the event stream ended', retryInMs: 20 },
      { connected: true },
    ]);
  });

  it('waits twice as long after each failure, never longer than the cap, and again briefly once it works', async () => {
    const { docker } = await fakeEngine((_request, response, connection) => {
      if (connection <= 4) {
        response.writeHead(500, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ message: 'manager unavailable' }));
        return;
      }
      // Works once (a change), then ends; the next pause starts from the beginning again.
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(line(drained));
    });
    const { changes, statuses } = watch(docker);
    await until('six pauses', () => statuses.filter((s) => !s.connected).length >= 6);

    const pauses = statuses.flatMap((s) => (s.connected ? [] : [s.retryInMs]));
    expect(pauses.slice(0, 6)).toEqual([20, 40, 80, 80, 20, 40]);
    const failure = statuses.find((s) => !s.connected);
    expect(failure && !failure.connected && failure.error).toContain('manager unavailable');
    expect(changes[0]).toMatchObject({
      kind: 'node',
      nodeId: 'node2id',
      availability: { from: 'active', to: 'drain' },
    });
  });

  it('ends when aborted, mid-stream or while waiting to connect again', async () => {
    let open: ServerResponse | null = null;
    const { docker } = await fakeEngine((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write(line(nodeDown));
      open = response;
    });
    const streaming = watch(docker);
    await until('a change', () => streaming.changes.length === 1);
    streaming.controller.abort();
    await streaming.done;
    await until('the stream to be closed', () => (open as ServerResponse | null)?.destroyed === true);

    // A manager that never answers: the watch waits (a long pause) and ends at once when aborted.
    const unreachable = new Docker({ socketPath: '/nonexistent/berth-test.sock' });
    const waiting = watch(unreachable, { initialMs: 60_000, maxMs: 60_000 });
    await until('a failed attempt', () => waiting.statuses.length === 1);
    const started = Date.now();
    waiting.controller.abort();
    await waiting.done;
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('keeps watching when the callback throws', async () => {
    const { docker } = await fakeEngine((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write(line(nodeDown));
      response.write(line(scaled));
    });
    const controller = new AbortController();
    controllers.push(controller);
    const told: string[] = [];
    const errors: unknown[] = [];
    void watchSwarmChanges(
      docker,
      (change) => {
        told.push(change.kind);
        if (change.kind === 'node') throw new Error('handler failed');
      },
      { signal: controller.signal, onError: (error) => errors.push(error) },
    );
    await until('both changes', () => told.length === 2);
    expect(told).toEqual(['node', 'service']);
    expect(errors).toHaveLength(1);
  });
});
