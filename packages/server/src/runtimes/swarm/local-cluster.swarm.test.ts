import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageText } from '../../testing/docker-images.ts';
import {
  engineAt,
  localSwarmCluster,
  registryBaseImage,
  type SwarmCluster,
  swarmSuiteRuns,
} from '../../testing/swarm-cluster.ts';

// Issue 39: the one-machine cluster the swarm suite runs on does what a real one does where this project
// relies on it: nodes Ready, an overlay network between nodes, host-mode published ports reachable from this
// machine at each node's address, a registry every node pulls from, and a node that dies seen Down.

const runs = swarmSuiteRuns();
const suffix = Date.now().toString(36);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ''}`);
    await sleep(1000);
  }
}

describe.skipIf(!runs)('the local swarm cluster (npm run swarm:local)', () => {
  let cluster: SwarmCluster;
  let manager: Docker;
  let image: { name: string; repository: string; digest: string };
  const services: string[] = [];
  const network = `berth-t-overlay-${suffix}`;

  beforeAll(async () => {
    cluster = await localSwarmCluster();
    manager = engineAt(cluster.managerHost);
    image = await registryBaseImage(cluster);
  });

  afterAll(async () => {
    if (!manager) return;
    for (const name of services)
      await manager
        .getService(name)
        .remove()
        .catch(() => undefined);
    // The network goes once its tasks are gone.
    await eventually('the overlay network to be removed', 30_000, async () => {
      const left = await manager.listNetworks({ filters: { name: [network] } });
      for (const made of left) await manager.getNetwork(made.Id).remove();
      return left.length === 0 ? true : undefined;
    }).catch(() => undefined);
  });

  const nodeOf = (index: number) => {
    const node = cluster.nodes.find((n) => n.index === index);
    if (!node) throw new Error(`no node ${index}`);
    return node;
  };

  /** A service of the busybox image running `script` (PATH=/bin, $NODE its node's host name). */
  async function createService(
    name: string,
    script: string,
    options: { node?: number; global?: boolean; network?: string; publish?: boolean },
  ) {
    services.push(name);
    await manager.createService({
      Name: name,
      TaskTemplate: {
        ContainerSpec: {
          Image: image.name,
          Command: ['/bin/sh', '-c', script],
          Env: ['PATH=/bin', 'NODE={{.Node.Hostname}}'],
        },
        Placement: options.node ? { Constraints: [`node.hostname==${nodeOf(options.node).hostname}`] } : {},
        Networks: options.network ? [{ Target: options.network }] : [],
        RestartPolicy: { Condition: 'any', Delay: 1_000_000_000 },
      },
      Mode: options.global ? { Global: {} } : { Replicated: { Replicas: 1 } },
      // No VIPs (the kernel has no IPVS): tasks by DNS round robin, ports published on their node.
      EndpointSpec: {
        Mode: 'dnsrr',
        Ports: options.publish ? [{ Protocol: 'tcp', TargetPort: 8080, PublishMode: 'host' }] : [],
      },
    } as never);
  }

  /** The running tasks of a service: node address and host-mode published port, once `count` run. */
  function runningTasks(name: string, count: number) {
    return eventually(`${count} running task(s) of ${name}`, 90_000, async () => {
      const tasks = await manager.listTasks({ filters: { service: [name], 'desired-state': ['running'] } });
      const running = tasks.filter((task) => task.Status?.State === 'running');
      if (running.length !== count) return undefined;
      const nodes = await manager.listNodes();
      return running.map((task) => {
        const node = nodes.find((n) => n.ID === task.NodeID);
        return {
          hostname: node?.Description?.Hostname ?? '',
          address: node?.Status?.Addr ?? '',
          port: task.Status?.PortStatus?.Ports?.[0]?.PublishedPort ?? 0,
        };
      });
    });
  }

  it('has three nodes, all Ready, each labelled with its own Engine API', async () => {
    const nodes = await manager.listNodes();
    expect(nodes).toHaveLength(3);
    for (const expected of cluster.nodes) {
      const node = nodes.find((n) => n.Description?.Hostname === expected.hostname);
      expect(node?.Status?.State).toBe('ready');
      expect(node?.Status?.Addr).toBe(expected.address);
      expect(node?.Spec?.Labels?.['berth.engine']).toBe(expected.engineHost);
      expect((await engineAt(expected.engineHost).info()).Swarm.NodeAddr).toBe(expected.address);
    }
    expect(nodes.filter((n) => n.Spec?.Role === 'manager').map((n) => n.Description?.Hostname)).toEqual([
      nodeOf(1).hostname,
    ]);
  });

  it('has a registry: an image pushed from the manager is pulled by node 3 with the same digest', async () => {
    const node3 = engineAt(nodeOf(3).engineHost);
    await node3
      .getImage(image.name)
      .remove({ force: true })
      .catch(() => undefined);
    await new Promise<void>((resolve, reject) =>
      node3.pull(image.name, {}, (error: Error | null, stream?: NodeJS.ReadableStream) => {
        if (error || !stream) return reject(error ?? new Error('no pull stream'));
        node3.modem.followProgress(stream, (failed: Error | null) => (failed ? reject(failed) : resolve()));
      }),
    );
    const pulled = await node3.getImage(image.name).inspect();
    expect(pulled.RepoDigests).toContain(`${image.repository}@${image.digest}`);
  });

  it('answers from the host at each node address on a host-mode published port', async () => {
    const name = `berth-t-everywhere-${suffix}`;
    await createService(name, 'mkdir -p /w && echo $NODE > /w/index.html && exec httpd -f -p 8080 -h /w', {
      global: true,
      publish: true,
    });
    const tasks = await runningTasks(name, 3);
    expect(new Set(tasks.map((task) => task.hostname))).toEqual(
      new Set(cluster.nodes.map((n) => n.hostname)),
    );
    for (const task of tasks) {
      expect(task.port).toBeGreaterThan(0);
      const text = await eventually(`${task.address}:${task.port}`, 30_000, () =>
        pageText(task.address, task.port),
      );
      expect(text).toBe(task.hostname);
    }
  });

  it('carries traffic between a task on node 2 and one on node 3 over an overlay network (DNS round robin)', async () => {
    await manager.createNetwork({ Name: network, Driver: 'overlay', Attachable: true });
    const server = `berth-t-server-${suffix}`;
    await createService(
      server,
      'mkdir -p /w && echo from-$NODE > /w/index.html && exec httpd -f -p 8080 -h /w',
      {
        node: 2,
        network,
      },
    );
    // The client on node 3 serves what it fetched from the server by its service name.
    const client = `berth-t-client-${suffix}`;
    await createService(
      client,
      `mkdir -p /w && until busybox wget -q -O /w/index.html http://${server}:8080/; do sleep 1; done && exec httpd -f -p 8080 -h /w`,
      { node: 3, network, publish: true },
    );
    const [task] = await runningTasks(client, 1);
    expect(task?.hostname).toBe(nodeOf(3).hostname);
    const text = await eventually('the client to have fetched the server page', 60_000, async () => {
      const page = await pageText(nodeOf(3).address, task?.port ?? 0);
      return page.startsWith('from-') ? page : undefined;
    });
    expect(text).toBe(`from-${nodeOf(2).hostname}`);
  });

  it('sees node 3 Down within 60 s once it stops, and Ready again once it starts', async () => {
    const stateOf3 = async () =>
      (await manager.listNodes()).find((n) => n.Description?.Hostname === nodeOf(3).hostname)?.Status?.State;
    const stopped = Date.now();
    await cluster.stop(3);
    try {
      await eventually('node 3 to be down', 60_000, async () =>
        (await stateOf3()) === 'down' ? true : undefined,
      );
      expect(Date.now() - stopped).toBeLessThan(60_000);
      // Its engine is gone with it.
      await expect(engineAt(nodeOf(3).engineHost).ping()).rejects.toThrow();
    } finally {
      await cluster.start(3);
    }
    expect(await stateOf3()).toBe('ready');
  });
});
