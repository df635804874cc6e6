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
