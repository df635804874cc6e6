import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminUsageError, nodeAvailabilityCommand, runAdminCommand } from '../../admin-commands.ts';
import type { Database } from '../../db/client.ts';
import { stacks } from '../../db/schema.ts';
import { openTestDatabase } from '../../testing/test-database.ts';
import { findNode, SwarmNodeError, setNodeAvailability } from './swarm-node-admin.ts';

// `npm run admin -- drain-node STACK NODE` and `activate-node`: what they refuse, and the request they make
// of a manager (a local HTTP server playing the Engine API's /nodes). drain.swarm.test.ts drains a node of
// a real cluster.

const nodeSpec = (availability: string) => ({
  Role: 'worker',
  Availability: availability,
  Labels: { zone: 'a' },
});
const engineNodes = [
  {
    ID: 'aov0e8rh7cfhyjl4bx90vssow',
    Version: { Index: 41 },
    Spec: nodeSpec('active'),
    Description: { Hostname: 'worker-2' },
    Status: { State: 'ready', Addr: '10.0.0.2' },
  },
  {
    ID: 'kir86fo2afo00xt04ksfveq46',
    Version: { Index: 57 },
    Spec: nodeSpec('drain'),
    Description: { Hostname: 'worker-3' },
    Status: { State: 'ready', Addr: '10.0.0.3' },
  },
  {
    ID: 'kiz11aaaaaaaaaaaaaaaaaaaa',
    Version: { Index: 3 },
    Spec: nodeSpec('active'),
    Description: { Hostname: 'twin' },
    Status: { State: 'ready', Addr: '10.0.0.4' },
  },
  {
    ID: 'qqq22bbbbbbbbbbbbbbbbbbbb',
    Version: { Index: 4 },
    Spec: nodeSpec('active'),
    Description: { Hostname: 'twin' },
    Status: { State: 'ready', Addr: '10.0.0.5' },
  },
];

let server: Server;
let manager: Docker;
const updates: { url: string; body: Record<string, unknown> }[] = [];
let database: Database;

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://engine');
    if (request.method === 'GET' && url.pathname.endsWith('/nodes')) {
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(engineNodes));
      return;
    }
    // No database is pinned to any node here (swarm-node-availability.test.ts refuses a drain that would stop one).
    if (request.method === 'GET' && url.pathname.endsWith('/services')) {
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('[]');
      return;
    }
    if (request.method === 'POST' && url.pathname.endsWith('/update')) {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        updates.push({ url: request.url ?? '', body: JSON.parse(body || '{}') });
        response.writeHead(200).end();
      });
      return;
    }
    response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"no such thing"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  manager = new Docker({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, protocol: 'http' });
  database = await openTestDatabase();
  await database.db.insert(stacks).values([
    { name: 'swarm-east', region: 'eu-west-1', runtime: 'swarm' },
    { name: 'one-machine', region: 'eu-west-1', runtime: 'docker' },
  ]);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await database?.close();
});

describe('setNodeAvailability', () => {
  it('updates the node with its whole spec at the version it was read at', async () => {
    updates.length = 0;
    const result = await setNodeAvailability(manager, 'worker-2', 'drain');
    expect(result).toEqual({
      id: 'aov0e8rh7cfhyjl4bx90vssow',
      hostname: 'worker-2',
      previous: 'active',
      availability: 'drain',
    });
    expect(updates).toHaveLength(1);
    const [update] = updates;
    const url = new URL(update?.url ?? '', 'http://engine');
    expect(url.pathname).toMatch(/\/nodes\/aov0e8rh7cfhyjl4bx90vssow\/update$/);
    expect(url.searchParams.get('version')).toBe('41');
    expect(update?.body).toMatchObject({ Role: 'worker', Availability: 'drain', Labels: { zone: 'a' } });
  });

  it('finds a node by id, by a start of its id, or by host name; changes nothing that is already so', async () => {
    updates.length = 0;
    expect((await findNode(manager, 'kir86fo2afo00xt04ksfveq46')).Description?.Hostname).toBe('worker-3');
    expect((await findNode(manager, 'aov0')).Description?.Hostname).toBe('worker-2');
    expect(await setNodeAvailability(manager, 'worker-3', 'drain')).toMatchObject({ previous: 'drain' });
    expect(updates).toHaveLength(0);
  });

  it('refuses a reference that is empty, too long, ambiguous or of no node, and an unknown availability', async () => {
    await expect(findNode(manager, '')).rejects.toThrow(SwarmNodeError);
    await expect(findNode(manager, 'x'.repeat(129))).rejects.toThrow('1 to 128 characters');
    await expect(findNode(manager, 'twin')).rejects.toThrow(
      '2 nodes have the host name twin: name the node by its id',
    );
    await expect(findNode(manager, 'ki')).rejects.toThrow("More than one node's id starts with ki");
    await expect(findNode(manager, 'worker-9')).rejects.toThrow(
      'The cluster has no node worker-9; its nodes: worker-2 (aov0e8rh7cfhyjl4bx90vssow)',
    );
    await expect(setNodeAvailability(manager, 'worker-2', 'off' as never)).rejects.toThrow(
      'Availability must be one of active, pause, drain',
    );
  });
});

describe('npm run admin -- drain-node / activate-node', () => {
  const run = (...argv: string[]) => nodeAvailabilityCommand(database.db, argv, () => manager);

  it('drains and activates a node of a swarm stack, saying what changed', async () => {
    expect(await run('drain-node', 'swarm-east', 'worker-2')).toBe(
      'Node worker-2 (aov0e8rh7cfhyjl4bx90vssow) of stack swarm-east is now drained (was active): Swarm moves its tasks to the other nodes and schedules none there.',
    );
    expect(await run('activate-node', 'swarm-east', 'worker-3')).toContain('is now active (was drain)');
    expect(await run('drain-node', 'swarm-east', 'worker-3')).toContain('was already drain');
  });

  it('refuses missing arguments, an unknown stack, a stack of another runtime and an unknown node', async () => {
    await expect(run('drain-node', 'swarm-east')).rejects.toThrow('drain-node takes a stack and a node');
    await expect(run('drain-node', 'swarm-east', 'worker-2', 'extra')).rejects.toThrow(AdminUsageError);
    await expect(run('drain-node', 'nowhere', 'worker-2')).rejects.toThrow('No stack named nowhere');
    await expect(run('drain-node', 's'.repeat(129), 'worker-2')).rejects.toThrow(
      'No stack has so long a name',
    );
    await expect(run('drain-node', 'one-machine', 'worker-2')).rejects.toThrow(
      'Stack one-machine runs on the docker runtime: only a swarm stack has nodes to drain or activate',
    );
    // The engine's refusal comes back as the command's message, not a stack trace.
    await expect(run('drain-node', 'swarm-east', 'worker-9')).rejects.toThrow(AdminUsageError);
    await expect(run('activate-node', 'swarm-east', 'twin')).rejects.toThrow('name the node by its id');
  });

  it('is dispatched from runAdminCommand, which needs the configured swarm manager', async () => {
    await expect(runAdminCommand(database.db, ['drain-node', 'swarm-east', 'worker-2'])).rejects.toThrow(
      'No swarm cluster is configured: BERTH_RUNTIME=swarm and BERTH_SWARM_HOST name its manager',
    );
    await expect(runAdminCommand(database.db, ['activate-node', 'one-machine', 'x'])).rejects.toThrow(
      'runs on the docker runtime',
    );
    expect(
      await runAdminCommand(database.db, ['drain-node', 'swarm-east', 'worker-3'], {
        swarmManager: () => manager,
      }),
    ).toContain('was already drain');
  });
});
