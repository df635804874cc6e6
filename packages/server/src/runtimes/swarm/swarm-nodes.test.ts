import { describe, expect, it } from 'vitest';
import { LABELS } from '../docker/engine.ts';
import { swarmNodesOf, taskContainerName } from './swarm-nodes.ts';

const node = (id: string, hostname: string, extra: Record<string, unknown> = {}) => ({
  ID: id,
  Spec: { Role: 'worker', Availability: 'active' },
  Description: {
    Hostname: hostname,
    Resources: { NanoCPUs: 2_000_000_000, MemoryBytes: 4 * 1024 ** 3 },
    Engine: { EngineVersion: '26.1.5' },
  },
  Status: { State: 'ready', Addr: `10.77.${id.slice(-1)}.2` },
  ...extra,
});

describe('swarm nodes', () => {
  it("lists each node's facts and this Berth's running task containers on it", () => {
    const nodes = swarmNodesOf(
      [
        node('n2', 'berth-swarm79-2', {
          Spec: { Role: 'worker', Availability: 'drain' },
          Status: { State: 'down', Addr: '10.77.2.2' },
        }),
        node('n1', 'berth-swarm79-1', {
          Spec: { Role: 'manager', Availability: 'active' },
          // Some engines report a manager's status address as 0.0.0.0: its manager address says it.
          Status: { State: 'ready', Addr: '0.0.0.0' },
          ManagerStatus: { Leader: true, Addr: '10.77.1.2:2377' },
        }),
      ],
      [
        { ID: 's1', Spec: { Name: 'berth-abc-app-7-web', Labels: { [LABELS.installation]: 'abc' } } },
        { ID: 's2', Spec: { Name: 'someone-else', Labels: { [LABELS.installation]: 'xyz' } } },
      ],
      [
        {
          ID: 't1',
          ServiceID: 's1',
          NodeID: 'n1',
          Slot: 1,
          DesiredState: 'running',
          Status: { State: 'running' },
        },
        {
          ID: 't2',
          ServiceID: 's1',
          NodeID: 'n2',
          Slot: 2,
          DesiredState: 'running',
          Status: { State: 'starting' },
        },
        // A task being replaced, another Berth's, and one not placed yet are no node's container.
        {
          ID: 't3',
          ServiceID: 's1',
          NodeID: 'n1',
          Slot: 2,
          DesiredState: 'shutdown',
          Status: { State: 'running' },
        },
        {
          ID: 't4',
          ServiceID: 's2',
          NodeID: 'n1',
          Slot: 1,
          DesiredState: 'running',
          Status: { State: 'running' },
        },
        { ID: 't5', ServiceID: 's1', Slot: 3, DesiredState: 'running', Status: { State: 'pending' } },
      ],
      'abc',
    );
    expect(nodes).toEqual([
      {
        id: 'n1',
        hostname: 'berth-swarm79-1',
        address: '10.77.1.2',
        role: 'manager',
        leader: true,
        state: 'ready',
        availability: 'active',
        memoryBytes: 4 * 1024 ** 3,
        cpus: 2,
        engineVersion: '26.1.5',
        containers: [
          { name: 'berth-abc-app-7-web.1.t1', state: 'running', recordedAs: ['berth-abc-app-7-web.1'] },
        ],
      },
      {
        id: 'n2',
        hostname: 'berth-swarm79-2',
        address: '10.77.2.2',
        role: 'worker',
        leader: false,
        state: 'down',
        availability: 'drain',
        memoryBytes: 4 * 1024 ** 3,
        cpus: 2,
        engineVersion: '26.1.5',
        containers: [
          { name: 'berth-abc-app-7-web.2.t2', state: 'starting', recordedAs: ['berth-abc-app-7-web.2'] },
        ],
      },
    ]);
  });

  it("names a task's container as Docker does", () => {
    expect(taskContainerName('svc', { ID: 'abc', Slot: 3 })).toBe('svc.3.abc');
    expect(taskContainerName('svc', { ID: 'abc', NodeID: 'node9' })).toBe('svc.node9.abc');
  });
});
