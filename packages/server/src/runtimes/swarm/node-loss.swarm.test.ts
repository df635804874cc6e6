import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  engineAt,
  localSwarmCluster,
  registryBaseImage,
  type SwarmCluster,
  swarmSuiteRuns,
} from '../../testing/swarm-cluster.ts';
import { LABELS } from '../docker/engine.ts';
import { watchSwarmChanges } from './swarm-events.ts';
import { createNodeLossTracker, describeLostNode, type LostNode } from './swarm-node-loss.ts';

// Issue 39: when node 3 stops answering, Berth learns once which of its app containers ran there (what
// the server then records on each app), from a real manager.

const runs = swarmSuiteRuns();
const suffix = Date.now().toString(36);
const installation = `nodeloss${process.pid}`;

describe.skipIf(!runs)('a lost node of a real cluster', () => {
  let cluster: SwarmCluster;
  let manager: Docker;
  const service = `berth-t-nodeloss-${suffix}`;
  const controller = new AbortController();
  const losses: LostNode[] = [];
  let watching: Promise<void>;

  beforeAll(async () => {
    cluster = await localSwarmCluster();
    manager = engineAt(cluster.managerHost);
    const image = await registryBaseImage(cluster);
    const labels = { [LABELS.installation]: installation, [LABELS.layer]: 'app' };
    await manager.createService({
      Name: service,
      Labels: labels,
      TaskTemplate: {
        ContainerSpec: { Image: image.name, Command: ['/bin/sleep', '100000'], Labels: labels },
        // One task per node: one runs on node 3.
        Placement: { MaxReplicas: 1 },
      },
      Mode: { Replicated: { Replicas: 3 } },
      EndpointSpec: { Mode: 'dnsrr' },
    } as never);
    const tracker = createNodeLossTracker();
    watching = watchSwarmChanges(
      manager,
      (change) => {
        if (tracker.startsLoss(change) && change.kind === 'node')
          void describeLostNode(manager, installation, change.nodeId, change.hostname).then((lost) =>
            losses.push(lost),
          );
      },
      { signal: controller.signal },
    );
  });

  afterAll(async () => {
    controller.abort();
    await watching;
    await manager
      ?.getService(service)
      .remove()
      .catch(() => undefined);
  });

  async function eventually<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  it('tells node 3 lost once, with the container of the service that ran there', async () => {
    const node3 = cluster.nodes.find((node) => node.index === 3);
    if (!node3) throw new Error('the cluster has fewer than 3 nodes');
    // The slot running on node 3 before it stops.
    const slot = await eventually('a task running on node 3', 90_000, async () => {
      const nodes = await manager.listNodes();
      const id = nodes.find((node) => node.Description?.Hostname === node3.hostname)?.ID;
      const tasks = await manager.listTasks({
        filters: { service: [service], 'desired-state': ['running'] },
      });
      return tasks.find((task) => task.NodeID === id && task.Status?.State === 'running')?.Slot;
    });
    await cluster.stop(3);
    try {
      const lost = await eventually('node 3 lost', 90_000, async () =>
        losses.find((loss) => loss.hostname === node3.hostname),
      );
      expect(lost.containers).toEqual([`${service}.${slot}`]);
      expect(lost.address).toBeTruthy();
    } finally {
      await cluster.start(3);
    }
    // Its return starts nothing, and the loss was told once.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(losses.filter((loss) => loss.hostname === node3.hostname)).toHaveLength(1);
  });
});
