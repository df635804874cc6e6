import { describe, expect, it } from 'vitest';
import { SIM_NODE_COUNT, simNodeHost, simNodes } from './sim-nodes.ts';
import { createSimRuntime } from './sim-runtime.ts';

const ctx = { log: async () => {}, signal: new AbortController().signal };
const target = {
  appId: 7,
  appHandle: 'shop',
  environmentId: 3,
  environmentHandle: 'production',
  stackName: 'shared-us-west-1',
  environmentDatabaseIds: [],
};

describe('simulated nodes', () => {
  it("lists the stack's three machines, one manager, each with the recorded containers it hosts", () => {
    const nodes = simNodes('acme', [
      { dockerName: 'web-1', host: simNodeHost('acme', 1) },
      { dockerName: 'web-2', host: simNodeHost('acme', 2) },
      { dockerName: 'db-1', host: simNodeHost('acme', 1) },
    ]);
    expect(nodes.map((node) => [node.hostname, node.address, node.role, node.state])).toEqual([
      ['ip-10-0-1-11.acme.sim', '10.0.1.11', 'manager', 'ready'],
      ['ip-10-0-2-12.acme.sim', '10.0.2.12', 'worker', 'ready'],
      ['ip-10-0-3-13.acme.sim', '10.0.3.13', 'worker', 'ready'],
    ]);
    expect(nodes.map((node) => node.containers.map((container) => container.name))).toEqual([
      [],
      ['db-1', 'web-1'],
      ['web-2'],
    ]);
    // The same stack has the same machines at every call.
    expect(simNodes('acme', []).map((node) => node.id)).toEqual(nodes.map((node) => node.id));
  });

  it('places a container recorded with a host of its own on one machine, always the same', () => {
    const recorded = [{ dockerName: 'old-web-1-abcd', host: 'ip-10-1-2-3.acme.sim' }];
    const first = simNodes('acme', recorded);
    expect(first.flatMap((node) => node.containers)).toHaveLength(1);
    expect(simNodes('acme', recorded)).toEqual(first);
  });

  it("spreads a service's containers over the machines, one each while there are machines to spare", async () => {
    const runtime = createSimRuntime({ stepMs: 0 });
    const service = {
      handle: 'web',
      processType: 'web',
      command: null,
      containerCount: SIM_NODE_COUNT,
      memoryLimitMb: 512,
      instanceClass: 'm5',
      recordedContainers: [],
      endpointIds: [],
    };
    const containers = await runtime.rollOut(ctx, target, service, { dockerRepo: 'r', dockerRef: 'x' }, {});
    const nodes = await runtime.listNodes?.({
      stackName: target.stackName,
      recorded: async () => containers.map(({ dockerName, host }) => ({ dockerName, host })),
    });
    expect(nodes?.map((node) => node.containers.length)).toEqual([1, 1, 1]);
  });
});

describe('simulated node availability', () => {
  const recorded = [
    { dockerName: 'web-1', host: simNodeHost('acme', 0) },
    { dockerName: 'web-2', host: simNodeHost('acme', 1) },
    { dockerName: 'db-1', host: simNodeHost('acme', 1) },
  ];
  const nodesTarget = { stackName: 'acme', recorded: async () => recorded };

  it('draining a machine moves its containers to the next active one; activating brings them back', async () => {
    const runtime = createSimRuntime({ stepMs: 0 });
    const before = await runtime.listNodes?.(nodesTarget);
    const drained = before?.[1]?.id ?? '';
    await runtime.setNodeAvailability?.(nodesTarget, drained, 'drain');
    const after = await runtime.listNodes?.(nodesTarget);
    expect(after?.map((node) => node.availability)).toEqual(['active', 'drain', 'active']);
    expect(after?.map((node) => node.containers.map((container) => container.name))).toEqual([
      ['web-1'],
      [],
      ['db-1', 'web-2'],
    ]);
    // Another stack's machines are not touched.
    const other = await runtime.listNodes?.({ stackName: 'other', recorded: async () => [] });
    expect(other?.map((node) => node.availability)).toEqual(['active', 'active', 'active']);

    await runtime.setNodeAvailability?.(nodesTarget, drained, 'active');
    expect(await runtime.listNodes?.(nodesTarget)).toEqual(before);
  });

  it('a paused machine keeps its containers but takes no new ones', async () => {
    const runtime = createSimRuntime({ stepMs: 0 });
    const nodes = (await runtime.listNodes?.(nodesTarget)) ?? [];
    await runtime.setNodeAvailability?.(nodesTarget, nodes[0]?.id ?? '', 'pause');
    await runtime.setNodeAvailability?.(nodesTarget, nodes[2]?.id ?? '', 'drain');
    const paused = await runtime.listNodes?.(nodesTarget);
    expect(paused?.[0]?.containers.map((container) => container.name)).toEqual(['web-1']);
    const service = {
      handle: 'web',
      processType: 'web',
      command: null,
      containerCount: 4,
      memoryLimitMb: 512,
      instanceClass: 'm5',
      recordedContainers: [],
      endpointIds: [],
    };
    const made = await runtime.rollOut(
      ctx,
      { ...target, stackName: 'acme' },
      service,
      { dockerRepo: 'r', dockerRef: 'x' },
      {},
    );
    const hosts = new Set(made.map((container) => container.host));
    expect([...hosts]).toEqual([simNodeHost('acme', 1)]);
  });

  it('refuses a node the stack does not have', async () => {
    const runtime = createSimRuntime({ stepMs: 0 });
    await expect(runtime.setNodeAvailability?.(nodesTarget, 'nope', 'drain')).rejects.toThrow(
      'Stack acme has no node nope',
    );
  });
});
