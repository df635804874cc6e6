import type { EdgeUpstream } from '../docker/caddy-edge.ts';
import { appKey, LABELS, serviceKey } from '../docker/engine.ts';
import type { AppTarget, ServicePlan } from '../runtime.ts';
import { containerEnv } from '../runtime.ts';

// The pure parts of the swarm runtime: what a Swarm service of an app's process is made of, where
// the edge reaches its tasks, and how many of its tasks a node may run. No engine here: tested alone.

const MB = 1024 * 1024;
const SECOND_NS = 1_000_000_000;

/** The Swarm service of an app's process: this Berth's, named by the app's id (handles repeat). */
export function swarmServiceName(installation: string, appId: number, serviceHandle: string): string {
  const handle = serviceHandle
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .slice(0, 30);
  // Swarm names are at most 63 characters of [a-zA-Z0-9-].
  let name = `berth-${installation.slice(0, 8)}-app-${appId}-${handle}`.slice(0, 63);
  // Trimmed by hand: /-+$/ backtracks polynomially on a long run of dashes (regex-safety.test.ts).
  while (name.endsWith('-')) name = name.slice(0, -1);
  return name;
}

/** Where an app's images go in the registry: `<registry>/berth-<installation>/<app id>`. */
export function swarmImageRepository(registry: string, installation: string, appId: number): string {
  return `${registry}/berth-${installation.slice(0, 16)}/${appId}`;
}

/**
 * The most tasks of a service a node may run: its replicas spread over the ready nodes, plus one, as
 * a start-first update starts a task before it stops one (a limit of exactly replicas / nodes leaves no
 * node for the new task, and the update never ends). Swarm's scheduler spreads a service's tasks
 * itself; the limit keeps a node that comes back from being passed over for good.
 */
export function maxReplicasPerNode(replicas: number, readyNodes: number): number {
  if (replicas <= 0) return 1;
  return Math.ceil(replicas / Math.max(1, readyNodes)) + 1;
}

/** True when the limit lets the ready nodes hold every replica (a node down can make it too tight). */
export function limitHolds(limit: number, replicas: number, readyNodes: number): boolean {
  return limit * readyNodes >= replicas;
}

export interface SwarmServiceInput {
  name: string;
  installation: string;
  target: AppTarget;
  service: ServicePlan;
  /** `repository@sha256:…`: every node runs the same bits. */
  image: string;
  env: Record<string, string>;
  /** The port the process answers on (PORT), or null (a worker). */
  port: number | null;
  /** The image's own HEALTHCHECK: Swarm uses it, and Berth adds none. */
  imageHasHealthcheck: boolean;
  healthTimeoutMs: number;
  stopTimeoutSeconds: number;
  readyNodes: number;
  /** The overlay network of the app's environment, when the runtime has one. */
  network: string | null;
}

/**
 * The check a task passes before it counts as started: the docker runtime's (an HTTP GET of / on PORT
 * answers; only that the port accepts connections for a naive check), run inside the container with
 * the image's wget or curl (busybox has wget), since Swarm runs health checks in the task.
 */
export function healthcheckCommand(naive: boolean): string[] {
  const url = 'http://127.0.0.1:$PORT/';
  return naive
    ? [
        'CMD-SHELL',
        'nc -z 127.0.0.1 $PORT || wget -q -O /dev/null $URL || curl -so /dev/null $URL'.replaceAll(
          '$URL',
          url,
        ),
      ]
    : ['CMD-SHELL', `wget -q -O /dev/null ${url} || curl -fso /dev/null ${url}`];
}

/** The labels of a service and its tasks' containers: the docker runtime's (engine.ts LABELS). */
export function swarmLabels(
  installation: string,
  target: AppTarget,
  service: ServicePlan,
  image: string,
  port: number | null,
) {
  return {
    [LABELS.managed]: 'true',
    [LABELS.installation]: installation,
    [LABELS.stack]: target.stackName,
    [LABELS.environment]: target.environmentHandle,
    [LABELS.environmentId]: String(target.environmentId),
    [LABELS.app]: appKey(target),
    [LABELS.service]: serviceKey(target, service.handle),
    [LABELS.release]: image,
    [LABELS.layer]: 'app',
    [LABELS.port]: port === null ? '' : String(port),
  };
}

/** The Swarm ServiceSpec of an app's process (Engine API 1.41+). */
export function swarmServiceSpec(input: SwarmServiceInput): Record<string, unknown> {
  const { service, port } = input;
  const labels = swarmLabels(input.installation, input.target, service, input.image, port);
  const environment = { ...containerEnv(input.env), ...(port === null ? {} : { PORT: String(port) }) };
  const memory = service.memoryLimitMb * MB;
  const healthSeconds = Math.max(1, Math.round(input.healthTimeoutMs / 1000));
  const monitor = {
    // Start-first: the new task answers before an old one stops; a task that fails its checks (or
    // exits) within the monitor window rolls the whole service back to what it ran.
    Parallelism: 1,
    Delay: 0,
    FailureAction: 'rollback',
    Monitor: 5 * SECOND_NS,
    MaxFailureRatio: 0,
    Order: 'start-first',
  };
  return {
    Name: input.name,
    Labels: labels,
    TaskTemplate: {
      ContainerSpec: {
        Image: input.image,
        Labels: labels,
        Env: Object.entries(environment).map(([key, value]) => `${key}=${value}`),
        ...(service.command ? { Command: ['/bin/sh', '-c', service.command] } : {}),
        // An init process forwards the stop signal and reaps orphans (as on the docker runtime).
        Init: true,
        StopGracePeriod: input.stopTimeoutSeconds * SECOND_NS,
        ...(port !== null && !input.imageHasHealthcheck
          ? {
              HealthCheck: {
                Test: healthcheckCommand(service.naiveHealthCheck ?? false),
                Interval: SECOND_NS,
                Timeout: 2 * SECOND_NS,
                Retries: 3,
                StartPeriod: healthSeconds * SECOND_NS,
              },
            }
          : {}),
      },
      Resources: {
        Limits: { MemoryBytes: memory },
        Reservations: { MemoryBytes: memory },
      },
      RestartPolicy: { Condition: 'any', Delay: SECOND_NS, MaxAttempts: 0 },
      Placement: { MaxReplicas: maxReplicasPerNode(service.containerCount, input.readyNodes) },
      // No alias: every app has a `web`, and a shared one would answer for all of them. The service's own
      // name (unique) resolves on the network.
      ...(input.network ? { Networks: [{ Target: input.network }] } : {}),
      LogDriver: { Name: 'json-file', Options: { 'max-size': '10m', 'max-file': '3' } },
    },
    Mode: { Replicated: { Replicas: service.containerCount } },
    UpdateConfig: monitor,
    RollbackConfig: { ...monitor, FailureAction: 'pause' },
    // No virtual IP (this kernel has no IPVS): DNS round robin inside, and each task's port published
    // on its own node (mode host, no fixed port: the node picks one), where the edge reaches it.
    EndpointSpec: {
      Mode: 'dnsrr',
      ...(port === null ? {} : { Ports: [{ Protocol: 'tcp', TargetPort: port, PublishMode: 'host' }] }),
    },
  };
}

/** A Swarm task as the runtime reads it (the Engine API's Task, the fields used). */
export interface SwarmTask {
  ID: string;
  Slot?: number;
  NodeID?: string;
  DesiredState?: string;
  CreatedAt?: string;
  Spec?: TaskTemplate;
  Status?: {
    State?: string;
    Err?: string;
    Message?: string;
    ContainerStatus?: { ContainerID?: string };
    PortStatus?: { Ports?: { TargetPort?: number; PublishedPort?: number }[] };
  };
}

/** What a service's tasks are made from (a task carries the copy it was made from). */
export interface TaskTemplate {
  ContainerSpec?: { Image?: string; Env?: string[] };
  ForceUpdate?: number;
}

/**
 * Whether a task was made from this template: the same image, environment and forced-update counter. A
 * configure or a restart keeps the image, so the image alone would take the old tasks for the new ones.
 */
export function madeFrom(task: SwarmTask, template: TaskTemplate | undefined): boolean {
  const env = (spec: TaskTemplate | undefined) => [...(spec?.ContainerSpec?.Env ?? [])].sort().join('\n');
  return (
    task.Spec?.ContainerSpec?.Image === template?.ContainerSpec?.Image &&
    env(task.Spec) === env(template) &&
    (task.Spec?.ForceUpdate ?? 0) === (template?.ForceUpdate ?? 0)
  );
}

/** A Swarm node as the runtime reads it. */
export interface SwarmNode {
  ID: string;
  Description?: { Hostname?: string };
  Spec?: { Availability?: string; Labels?: Record<string, string> };
  Status?: { State?: string; Addr?: string };
  ManagerStatus?: { Addr?: string };
}

/** Where a node is reached: its address (a manager may report 0.0.0.0 there: its manager address). */
export function nodeAddress(node: SwarmNode): string {
  const address = node.Status?.Addr ?? '';
  if (address && address !== '0.0.0.0') return address;
  const manager = node.ManagerStatus?.Addr ?? '';
  return manager.slice(0, manager.lastIndexOf(':') > 0 ? manager.lastIndexOf(':') : undefined);
}

export const isRunning = (task: SwarmTask) =>
  task.DesiredState === 'running' && task.Status?.State === 'running';

/**
 * Where the edge reaches a service's running tasks: their node's address and the port the node
 * published for the process's port, on the nodes that are ready. `image` keeps only tasks of that image
 * (the service's current).
 */
export function taskUpstreams(
  tasks: readonly SwarmTask[],
  nodes: readonly SwarmNode[],
  port: number,
  image?: string,
): EdgeUpstream[] {
  // A node the manager no longer hears from still lists its tasks as running until Swarm moves them.
  const addresses = new Map(
    nodes.filter((node) => node.Status?.State === 'ready').map((node) => [node.ID, nodeAddress(node)]),
  );
  const upstreams: EdgeUpstream[] = [];
  for (const task of tasks) {
    if (!isRunning(task)) continue;
    if (image !== undefined && task.Spec?.ContainerSpec?.Image !== image) continue;
    const address = addresses.get(task.NodeID ?? '');
    const published = task.Status?.PortStatus?.Ports?.find(
      (entry) => entry.TargetPort === port,
    )?.PublishedPort;
    if (address && published) upstreams.push({ address, port: published });
  }
  return upstreams.sort((a, b) => `${a.address}:${a.port}`.localeCompare(`${b.address}:${b.port}`));
}

/**
 * The name Berth records for a task: its service's and its slot's. Swarm gives a replacement task (a
 * node lost, a roll-out) the slot of the one it replaces, so the name stays true while Swarm heals.
 */
export const slotName = (service: string, slot: number) => `${service}.${slot}`;

/** The service and slot of a recorded name, or null. */
export function parseSlotName(name: string): { service: string; slot: number } | null {
  if (name.length > 80) return null;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  const slot = Number(name.slice(dot + 1));
  return Number.isInteger(slot) && slot > 0 ? { service: name.slice(0, dot), slot } : null;
}
