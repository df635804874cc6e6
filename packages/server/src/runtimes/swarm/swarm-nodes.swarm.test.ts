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
import type { RuntimeNode } from '../runtime.ts';
import { listSwarmNodes } from './swarm-nodes.ts';

// Issue 39: the stack page's nodes of a real 3-node cluster: each node's facts, and where this Berth's
// service's tasks run, by the names their containers have on the nodes' own engines.

const runs = swarmSuiteRuns();
const suffix = Date.now().toString(36);
const installation = `nodes${suffix}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
    await sleep(1000);
  }
}

describe.skipIf(!runs)('listSwarmNodes on the local cluster', () => {
  let cluster: SwarmCluster;
  let manager: Docker;
  const mine = `berth-t-nodes-${suffix}`;
  const theirs = `berth-t-theirs-${suffix}`;

  /** A service of the busybox image that sleeps, `replicas` of it, at most one per node. */
  async function createService(
    name: string,
    image: string,
    labels: Record<string, string>,
    replicas: number,
  ) {
    await manager.createService({
      Name: name,
      Labels: labels,
      TaskTemplate: {
        ContainerSpec: { Image: image, Command: ['/bin/sh', '-c', 'exec sleep 3600'], Env: ['PATH=/bin'] },
        Placement: { MaxReplicas: 1 },
        RestartPolicy: { Condition: 'any', Delay: 1_000_000_000 },
      },
      Mode: { Replicated: { Replicas: replicas } },
      EndpointSpec: { Mode: 'dnsrr' },
    } as never);
  }

  /** The nodes once every node runs `count` containers of this Berth in state running. */
  const settled = (count: (node: RuntimeNode) => number) =>
    eventually('the tasks to run where expected', 90_000, async () => {
      const nodes = await listSwarmNodes(manager, installation);
      const ready = nodes.every(
        (node) =>
          node.containers.length === count(node) && node.containers.every((c) => c.state === 'running'),
      );
      return ready ? nodes : undefined;
    });

  beforeAll(async () => {
    cluster = await localSwarmCluster();
    manager = engineAt(cluster.managerHost);
    const image = (await registryBaseImage(cluster)).name;
    await createService(mine, image, { [LABELS.managed]: 'true', [LABELS.installation]: installation }, 3);
    // Another Berth's service on the same cluster: none of its tasks is this Berth's container.
    await createService(
      theirs,
      image,
      { [LABELS.managed]: 'true', [LABELS.installation]: 'someone-else' },
      1,
    );
  });

  afterAll(async () => {
    if (!manager) return;
    for (const name of [mine, theirs])
      await manager
        .getService(name)
        .remove()
        .catch(() => undefined);
    const third = cluster.nodes.find((node) => node.index === 3);
    const node = (await manager.listNodes()).find((n) => n.Description?.Hostname === third?.hostname);
    // Node 3 takes tasks again for the files after this one.
    if (node?.Spec?.Availability === 'drain')
      await manager
        .getNode(node.ID)
        .update({ version: node.Version?.Index, ...node.Spec, Availability: 'active' });
  });

  it("lists the three nodes with their facts and one of the service's containers on each", async () => {
    const nodes = await settled(() => 1);
    expect(nodes.map((node) => node.hostname)).toEqual(cluster.nodes.map((node) => node.hostname).sort());
    for (const expected of cluster.nodes) {
      const node = nodes.find((n) => n.hostname === expected.hostname);
      expect(node).toMatchObject({
        address: expected.address,
        role: expected.index === 1 ? 'manager' : 'worker',
        leader: expected.index === 1,
        state: 'ready',
        availability: 'active',
      });
      expect(node?.memoryBytes).toBeGreaterThan(0);
      expect(node?.cpus).toBeGreaterThan(0);
      expect(node?.engineVersion).toMatch(/^\d+\.\d+/);
      // The name is the one the container has on that node's own engine.
      const [container] = node?.containers ?? [];
      expect(container?.name).toMatch(new RegExp(`^${mine}\\.[1-3]\\.[a-z0-9]{25}$`));
      // And by its slot, which the swarm runtime records an app's containers by.
      expect(container?.recordedAs).toEqual([container?.name.split('.').slice(0, 2).join('.')]);
      const onNode = await engineAt(expected.engineHost).listContainers();
      expect(onNode.flatMap((c) => c.Names.map((name) => name.slice(1)))).toContain(container?.name);
    }
    expect(nodes.flatMap((node) => node.containers.map((c) => c.name.split('.')[1])).sort()).toEqual([
      '1',
      '2',
      '3',
    ]);
  });

  it('shows a drained node as drain, with its task gone from it and pending elsewhere at one per node', async () => {
    const third = cluster.nodes.find((node) => node.index === 3);
    const node = (await manager.listNodes()).find((n) => n.Description?.Hostname === third?.hostname);
    if (!node) throw new Error('no node 3');
    await manager
      .getNode(node.ID)
      .update({ version: node.Version?.Index, ...node.Spec, Availability: 'drain' });
    const nodes = await settled((n) => (n.hostname === third?.hostname ? 0 : 1));
    expect(nodes.find((n) => n.hostname === third?.hostname)?.availability).toBe('drain');
  });
});
