import { describe, expect, it } from 'vitest';
import {
  chooseDatabaseNode,
  databaseServiceSpec,
  engineAt,
  type NodeCandidate,
  registryName,
} from './swarm-databases.ts';
import { environmentNetworkName } from './swarm-networks.ts';

const MB = 1024 * 1024;

function node(id: string, overrides: Partial<NodeCandidate> = {}): NodeCandidate {
  return {
    id,
    hostname: `host-${id}`,
    role: 'worker',
    available: true,
    engine: `unix:///tmp/${id}.sock`,
    memoryBytes: 4096 * MB,
    reservedBytes: 0,
    ...overrides,
  };
}

describe('chooseDatabaseNode', () => {
  it('takes a worker before a manager with more memory free', () => {
    const chosen = chooseDatabaseNode(
      [node('m', { role: 'manager', memoryBytes: 16_384 * MB }), node('w', { memoryBytes: 2048 * MB })],
      1024 * MB,
    );
    expect(chosen).toMatchObject({ id: 'w' });
  });

  it('takes the worker with the most memory unreserved, ties by host name', () => {
    const nodes = [node('a', { reservedBytes: 1024 * MB }), node('c'), node('b')];
    expect(chooseDatabaseNode(nodes, 512 * MB)).toMatchObject({ id: 'b' });
    // Once b holds a database, the next goes to c.
    nodes[2] = node('b', { reservedBytes: 1024 * MB });
    expect(chooseDatabaseNode(nodes, 512 * MB)).toMatchObject({ id: 'c' });
  });

  it('leaves out nodes down, drained, without an Engine API, avoided, or without the memory', () => {
    const nodes = [
      node('down', { available: false }),
      node('blind', { engine: null }),
      node('small', { reservedBytes: 3584 * MB }),
      node('avoided'),
      node('manager', { role: 'manager' }),
    ];
    expect(chooseDatabaseNode(nodes, 1024 * MB, ['avoided'])).toMatchObject({ id: 'manager' });
    expect(chooseDatabaseNode(nodes.slice(0, 3), 1024 * MB)).toEqual({
      problem: 'No node has 1024 MB of memory unreserved for the database (the most is 512 MB)',
    });
    expect(chooseDatabaseNode(nodes.slice(0, 2), 1024 * MB)).toEqual({
      problem: expect.stringMatching(/^No node can take a database: none is ready and active/),
    });
  });
});

describe('databaseServiceSpec', () => {
  it('pins one replica to its node with its volume, memory limit and reservation, by name on the network', () => {
    const spec = databaseServiceSpec({
      name: 'orders-7-abcdef12',
      image: '10.76.0.1:5076/berth-databases/postgresql:15@sha256:00',
      nodeId: 'node-2',
      network: 'berth-abcdef12-env-3',
      volume: 'berth-abcdef12-db-7',
      env: ['POSTGRES_USER=u'],
      labels: { 'io.berth.database': 'shared/prod/db-7' },
      engine: { dataPath: '/var/lib/postgresql/data', stopSignal: 'SIGINT' },
      memoryMb: 512,
      stopTimeoutSeconds: 10,
    }) as unknown as {
      Mode: unknown;
      EndpointSpec: unknown;
      UpdateConfig: { Order: string };
      TaskTemplate: {
        Placement: unknown;
        Resources: unknown;
        Networks: unknown;
        ContainerSpec: { Mounts: unknown; Args?: unknown; StopGracePeriod: number };
      };
    };
    expect(spec.Mode).toEqual({ Replicated: { Replicas: 1 } });
    expect(spec.TaskTemplate.Placement).toEqual({ Constraints: ['node.id==node-2'] });
    expect(spec.TaskTemplate.Resources).toEqual({
      Limits: { MemoryBytes: 512 * MB },
      Reservations: { MemoryBytes: 512 * MB },
    });
    expect(spec.TaskTemplate.ContainerSpec.Mounts).toEqual([
      { Type: 'volume', Source: 'berth-abcdef12-db-7', Target: '/var/lib/postgresql/data' },
    ]);
    expect(spec.TaskTemplate.ContainerSpec.Args).toBeUndefined();
    expect(spec.TaskTemplate.ContainerSpec.StopGracePeriod).toBe(10e9);
    expect(spec.TaskTemplate.Networks).toEqual([
      { Target: 'berth-abcdef12-env-3', Aliases: ['orders-7-abcdef12'] },
    ]);
    // No VIP (no IPVS here), and never two engines on one data directory.
    expect(spec.EndpointSpec).toEqual({ Mode: 'dnsrr' });
    expect(spec.UpdateConfig.Order).toBe('stop-first');
  });
});

describe('registryName', () => {
  it('puts the image under berth-databases/, without its own registry host', () => {
    expect(registryName('r:5000', 'postgres:16')).toEqual({
      repository: 'r:5000/berth-databases/postgres',
      tag: '16',
    });
    expect(registryName('r:5000', 'berth-test/postgresql:15')).toEqual({
      repository: 'r:5000/berth-databases/berth-test/postgresql',
      tag: '15',
    });
    expect(registryName('r:5000', 'ghcr.io/acme/pg')).toEqual({
      repository: 'r:5000/berth-databases/acme/pg',
      tag: 'latest',
    });
    expect(registryName('r:5000', 'localhost:5000/pg:1@sha256:ab')).toEqual({
      repository: 'r:5000/berth-databases/pg',
      tag: '1',
    });
  });
});

describe('engineAt', () => {
  it('speaks to a unix socket or a tcp address, and refuses anything else', () => {
    type Modem = { socketPath?: string; host?: string; port?: number; protocol?: string };
    expect((engineAt('unix:///run/node2.sock').modem as Modem).socketPath).toBe('/run/node2.sock');
    const remote = engineAt('tcp://10.0.0.5:2375').modem as Modem;
    expect([remote.host, remote.port, remote.protocol]).toEqual(['10.0.0.5', 2375, 'http']);
    expect(() => engineAt('ssh://node')).toThrow(/not an Engine API address/);
    expect(() => engineAt(`unix://${'a'.repeat(600)}`)).toThrow(/at most 500/);
  });
});

describe('environmentNetworkName', () => {
  it('names the overlay network as the docker runtime names its bridge', () => {
    expect(environmentNetworkName('abcdef1234567890', 42)).toBe('berth-abcdef12-env-42');
  });
});
