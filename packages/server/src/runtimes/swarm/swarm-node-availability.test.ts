import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Docker from 'dockerode';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setSwarmNodeAvailability } from './swarm-node-availability.ts';

// The order of the updates the stack page's Drain makes of a manager: a local HTTP server plays the Engine
// API's /nodes, keeping each node's availability and version as an engine does.

type FakeNode = { ID: string; Version: { Index: number }; Spec: { Role: string; Availability: string } };
let nodes: FakeNode[] = [];
/** Services by the node their label pins them to (databases). */
let pinned: { ID: string; Spec: { Name: string; Labels: Record<string, string> } }[] = [];
const updates: { id: string; version: string | null; availability: unknown }[] = [];
let server: Server;
let manager: Docker;

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://engine');
    if (request.method === 'GET' && url.pathname.endsWith('/nodes')) {
      const listed = nodes.map((node) => ({ ...node, Description: { Hostname: `host-${node.ID}` } }));
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(listed));
      return;
    }
    if (request.method === 'GET' && url.pathname.endsWith('/services')) {
      const wanted: string[] = JSON.parse(url.searchParams.get('filters') ?? '{}').label ?? [];
      const listed = pinned.filter((service) =>
        wanted.every((label) => {
          const [key = '', value] = label.split('=');
          return service.Spec.Labels[key] === value;
        }),
      );
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(listed));
      return;
    }
    const update = /\/nodes\/([a-z0-9]{1,64})\/update$/.exec(url.pathname);
    if (request.method === 'POST' && update) {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const node = nodes.find((candidate) => candidate.ID === update[1]);
        const version = url.searchParams.get('version');
        if (!node || String(node.Version.Index) !== version) {
          response
            .writeHead(500, { 'Content-Type': 'application/json' })
            .end('{"message":"update out of sequence"}');
          return;
        }
        const spec = JSON.parse(body || '{}');
        updates.push({ id: node.ID, version, availability: spec.Availability });
        node.Spec = { Role: spec.Role, Availability: spec.Availability };
        node.Version.Index += 1;
        response.writeHead(200).end();
      });
      return;
    }
    response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"no such thing"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  manager = new Docker({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, protocol: 'http' });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  updates.length = 0;
  pinned = [];
  nodes = [
    { ID: 'aaa1', Version: { Index: 10 }, Spec: { Role: 'worker', Availability: 'active' } },
    { ID: 'bbb2', Version: { Index: 20 }, Spec: { Role: 'worker', Availability: 'drain' } },
  ];
});

describe('setSwarmNodeAvailability', () => {
  it('drains an active node by pausing it first, each update at the version it was read at', async () => {
    const result = await setSwarmNodeAvailability(manager, 'aaa1', 'drain');
    expect(updates).toEqual([
      { id: 'aaa1', version: '10', availability: 'pause' },
      { id: 'aaa1', version: '11', availability: 'drain' },
    ]);
    expect(result).toEqual({ id: 'aaa1', hostname: 'host-aaa1', previous: 'active', availability: 'drain' });
  });

  it("refuses to drain a node that holds a database's data, and changes nothing", async () => {
    pinned = [{ ID: 's1', Spec: { Name: 'berth-db-orders', Labels: { 'io.berth.node': 'aaa1' } } }];
    await expect(setSwarmNodeAvailability(manager, 'aaa1', 'drain')).rejects.toThrow(
      'Node host-aaa1 holds the data of 1 database(s) (berth-db-orders): drained, they would stop, since their data cannot move. Restore each from a backup onto another node first',
    );
    expect(updates).toEqual([]);
    // Pausing keeps what runs: allowed.
    await setSwarmNodeAvailability(manager, 'aaa1', 'pause');
    expect(updates).toEqual([{ id: 'aaa1', version: '10', availability: 'pause' }]);
  });

  it('leaves a drained node drained, and activates it in one update', async () => {
    await setSwarmNodeAvailability(manager, 'bbb2', 'drain');
    expect(updates).toEqual([]);
    const result = await setSwarmNodeAvailability(manager, 'bbb2', 'active');
    expect(updates).toEqual([{ id: 'bbb2', version: '20', availability: 'active' }]);
    expect(result).toMatchObject({ previous: 'drain', availability: 'active' });
  });

  it('fails on a node the cluster does not have, changing nothing', async () => {
    await expect(setSwarmNodeAvailability(manager, 'zzz9', 'drain')).rejects.toThrow(
      'The cluster has no node zzz9',
    );
    expect(updates).toEqual([]);
  });
});
