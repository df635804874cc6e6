import { describe, expect, it } from 'vitest';
import { LABELS } from '../docker/engine.ts';
import type { AppTarget, ServicePlan } from '../runtime.ts';
import {
  limitHolds,
  madeFrom,
  maxReplicasPerNode,
  nodeAddress,
  parseSlotName,
  type SwarmNode,
  type SwarmTask,
  slotName,
  swarmImageRepository,
  swarmServiceName,
  swarmServiceSpec,
  taskUpstreams,
} from './swarm-spec.ts';

const target: AppTarget = {
  appId: 42,
  appHandle: 'shop',
  environmentId: 7,
  environmentHandle: 'production',
  stackName: 'shared',
  environmentDatabaseIds: [],
};

const plan = (overrides: Partial<ServicePlan> = {}): ServicePlan => ({
  handle: 'web',
  processType: 'web',
  command: 'exec server',
  containerCount: 3,
  memoryLimitMb: 512,
  instanceClass: 'm5',
  recordedContainers: [],
  endpointIds: [],
  ...overrides,
});

const input = (overrides: Partial<Parameters<typeof swarmServiceSpec>[0]> = {}) => ({
  name: 'berth-abcdef12-app-42-web',
  installation: 'abcdef1234567890',
  target,
  service: plan(),
  image: '10.0.0.1:5000/berth-abcdef1234567890/42@sha256:aaaa',
  env: {
    DATABASE_URL: 'postgresql://x',
    BERTH_PRIVATE_REGISTRY_USERNAME: 'u',
    BERTH_PRIVATE_REGISTRY_PASSWORD: 'p',
  },
  port: 5000,
  imageHasHealthcheck: false,
  healthTimeoutMs: 30_000,
  stopTimeoutSeconds: 10,
  readyNodes: 3,
  network: null,
  ...overrides,
});

// biome-ignore lint/suspicious/noExplicitAny: the spec is the Engine API's JSON, read here field by field.
const specOf = (overrides = {}) => swarmServiceSpec(input(overrides)) as any;

describe('a Swarm service from a plan', () => {
  it('runs the process as replicas pinned by digest, with its memory as limit and reservation, env without the registry account, and PORT', () => {
    const spec = specOf();
    expect(spec.Name).toBe('berth-abcdef12-app-42-web');
    expect(spec.Mode).toEqual({ Replicated: { Replicas: 3 } });
    const container = spec.TaskTemplate.ContainerSpec;
    expect(container.Image).toBe(input().image);
    expect(container.Env).toEqual(['DATABASE_URL=postgresql://x', 'PORT=5000']);
    expect(container.Command).toEqual(['/bin/sh', '-c', 'exec server']);
    expect(spec.TaskTemplate.Resources).toEqual({
      Limits: { MemoryBytes: 512 * 1024 * 1024 },
      Reservations: { MemoryBytes: 512 * 1024 * 1024 },
    });
    expect(container.Labels[LABELS.service]).toBe('app-42/web');
    expect(container.Labels[LABELS.installation]).toBe('abcdef1234567890');
    expect(spec.Labels[LABELS.port]).toBe('5000');
  });

  it('rolls out start-first, rolled back on failure, behind the HTTP health check', () => {
    const spec = specOf();
    expect(spec.UpdateConfig).toMatchObject({
      Order: 'start-first',
      FailureAction: 'rollback',
      Parallelism: 1,
    });
    expect(spec.RollbackConfig).toMatchObject({ Order: 'start-first' });
    expect(spec.TaskTemplate.ContainerSpec.HealthCheck.Test[1]).toContain('http://127.0.0.1:$PORT/');
    expect(spec.TaskTemplate.ContainerSpec.HealthCheck.StartPeriod).toBe(30 * 1e9);
    // The image's own HEALTHCHECK is left to Swarm; a worker has no port and no check.
    expect(specOf({ imageHasHealthcheck: true }).TaskTemplate.ContainerSpec.HealthCheck).toBeUndefined();
    const worker = specOf({ port: null, service: plan({ processType: 'worker' }) });
    expect(worker.TaskTemplate.ContainerSpec.HealthCheck).toBeUndefined();
    expect(worker.EndpointSpec).toEqual({ Mode: 'dnsrr' });
    expect(worker.TaskTemplate.ContainerSpec.Env).not.toContain('PORT=5000');
  });

  it("publishes the port on each task's own node (mode host, no fixed port) behind DNS round robin", () => {
    expect(specOf().EndpointSpec).toEqual({
      Mode: 'dnsrr',
      Ports: [{ Protocol: 'tcp', TargetPort: 5000, PublishMode: 'host' }],
    });
    expect(specOf({ network: 'berth-env-7' }).TaskTemplate.Networks).toEqual([{ Target: 'berth-env-7' }]);
  });

  it('spreads the replicas with a per-node limit that leaves room for a start-first task', () => {
    expect(specOf().TaskTemplate.Placement).toEqual({ MaxReplicas: 2 });
    expect(maxReplicasPerNode(3, 3)).toBe(2);
    expect(maxReplicasPerNode(3, 2)).toBe(3);
    expect(maxReplicasPerNode(1, 3)).toBe(2);
    expect(maxReplicasPerNode(9, 3)).toBe(4);
    expect(maxReplicasPerNode(3, 0)).toBe(4);
    // A node lost: 9 replicas under a limit of 4 do not fit on 2 nodes, and the limit is raised.
    expect(limitHolds(4, 9, 3)).toBe(true);
    expect(limitHolds(4, 9, 2)).toBe(false);
    expect(limitHolds(2, 3, 2)).toBe(true);
  });
});

describe('names on the cluster', () => {
  it("names services by installation, app id and process, within Swarm's 63 characters", () => {
    expect(swarmServiceName('abcdef1234567890', 42, 'web')).toBe('berth-abcdef12-app-42-web');
    expect(swarmServiceName('abcdef1234567890', 42, 'Long_Process.Name')).toBe(
      'berth-abcdef12-app-42-long-process-name',
    );
    expect(swarmServiceName('abcdef1234567890', 42, 'x'.repeat(200)).length).toBeLessThanOrEqual(63);
    expect(swarmImageRepository('10.0.0.1:5000', 'abcdef1234567890', 42)).toBe(
      '10.0.0.1:5000/berth-abcdef1234567890/42',
    );
  });

  it('records a task by its service and slot, which a replacement keeps', () => {
    expect(slotName('berth-a-app-1-web', 2)).toBe('berth-a-app-1-web.2');
    expect(parseSlotName('berth-a-app-1-web.2')).toEqual({ service: 'berth-a-app-1-web', slot: 2 });
    expect(parseSlotName('no-slot')).toBeNull();
    expect(parseSlotName('name.0')).toBeNull();
    expect(parseSlotName(`${'x'.repeat(100)}.1`)).toBeNull();
  });
});

describe('upstreams from tasks', () => {
  const nodes: SwarmNode[] = [
    { ID: 'n1', Status: { State: 'ready', Addr: '0.0.0.0' }, ManagerStatus: { Addr: '10.77.1.2:2377' } },
    { ID: 'n2', Status: { State: 'ready', Addr: '10.77.2.2' } },
    { ID: 'n3', Status: { State: 'down', Addr: '10.77.3.2' } },
  ];
  const task = (
    id: string,
    node: string,
    published: number,
    overrides: Partial<SwarmTask> = {},
  ): SwarmTask => ({
    ID: id,
    NodeID: node,
    DesiredState: 'running',
    Spec: { ContainerSpec: { Image: 'app@sha256:new' } },
    Status: { State: 'running', PortStatus: { Ports: [{ TargetPort: 5000, PublishedPort: published }] } },
    ...overrides,
  });

  it("reaches each running task at its node's address and the port the node published", () => {
    expect(nodeAddress(nodes[0] as SwarmNode)).toBe('10.77.1.2');
    const tasks = [
      task('a', 'n1', 32768),
      task('b', 'n2', 32770),
      task('c', 'n2', 32771, { DesiredState: 'shutdown' }),
      task('d', 'n2', 32772, { Status: { State: 'starting' } }),
      task('e', 'n1', 32769, { Spec: { ContainerSpec: { Image: 'app@sha256:old' } } }),
      task('f', 'gone', 32773),
      task('g', 'n3', 32774),
    ];
    expect(taskUpstreams(tasks, nodes, 5000)).toEqual([
      { address: '10.77.1.2', port: 32768 },
      { address: '10.77.1.2', port: 32769 },
      { address: '10.77.2.2', port: 32770 },
    ]);
    expect(taskUpstreams(tasks, nodes, 5000, 'app@sha256:new')).toEqual([
      { address: '10.77.1.2', port: 32768 },
      { address: '10.77.2.2', port: 32770 },
    ]);
    expect(taskUpstreams(tasks, nodes, 8080)).toEqual([]);
  });
});

describe('madeFrom', () => {
  const template = {
    ContainerSpec: { Image: 'reg/app@sha256:1', Env: ['A=1', 'PORT=8080'] },
    ForceUpdate: 2,
  };
  const task = (spec: SwarmTask['Spec']): SwarmTask => ({ ID: 't', Spec: spec });

  it('takes a task made from the template, whatever the order of its environment', () => {
    expect(
      madeFrom(
        task({ ...template, ContainerSpec: { ...template.ContainerSpec, Env: ['PORT=8080', 'A=1'] } }),
        template,
      ),
    ).toBe(true);
  });

  it('tells the old tasks of a configure or a restart from the new ones, though the image is the same', () => {
    expect(
      madeFrom(
        task({ ...template, ContainerSpec: { ...template.ContainerSpec, Env: ['A=0', 'PORT=8080'] } }),
        template,
      ),
    ).toBe(false);
    expect(madeFrom(task({ ...template, ForceUpdate: 1 }), template)).toBe(false);
    expect(
      madeFrom(
        task({ ...template, ContainerSpec: { ...template.ContainerSpec, Image: 'reg/app@sha256:0' } }),
        template,
      ),
    ).toBe(false);
  });
});
