import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  engineAt,
  localSwarmCluster,
  registryBaseImage,
  type SwarmCluster,
  swarmSuiteRuns,
} from '../../testing/swarm-cluster.ts';
import { setNodeAvailability } from './swarm-node-admin.ts';

// Issue 39: draining a node (npm run admin -- drain-node) moves its tasks to the other nodes first; an
// active node takes tasks again.

const runs = swarmSuiteRuns();
const suffix = Date.now().toString(36);

async function eventually<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

describe.skipIf(!runs)('draining a node of a real cluster', () => {
  let cluster: SwarmCluster;
  let manager: Docker;
  const service = `berth-t-drain-${suffix}`;

  beforeAll(async () => {
    cluster = await localSwarmCluster();
    manager = engineAt(cluster.managerHost);
    const image = await registryBaseImage(cluster);
    await manager.createService({
      Name: service,
      TaskTemplate: {
        ContainerSpec: { Image: image.name, Command: ['/bin/sleep', '100000'] },
        // One task per node while there are nodes to spare.
        Placement: { MaxReplicas: 1 },
      },
      Mode: { Replicated: { Replicas: 2 } },
      EndpointSpec: { Mode: 'dnsrr' },
    } as never);
  });

  afterAll(async () => {
    if (!manager) return;
    await setNodeAvailability(manager, cluster.nodes[1]?.hostname ?? '', 'active').catch(() => undefined);
    await manager
      .getService(service)
      .remove()
      .catch(() => undefined);
  });

  /** Host names of the nodes running the service's tasks, once `count` run. */
  function runningOn(count: number) {
    return eventually(`${count} running tasks`, 90_000, async () => {
      const tasks = await manager.listTasks({
        filters: { service: [service], 'desired-state': ['running'] },
      });
      const running = tasks.filter((task) => task.Status?.State === 'running');
      if (running.length !== count) return undefined;
      const nodes = await manager.listNodes();
      return running
        .map((task) => nodes.find((node) => node.ID === task.NodeID)?.Description?.Hostname)
        .sort();
    });
  }

  it('moves the tasks of a drained node to the others, and lets it take tasks again when active', async () => {
    const [, node2, node3] = cluster.nodes;
    if (!node2 || !node3) throw new Error('the cluster has fewer than 3 nodes');
    // Node 1 (the manager) drained: the tasks run on 2 and 3.
    await setNodeAvailability(manager, node1Name(), 'drain');
    try {
      expect(await runningOn(2)).toEqual([node2.hostname, node3.hostname]);
      await setNodeAvailability(manager, node1Name(), 'active');
      const drained = await setNodeAvailability(manager, node2.hostname, 'drain');
      expect(drained).toMatchObject({ previous: 'active', availability: 'drain' });
      const after = await eventually('node 2 to run none of the tasks', 90_000, async () => {
        const on = await runningOn(2);
        return on.includes(node2.hostname) ? undefined : on;
      });
      expect(after).toEqual([cluster.nodes[0]?.hostname, node3.hostname].sort());
      const node = (await manager.listNodes()).find((n) => n.Description?.Hostname === node2.hostname);
      expect(node?.Spec?.Availability).toBe('drain');
      expect(await setNodeAvailability(manager, node2.hostname, 'active')).toMatchObject({
        previous: 'drain',
      });
    } finally {
      await setNodeAvailability(manager, node1Name(), 'active');
    }
  });

  const node1Name = () => cluster.nodes[0]?.hostname ?? '';
});
