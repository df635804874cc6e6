import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  engineAt,
  localSwarmCluster,
  type SwarmCluster,
  swarmSuiteRuns,
} from '../../testing/swarm-cluster.ts';
import { isNodeLost, type SwarmChange, watchSwarmChanges } from './swarm-events.ts';

// Issue 39: Berth learns of a lost node and of service changes from the manager's event stream, on a real
// cluster: node 2 dies and comes back, a service is made and scaled.

const runs = swarmSuiteRuns();
const suffix = Date.now().toString(36);

async function until<T>(what: string, timeoutMs: number, find: () => T | undefined): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.skipIf(!runs)('Swarm changes from a real manager', () => {
  let cluster: SwarmCluster;
  let manager: Docker;
  const controller = new AbortController();
  const changes: SwarmChange[] = [];
  let watching: Promise<void>;
  const service = `berth-t-events-${suffix}`;

  beforeAll(async () => {
    cluster = await localSwarmCluster();
    manager = engineAt(cluster.managerHost);
    watching = watchSwarmChanges(manager, (change) => changes.push(change), { signal: controller.signal });
  });

  afterAll(async () => {
    controller.abort();
    await watching;
    await manager
      ?.getService(service)
      .remove()
      .catch(() => undefined);
  });

  it('tells a service made and scaled', async () => {
    const made = (await manager.createService({
      Name: service,
      TaskTemplate: {
        ContainerSpec: { Image: `${cluster.registry}/berth-test/none:1`, Command: ['sleep', '1'] },
      },
      Mode: { Replicated: { Replicas: 0 } },
      EndpointSpec: { Mode: 'dnsrr' },
    } as never)) as { id?: string; ID?: string };
    const id = made.id ?? made.ID ?? '';
    const created = await until('the service made', 30_000, () =>
      changes.find((c) => c.kind === 'service' && c.action === 'create' && c.serviceId === id),
    );
    expect(created).toMatchObject({ name: service });
    const spec = await manager.getService(id).inspect();
    await manager
      .getService(id)
      .update({ version: spec.Version.Index, ...spec.Spec, Mode: { Replicated: { Replicas: 2 } } } as never);
    const scaled = await until('the service scaled', 30_000, () =>
      changes.find((c) => c.kind === 'service' && c.serviceId === id && c.replicas !== undefined),
    );
    expect(scaled).toMatchObject({ action: 'update', name: service, replicas: { from: '0', to: '2' } });
  });

  it('tells node 2 lost when it stops, and ready again when it starts', async () => {
    const node2 = cluster.nodes.find((n) => n.index === 2);
    const stopped = Date.now();
    await cluster.stop(2);
    try {
      const lost = await until('node 2 lost', 60_000, () =>
        changes.find((c) => isNodeLost(c) && c.kind === 'node' && c.hostname === node2?.hostname),
      );
      expect(lost).toMatchObject({ action: 'update', state: { from: 'ready', to: 'down' } });
      expect(Date.now() - stopped).toBeLessThan(60_000);
    } finally {
      await cluster.start(2);
    }
    await until('node 2 ready', 60_000, () =>
      changes.find((c) => c.kind === 'node' && c.hostname === node2?.hostname && c.state?.to === 'ready'),
    );
  });
});
