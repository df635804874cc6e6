import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import Docker from 'dockerode';
import {
  backupFiles,
  DUMP_TIMEOUT_MS,
  databaseImage,
  type EngineDriver,
  engineFor,
  execInContainer,
  missingImageAdvice,
  putInVolume,
  RELOAD_TIMEOUT_MS,
} from '../docker/database-engines.ts';
import { LABELS, lastLogLines } from '../docker/engine.ts';
import type {
  ContainerSpec,
  DatabaseAccount,
  DatabaseBackup,
  DatabasePlan,
  DatabaseSeed,
  DatabaseTarget,
  ProvisionedDatabase,
  Runtime,
  RuntimeContext,
} from '../runtime.ts';
import { RuntimeError } from '../runtime.ts';
import { environmentNetwork } from './swarm-networks.ts';

// Databases on the swarm runtime. A database is a one-replica service constrained to ONE node, the node
// that holds its volume (a local volume lives on one machine: a task started elsewhere would find it
// empty). Swarm cannot exec into a task or make a volume on another node, so Berth speaks to that node's
// own Engine API (the node's `berth.engine` label) for its volume, its helper containers, and the dumps
// and restores run in its task's container. Backups stream to Berth's machine, so a restore can bring a
// database back on any node, also when its own is gone.

/** The node label that gives a node's own Engine API (unix:///…sock, or tcp://host:2376 with TLS). */
export const NODE_ENGINE_LABEL = 'berth.engine';
/** On a database's service: the id of the node it is pinned to. */
export const NODE_LABEL = 'io.berth.node';

const MB = 1024 * 1024;
/** How long a node's Engine API has to answer before the node counts as down. */
const NODE_ANSWER_MS = 5_000;

export interface SwarmDatabasesOptions {
  /** The manager's Engine API (BERTH_SWARM_HOST). */
  manager: Docker;
  installation: string;
  /** Where backups' dumps are kept (`BERTH_DATA_DIR/backups`), on Berth's machine. */
  backupDir: string;
  /** Images by `type` or `type:version` (BERTH_DATABASE_IMAGES), over the official ones. */
  images: Record<string, string>;
  /**
   * The registry every node pulls from (BERTH_REGISTRY, `host:port`): a database's image is pushed there
   * from the manager and its service names it by digest. Without one, the chosen node pulls the image
   * itself, or it is copied there from the manager.
   */
  registry: string | null;
  /** A node's Engine API from its `berth.engine` label (engineAt with the cluster's TLS certificates by default). */
  nodeEngine?(address: string): Docker;
  /** Client certificates for nodes' tcp:// Engine APIs (BERTH_SWARM_TLS_DIR, or a registered cluster's). */
  tls?: EngineTls | null;
  /** How long a new database has to accept connections. */
  readyTimeoutMs: number;
  stopTimeoutSeconds: number;
  log(ctx: RuntimeContext, text: string, level?: 'INFO' | 'WARN' | 'ERROR'): Promise<void>;
  fail(ctx: RuntimeContext, message: string): Promise<never>;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** The TLS client certificates (PEM) a tcp:// Engine API is reached with, as `docker --tlsverify` uses them. */
export interface EngineTls {
  ca: string | Buffer;
  cert: string | Buffer;
  key: string | Buffer;
}

/** The client certificates in a directory (ca.pem, cert.pem, key.pem: BERTH_SWARM_TLS_DIR). */
export function readEngineTls(dir: string): EngineTls {
  const read = (name: string) => fs.readFileSync(path.join(dir, name));
  return { ca: read('ca.pem'), cert: read('cert.pem'), key: read('key.pem') };
}

/**
 * A dockerode client for an Engine API address: `unix:///path.sock`, or `tcp://host:port` with the TLS
 * client certificates given (or read from a directory), as `docker --tlsverify` uses them.
 */
export function engineAt(address: string, tls?: EngineTls | string | null): Docker {
  if (address.length > 500) throw new RuntimeError('An Engine API address is at most 500 characters');
  if (address.startsWith('unix://')) return new Docker({ socketPath: address.slice('unix://'.length) });
  if (!address.startsWith('tcp://'))
    throw new RuntimeError(`${address.slice(0, 100)} is not an Engine API address (unix:// or tcp://)`);
  const url = new URL(`http://${address.slice('tcp://'.length)}`);
  const port = Number(url.port || (tls ? 2376 : 2375));
  if (!tls) return new Docker({ protocol: 'http', host: url.hostname, port });
  const { ca, cert, key } = typeof tls === 'string' ? readEngineTls(tls) : tls;
  return new Docker({ protocol: 'https', host: url.hostname, port, ca, cert, key });
}

/**
 * Where a database image goes in the cluster's registry: under `berth-databases/`, its own registry host
 * (a first part with a dot or a colon) left out, its tag kept (`latest` when it names none).
 */
export function registryName(registry: string, image: string): { repository: string; tag: string } {
  const withoutDigest = image.split('@')[0] ?? image;
  const parts = withoutDigest.split('/');
  const first = parts[0] ?? '';
  if (parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost'))
    parts.shift();
  const last = parts.pop() ?? '';
  const colon = last.indexOf(':');
  const name = [...parts, colon === -1 ? last : last.slice(0, colon)].join('/');
  return {
    repository: `${registry}/berth-databases/${name}`,
    tag: colon === -1 ? 'latest' : last.slice(colon + 1),
  };
}

/** A node as the choice of where a database goes sees it. */
export interface NodeCandidate {
  id: string;
  hostname: string;
  role: 'worker' | 'manager';
  /** Ready and active (not paused or drained). */
  available: boolean;
  /** Its Engine API (`berth.engine` label), or null when it has none. */
  engine: string | null;
  memoryBytes: number;
  /** Memory the tasks meant to run on it reserve. */
  reservedBytes: number;
}

/**
 * Where a new database goes: an available node with its own Engine API and the memory to reserve,
 * workers before managers (a manager's memory is the cluster's control plane's), then the one with the
 * most memory unreserved (ties: by host name, so the choice is the same each time). `avoid` names nodes
 * left out (a node being drained).
 */
export function chooseDatabaseNode(
  nodes: readonly NodeCandidate[],
  memoryBytes: number,
  avoid: readonly string[] = [],
): NodeCandidate | { problem: string } {
  const usable = nodes.filter((node) => node.available && node.engine && !avoid.includes(node.id));
  if (usable.length === 0)
    return {
      problem: `No node can take a database: none is ready and active with its Engine API in a ${NODE_ENGINE_LABEL} label`,
    };
  const roomy = usable.filter((node) => node.memoryBytes - node.reservedBytes >= memoryBytes);
  if (roomy.length === 0)
    return {
      problem: `No node has ${Math.round(memoryBytes / MB)} MB of memory unreserved for the database (the most is ${Math.max(...usable.map((node) => Math.floor((node.memoryBytes - node.reservedBytes) / MB)))} MB)`,
    };
  const free = (node: NodeCandidate) => node.memoryBytes - node.reservedBytes;
  const [chosen] = [...roomy].sort(
    (a, b) =>
      Number(a.role === 'manager') - Number(b.role === 'manager') ||
      free(b) - free(a) ||
      a.hostname.localeCompare(b.hostname),
  );
  return chosen as NodeCandidate;
}

/** The cluster's nodes as candidates: their memory, and what the tasks meant to run there reserve. */
export async function nodeCandidates(manager: Docker): Promise<NodeCandidate[]> {
  const [nodes, tasks] = await Promise.all([
    manager.listNodes(),
    manager.listTasks({ filters: { 'desired-state': ['running'] } }),
  ]);
  const reserved = new Map<string, number>();
  for (const task of tasks as SwarmTask[])
    if (task.NodeID)
      reserved.set(
        task.NodeID,
        (reserved.get(task.NodeID) ?? 0) + (task.Spec?.Resources?.Reservations?.MemoryBytes ?? 0),
      );
  return (nodes as SwarmNode[]).map((node) => ({
    id: node.ID,
    hostname: node.Description?.Hostname ?? node.ID,
    role: node.Spec?.Role === 'manager' ? 'manager' : 'worker',
    available: node.Status?.State === 'ready' && node.Spec?.Availability === 'active',
    engine: node.Spec?.Labels?.[NODE_ENGINE_LABEL] ?? null,
    memoryBytes: node.Description?.Resources?.MemoryBytes ?? 0,
    reservedBytes: reserved.get(node.ID) ?? 0,
  }));
}

interface SwarmNode {
  ID: string;
  Spec?: { Role?: string; Availability?: string; Labels?: Record<string, string> };
  Description?: { Hostname?: string; Resources?: { MemoryBytes?: number } };
  Status?: { State?: string; Message?: string; Addr?: string };
}

interface SwarmTask {
  ID: string;
  NodeID?: string;
  DesiredState?: string;
  CreatedAt?: string;
  Spec?: { Resources?: { Reservations?: { MemoryBytes?: number } } };
  Status?: { State?: string; Err?: string; Message?: string; ContainerStatus?: { ContainerID?: string } };
}

/** What a database's service runs: its spec, for a node chosen and an image on the way to it. */
export interface DatabaseServiceInput {
  name: string;
  image: string;
  nodeId: string;
  network: string;
  volume: string;
  env: string[];
  labels: Record<string, string>;
  engine: Pick<EngineDriver, 'dataPath' | 'stopSignal' | 'command'>;
  command?: string[];
  memoryMb: number;
  stopTimeoutSeconds: number;
}

/**
 * A database's service: one replica pinned to its node, its memory as both limit and reservation (so
 * the node's memory is counted for it), its volume mounted, reached by its name on the environment's
 * network (dnsrr: no VIP). Its task restarts on its node when it exits; an update stops the old task
 * before the new one starts, since two engines must never share the data directory.
 */
export function databaseServiceSpec(input: DatabaseServiceInput): Docker.CreateServiceOptions {
  return {
    Name: input.name,
    Labels: input.labels,
    TaskTemplate: {
      ContainerSpec: {
        Image: input.image,
        Env: input.env,
        ...(input.command ? { Args: input.command } : {}),
        Labels: input.labels,
        Mounts: [{ Type: 'volume', Source: input.volume, Target: input.engine.dataPath }],
        StopSignal: input.engine.stopSignal,
        StopGracePeriod: input.stopTimeoutSeconds * 1e9,
        Init: true,
      },
      Resources: {
        Limits: { MemoryBytes: input.memoryMb * MB },
        Reservations: { MemoryBytes: input.memoryMb * MB },
      },
      RestartPolicy: { Condition: 'any', Delay: 2e9 },
      Placement: { Constraints: [`node.id==${input.nodeId}`] },
      Networks: [{ Target: input.network, Aliases: [input.name] }],
      LogDriver: { Name: 'json-file', Options: { 'max-size': '10m', 'max-file': '3' } },
    },
    Mode: { Replicated: { Replicas: 1 } },
    UpdateConfig: { Parallelism: 1, Order: 'stop-first', FailureAction: 'pause' },
    EndpointSpec: { Mode: 'dnsrr' },
  } as Docker.CreateServiceOptions;
}

/** Where a database is: its service, its node, and that node's Engine API (or why it cannot be reached). */
type Located =
  | { service: Docker.Service; node: SwarmNode; engine: Docker; nodeName: string }
  | { problem: string };

/**
 * Databases on the swarm runtime (see the top of this file): the operations the swarm runtime takes as
 * its `databases` part.
 */
export function createSwarmDatabases(
  options: SwarmDatabasesOptions,
): Pick<
  Runtime,
  | 'provisionDatabase'
  | 'restartDatabase'
  | 'reloadDatabase'
  | 'backupDatabase'
  | 'deleteBackup'
  | 'deprovisionDatabase'
  | 'databaseProblem'
> & { databaseNodeProblem(target: DatabaseTarget): Promise<string | null> } {
  const { manager } = options;
  const short = options.installation.slice(0, 8);
  const nodeEngine = options.nodeEngine ?? ((address: string) => engineAt(address, options.tls));
  const backups = backupFiles(options.backupDir, options.log, options.fail, 'swarm');

  const keyOf = (target: DatabaseTarget) => `${target.stackName}/${target.environmentHandle}/db-${target.id}`;
  const volumeOf = (target: DatabaseTarget) => `berth-${short}-db-${target.id}`;
  /** Its service's name, which apps reach it at on the network (the connection URL's host). */
  const serviceNameOf = (target: DatabaseTarget) =>
    `${target.handle.replace(/[^a-z0-9-]+/g, '-').slice(0, 40)}-${target.id}-${short}`.replace(/^-+/, '');

  async function engineOrFail(ctx: RuntimeContext, target: DatabaseTarget): Promise<EngineDriver> {
    const engine = engineFor(target, 'swarm');
    return 'problem' in engine ? options.fail(ctx, engine.problem) : engine;
  }

  async function servicesOf(target: DatabaseTarget): Promise<Docker.Service[]> {
    return (await manager.listServices({
      filters: {
        label: [`${LABELS.database}=${keyOf(target)}`, `${LABELS.installation}=${options.installation}`],
      },
    })) as Docker.Service[];
  }

  const nodeNameOf = (node: SwarmNode) => node.Description?.Hostname ?? node.ID;
  const downMessage = (target: DatabaseTarget, name: string, why: string) =>
    `Node ${name} is down (${why}): the data of ${target.handle} is on it; restore a backup to bring it back on another node`;

  /** True when the Engine API answers within NODE_ANSWER_MS. */
  async function answers(engine: Docker): Promise<{ ok: true } | { ok: false; why: string }> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        engine.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${NODE_ANSWER_MS / 1000} s`)),
            NODE_ANSWER_MS,
          );
        }),
      ]);
      return { ok: true };
    } catch (error) {
      return { ok: false, why: (error as Error).message.slice(0, 300) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** The database's service, its node and that node's Engine API; or why the node cannot be used. */
  async function locate(target: DatabaseTarget): Promise<Located> {
    const [found] = await servicesOf(target);
    if (!found) return { problem: `Database ${target.handle} has no service on the cluster` };
    const info = found as unknown as { ID: string; Spec?: { Labels?: Record<string, string> } };
    const nodeId = info.Spec?.Labels?.[NODE_LABEL];
    if (!nodeId) return { problem: `Database ${target.handle}'s service names no node` };
    let node: SwarmNode;
    try {
      node = (await manager.getNode(nodeId).inspect()) as SwarmNode;
    } catch (error) {
      // Only a 404 says the node is gone; the manager failing to answer says nothing of the node.
      if ((error as { statusCode?: number }).statusCode !== 404) throw error;
      return {
        problem: downMessage(target, nodeId, 'it has left the cluster'),
      };
    }
    const name = nodeNameOf(node);
    if (node.Spec?.Availability === 'drain')
      return {
        problem: `Node ${name} is drained: Swarm runs nothing there, and the data of ${target.handle} is on it; activate the node, or restore a backup to bring the database back on another node`,
      };
    if (node.Status?.State !== 'ready')
      return {
        problem: downMessage(
          target,
          name,
          `the manager sees it ${node.Status?.State ?? 'unknown'}${node.Status?.Message ? `: ${node.Status.Message}` : ''}`,
        ),
      };
    const address = node.Spec?.Labels?.[NODE_ENGINE_LABEL];
    if (!address)
      return { problem: `Node ${name} has no ${NODE_ENGINE_LABEL} label: its Engine API is unknown` };
    const engine = nodeEngine(address);
    const answer = await answers(engine);
    if (!answer.ok) {
      // The engine's own words (addresses, sockets) go to the server's log, not to the database's readers.
      console.warn(`The Engine API of node ${name} (${address.slice(0, 200)}): ${answer.why}`);
      return { problem: downMessage(target, name, 'its Engine API does not answer') };
    }
    return {
      service: manager.getService(info.ID),
      node,
      engine,
      nodeName: name,
    };
  }

  async function locateOrFail(ctx: RuntimeContext, target: DatabaseTarget) {
    const located = await locate(target);
    return 'problem' in located ? options.fail(ctx, located.problem) : located;
  }

  /** The running container of a service's task on its node. */
  async function taskContainer(engine: Docker, serviceId: string): Promise<Docker.ContainerInfo | undefined> {
    const [container] = await engine.listContainers({
      filters: { label: [`com.docker.swarm.service.id=${serviceId}`], status: ['running'] },
    });
    return container;
  }

  async function followPull(engine: Docker, stream: NodeJS.ReadableStream) {
    await new Promise<void>((resolve, reject) =>
      engine.modem.followProgress(stream, (error: Error | null, output: { error?: string }[]) => {
        const failed = error?.message ?? output.find((event) => event.error)?.error;
        return failed ? reject(new Error(failed)) : resolve();
      }),
    );
  }

  /**
   * The image as the node will run it: on the manager (pulled there when missing, as the docker runtime
   * does), then pushed to the registry and named by its digest, so every node runs the same bits. Without
   * a registry, its name (imageOnNode puts it on the node).
   */
  async function imageForNodes(ctx: RuntimeContext, target: DatabaseTarget, image: string): Promise<string> {
    let onManager = await manager
      .getImage(image)
      .inspect()
      .then(
        () => true,
        () => false,
      );
    if (!onManager) {
      await options.log(ctx, `Pulling Docker image ${image} on the manager`);
      try {
        await followPull(manager, await manager.pull(image));
        onManager = true;
      } catch (error) {
        if (options.registry)
          return options.fail(
            ctx,
            `Unable to pull ${image}: ${(error as Error).message}. ${missingImageAdvice(target, image)} (the manager's)`,
          );
      }
    }
    if (!options.registry || !onManager) return image;
    const { repository, tag } = registryName(options.registry, image);
    await manager.getImage(image).tag({ repo: repository, tag });
    await options.log(ctx, `Pushing ${image} to the registry as ${repository}:${tag}`);
    let digest: string | undefined;
    try {
      const stream = await manager
        .getImage(`${repository}:${tag}`)
        .push({ authconfig: { serveraddress: options.registry } });
      digest = await new Promise<string | undefined>((resolve, reject) =>
        manager.modem.followProgress(
          stream,
          (error: Error | null, output: { error?: string; aux?: { Digest?: string } }[]) => {
            const failed = error?.message ?? output.find((event) => event.error)?.error;
            if (failed) reject(new Error(failed));
            else resolve(output.find((event) => event.aux?.Digest)?.aux?.Digest);
          },
        ),
      );
    } catch (error) {
      return options.fail(ctx, `Unable to push ${image} to ${options.registry}: ${(error as Error).message}`);
    }
    if (!digest) return options.fail(ctx, `The registry ${options.registry} gave no digest for ${image}`);
    return `${repository}:${tag}@${digest}`;
  }

  /** Makes sure the node has the image (its helper containers need it before the service starts). */
  /**
   * Puts the image on the node (its helper containers need it before the service starts) and gives the
   * reference its service runs. With a registry: pulled there, by the digest imageForNodes gave. Without
   * one: copied from the manager through both Engine APIs when the manager has it (the bits Berth would
   * run), else pulled by the node; the service then names it by its id there, which Swarm never tries
   * to pull (a node that cannot reach the image's registry would try at each start).
   */
  async function imageOnNode(
    ctx: RuntimeContext,
    engine: Docker,
    nodeName: string,
    image: string,
  ): Promise<string> {
    const idOn = (on: Docker) =>
      on
        .getImage(image)
        .inspect()
        .then(
          (info) => info.Id,
          () => null,
        );
    const present = await idOn(engine);
    if (present) return options.registry ? image : present;
    if (!options.registry && (await idOn(manager))) {
      await options.log(ctx, `Copying ${image} from the manager to node ${nodeName}`);
      try {
        await followPull(engine, await engine.loadImage(await manager.getImage(image).get()));
      } catch (error) {
        return options.fail(ctx, `Copying ${image} to node ${nodeName} failed: ${(error as Error).message}`);
      }
    } else {
      await options.log(ctx, `Pulling ${image} on node ${nodeName}`);
      try {
        await followPull(engine, await engine.pull(image));
      } catch (error) {
        return options.fail(ctx, `Node ${nodeName} cannot pull ${image}: ${(error as Error).message}`);
      }
    }
    const copied = await idOn(engine);
    if (!copied) return options.fail(ctx, `Node ${nodeName} has no ${image} after it was put there`);
    return options.registry ? image : copied;
  }

  /**
   * Waits for the service's task to run on its node and its engine to accept connections there (checked
   * in its container: the overlay network is not reachable from Berth's machine). A task that fails says
   * why, with its container's last lines.
   */
  async function waitReady(
    ctx: RuntimeContext,
    target: DatabaseTarget,
    serviceId: string,
    engine: Docker,
    nodeName: string,
    driver: EngineDriver,
    previousTasks: ReadonlySet<string>,
  ): Promise<Docker.ContainerInspectInfo> {
    const deadline = Date.now() + options.readyTimeoutMs;
    let lastProblem = 'its task has not started';
    for (;;) {
      const tasks = (await manager.listTasks({ filters: { service: [serviceId] } })) as SwarmTask[];
      const current = tasks.filter((task) => !previousTasks.has(task.ID));
      const running = current.find(
        (task) => task.DesiredState === 'running' && task.Status?.State === 'running',
      );
      const containerId = running?.Status?.ContainerStatus?.ContainerID;
      const failed = current.find((task) => ['failed', 'rejected'].includes(task.Status?.State ?? ''));
      if (containerId) {
        const info = await engine
          .getContainer(containerId)
          .inspect()
          .catch(() => null);
        if (info?.State.Running) {
          const check = await execInContainer(engine, ctx, containerId, driver.ready, {}, 10_000).catch(
            (error: Error) => ({ exitCode: -1, errors: error.message }),
          );
          if (check.exitCode === 0) return info;
          lastProblem = `${driver.name} does not accept connections yet${check.errors ? `: ${check.errors.slice(-300)}` : ''}`;
        }
      } else if (failed) {
        const id = failed.Status?.ContainerStatus?.ContainerID;
        const lines = id ? await lastLogLines(engine, id, 20) : [];
        lastProblem = [
          `its task ${failed.Status?.State} on node ${nodeName}: ${failed.Status?.Err ?? failed.Status?.Message ?? ''}`,
          ...lines.map((line) => `  ${line}`),
        ].join('\n');
      }
      if (Date.now() > deadline)
        return options.fail(
          ctx,
          `Database ${target.handle} did not accept connections on node ${nodeName} within ${Math.round(options.readyTimeoutMs / 1000)} s: ${lastProblem}`,
        );
      await options.sleep(1000, ctx.signal);
    }
  }

  function specOf(
    info: Docker.ContainerInspectInfo,
    node: SwarmNode,
    plan: DatabasePlan,
    driver: EngineDriver,
  ): ContainerSpec {
    return {
      dockerName: info.Name.replace(/^\//, ''),
      // The node's address: the task's own is on the overlay network, which only the cluster reaches.
      host: node.Status?.Addr || nodeNameOf(node),
      awsInstanceId: info.Id.slice(0, 12),
      instanceClass: plan.instanceClass,
      memoryLimit: plan.containerSizeMb,
      port: driver.port,
      layer: 'database',
      status: info.State.Running ? 'running' : info.State.Status,
    };
  }

  /** Removes a database's services and waits until their containers are gone from every node that answers. */
  async function removeServices(ctx: RuntimeContext, services: Docker.Service[]) {
    if (services.length === 0) return;
    for (const service of services) {
      const id = (service as unknown as { ID: string }).ID;
      await manager
        .getService(id)
        .remove()
        .catch((error: { statusCode?: number; message: string }) => {
          if (error.statusCode !== 404) throw error;
        });
      await options.log(
        ctx,
        `Removed service ${(service as unknown as { Spec?: { Name?: string } }).Spec?.Name ?? id}`,
      );
    }
    const ids = services.map((service) => (service as unknown as { ID: string }).ID);
    const deadline = Date.now() + (options.stopTimeoutSeconds + 30) * 1000;
    for (const node of await reachableNodes(ctx)) {
      for (;;) {
        // One service at a time: label filters given together must all match.
        const remaining = (
          await Promise.all(
            ids.map((id) =>
              node.engine.listContainers({
                all: true,
                filters: { label: [`com.docker.swarm.service.id=${id}`] },
              }),
            ),
          )
        ).flat();
        if (remaining.length === 0) break;
        if (Date.now() > deadline) {
          for (const container of remaining)
            await node.engine
              .getContainer(container.Id)
              .remove({ force: true })
              .catch(() => undefined);
          break;
        }
        await options.sleep(500, ctx.signal);
      }
    }
  }

  /** Every node with an Engine API that answers; those that do not are named in the log. */
  async function reachableNodes(
    ctx: RuntimeContext,
  ): Promise<{ node: SwarmNode; engine: Docker; name: string }[]> {
    const reachable: { node: SwarmNode; engine: Docker; name: string }[] = [];
    for (const node of (await manager.listNodes()) as SwarmNode[]) {
      const address = node.Spec?.Labels?.[NODE_ENGINE_LABEL];
      const name = nodeNameOf(node);
      if (!address) {
        await options.log(
          ctx,
          `Node ${name} has no ${NODE_ENGINE_LABEL} label: its volumes are not looked at`,
          'WARN',
        );
        continue;
      }
      const engine = nodeEngine(address);
      const answer = await answers(engine);
      if (answer.ok) reachable.push({ node, engine, name });
      else
        await options.log(
          ctx,
          `Node ${name} does not answer (${answer.why}): what is on it stays there`,
          'WARN',
        );
    }
    return reachable;
  }

  /** Removes the database's volumes from every node that answers (a restore's earlier attempt may have left one elsewhere). */
  async function removeVolumes(ctx: RuntimeContext, target: DatabaseTarget) {
    for (const { engine, name } of await reachableNodes(ctx)) {
      const { Volumes } = await engine.listVolumes({
        filters: {
          label: [`${LABELS.database}=${keyOf(target)}`, `${LABELS.installation}=${options.installation}`],
        },
      });
      for (const volume of Volumes ?? []) {
        try {
          await engine.getVolume(volume.Name).remove();
          await options.log(ctx, `Deleted volume ${volume.Name} on node ${name}`);
        } catch (error) {
          if ((error as { statusCode?: number }).statusCode !== 404)
            await options.fail(
              ctx,
              `Unable to delete volume ${volume.Name} on node ${name}: ${(error as Error).message}`,
            );
        }
      }
    }
  }

  const taskIds = async (serviceId: string) =>
    new Set(
      ((await manager.listTasks({ filters: { service: [serviceId] } })) as SwarmTask[]).map(
        (task) => task.ID,
      ),
    );

  return {
    async provisionDatabase(
      ctx: RuntimeContext,
      target: DatabaseTarget,
      plan: DatabasePlan,
      account: DatabaseAccount,
      seed: DatabaseSeed,
    ): Promise<ProvisionedDatabase> {
      const driver = await engineOrFail(ctx, target);
      if (seed.kind === 'point_in_time' || seed.kind === 'replica')
        return options.fail(
          ctx,
          seed.kind === 'replica'
            ? 'Replicas are not available on the swarm runtime yet'
            : 'Point-in-time recovery is not available on the swarm runtime: restore a backup instead',
        );
      const source = seed.kind === 'backup' ? await backups.sourceOf(ctx, seed.storageRef) : null;
      // An earlier attempt of this provision (a lost lease) may have left a service: it goes first, so
      // two engines never share the data directory.
      const leftovers = await servicesOf(target);
      if (leftovers.length) {
        await options.log(ctx, `Removing ${leftovers.length} service(s) an earlier attempt left`, 'WARN');
        await removeServices(ctx, leftovers);
      }
      // A node the manager still counts as ready may have just died: one whose Engine API does not
      // answer is passed over for the next.
      const candidates = await nodeCandidates(manager);
      const passedOver: string[] = [];
      let chosen: NodeCandidate;
      let engine: Docker;
      for (;;) {
        const choice = chooseDatabaseNode(candidates, plan.containerSizeMb * MB, passedOver);
        if ('problem' in choice) return options.fail(ctx, choice.problem);
        engine = nodeEngine(choice.engine ?? '');
        const answer = await answers(engine);
        if (answer.ok) {
          chosen = choice;
          break;
        }
        await options.log(
          ctx,
          `Node ${choice.hostname}'s Engine API does not answer (${answer.why}): passing it over`,
          'WARN',
        );
        passedOver.push(choice.id);
      }
      await options.log(
        ctx,
        `Placing ${target.handle} on node ${chosen.hostname} (${chosen.role}, ${Math.floor((chosen.memoryBytes - chosen.reservedBytes) / MB)} MB unreserved): its data stays there`,
      );
      const named = await imageForNodes(ctx, target, databaseImage(options.images, target, driver));
      const image = await imageOnNode(ctx, engine, chosen.hostname, named);

      const volume = volumeOf(target);
      const existed = await engine
        .getVolume(volume)
        .inspect()
        .then(
          () => true,
          () => false,
        );
      const labels = {
        [LABELS.managed]: 'true',
        [LABELS.installation]: options.installation,
        [LABELS.stack]: target.stackName,
        [LABELS.environment]: target.environmentHandle,
        [LABELS.environmentId]: String(target.environmentId),
        [LABELS.database]: keyOf(target),
        [LABELS.layer]: 'database',
        [LABELS.port]: String(driver.port),
        [LABELS.data]: driver.dataPath,
      };
      await engine.createVolume({ Name: volume, Labels: { ...labels, [NODE_LABEL]: chosen.id } });
      await options.log(
        ctx,
        `Created volume ${volume} on node ${chosen.hostname} (the local volume driver does not cap its size at ${plan.diskSizeGb} GB)`,
      );
      const name = serviceNameOf(target);
      let serviceId: string | undefined;
      try {
        const copy = async (file: string, content: Readable) => {
          const status = await putInVolume(
            engine,
            options.installation,
            image,
            volume,
            driver,
            file,
            content,
          );
          if (status !== 0)
            await options.fail(ctx, `Copying ${file} into the volume failed (exit code ${status})`);
        };
        if (seed.kind === 'backup' && 'file' in driver.restore) {
          // Loaded at start: the dump goes into the data directory first.
          await options.log(ctx, `Restoring data from backup ${seed.storageRef}`);
          await copy(driver.restore.file, fs.createReadStream(source ?? ''));
        }
        for (const [file, text] of Object.entries(driver.accountFiles?.(account) ?? {}))
          await copy(file, Readable.from([text]));
        const network = await environmentNetwork(manager, options.installation, target);
        await options.log(
          ctx,
          `Starting ${driver.name} ${target.version} (${named}) in ${plan.containerSizeMb} MB on node ${chosen.hostname}`,
        );
        const created = (await manager.createService(
          databaseServiceSpec({
            name,
            image,
            nodeId: chosen.id,
            network,
            volume,
            env: Object.entries(driver.environment(account)).map(([key, value]) => `${key}=${value}`),
            labels: { ...labels, [NODE_LABEL]: chosen.id },
            engine: driver,
            command: driver.command,
            memoryMb: plan.containerSizeMb,
            stopTimeoutSeconds: options.stopTimeoutSeconds,
          }),
        )) as unknown as { id?: string; ID?: string };
        serviceId = created.id ?? created.ID ?? '';
        const info = await waitReady(ctx, target, serviceId, engine, chosen.hostname, driver, new Set());
        if (seed.kind === 'backup' && 'command' in driver.restore) {
          await options.log(ctx, `Restoring data from backup ${seed.storageRef} on node ${chosen.hostname}`);
          const restored = await execInContainer(
            engine,
            ctx,
            info.Id,
            driver.restore.command,
            { input: source ?? '' },
            DUMP_TIMEOUT_MS,
          );
          if (restored.exitCode !== 0)
            await options.fail(
              ctx,
              `Restoring ${seed.storageRef} failed: ${restored.errors || `exit code ${restored.exitCode}`}`,
            );
        }
        if (seed.kind === 'backup') await options.log(ctx, `Restored backup ${seed.storageRef}`);
        await options.log(ctx, `Created user ${account.username} and database ${account.name}`);
        await options.log(
          ctx,
          `Database ${target.handle} is accepting connections at ${name}:${driver.port} on the ${network} network`,
        );
        const node = (await manager.getNode(chosen.id).inspect()) as SwarmNode;
        return {
          containers: [specOf(info, node, plan, driver)],
          host: name,
          port: driver.port,
          disk: {
            device: driver.dataPath,
            host: chosen.hostname,
            availabilityZone: `node ${chosen.id.slice(0, 12)}`,
            volumeId: volume,
            instanceId: info.Id.slice(0, 12),
            keyBytes: 0,
          },
        };
      } catch (error) {
        // Nothing of a database that never was is kept (a volume an earlier attempt made stays: it may hold data).
        await removeServices(ctx, await servicesOf(target)).catch(() => undefined);
        if (!existed)
          await engine
            .getVolume(volume)
            .remove()
            .catch(() => undefined);
        throw error instanceof RuntimeError ? error : new RuntimeError((error as Error).message);
      }
    },

    async restartDatabase(
      ctx: RuntimeContext,
      target: DatabaseTarget,
      plan: DatabasePlan,
      restart: { recreate: boolean; diskGrowsTo: number | null },
    ): Promise<ContainerSpec[]> {
      const driver = await engineOrFail(ctx, target);
      const { service, engine, node, nodeName } = await locateOrFail(ctx, target);
      if (restart.diskGrowsTo !== null)
        await options.log(
          ctx,
          `The local volume driver does not cap disks: ${target.handle} may use ${restart.diskGrowsTo} GB`,
        );
      const current = (await service.inspect()) as {
        ID: string;
        Version: { Index: number };
        Spec: Docker.CreateServiceOptions & {
          TaskTemplate: { ForceUpdate?: number; Resources?: Record<string, unknown> };
        };
      };
      const before = await taskIds(current.ID);
      await options.log(
        ctx,
        `${restart.recreate ? 'Recreating' : 'Restarting'} ${target.handle} in ${plan.containerSizeMb} MB on node ${nodeName}`,
      );
      // A new task on the same node and volume (its constraint): the old one stops first.
      await service.update({
        version: current.Version.Index,
        ...current.Spec,
        TaskTemplate: {
          ...current.Spec.TaskTemplate,
          Resources: {
            Limits: { MemoryBytes: plan.containerSizeMb * MB },
            Reservations: { MemoryBytes: plan.containerSizeMb * MB },
          },
          ForceUpdate: (current.Spec.TaskTemplate.ForceUpdate ?? 0) + 1,
        },
      } as never);
      const info = await waitReady(ctx, target, current.ID, engine, nodeName, driver, before);
      return [specOf(info, node, plan, driver)];
    },

    async reloadDatabase(ctx: RuntimeContext, target: DatabaseTarget) {
      const driver = await engineOrFail(ctx, target);
      if (driver.reload === null) {
        await options.log(
          ctx,
          `${driver.name} reads its configuration when it starts: restart ${target.handle} to apply it`,
          'WARN',
        );
        return;
      }
      const { service, engine, nodeName } = await locateOrFail(ctx, target);
      const container = await taskContainer(engine, service.id);
      if (!container)
        return options.fail(ctx, `Database ${target.handle} has no running container on node ${nodeName}`);
      await options.log(ctx, `Reloading the configuration of ${target.handle} on node ${nodeName}`);
      const reloaded = await execInContainer(engine, ctx, container.Id, driver.reload, {}, RELOAD_TIMEOUT_MS);
      if (reloaded.exitCode !== 0)
        await options.fail(
          ctx,
          `Reload of ${target.handle} failed: ${reloaded.errors || `exit code ${reloaded.exitCode}`}`,
        );
    },

    async backupDatabase(ctx: RuntimeContext, target: DatabaseTarget): Promise<DatabaseBackup> {
      const driver = await engineOrFail(ctx, target);
      const { service, engine, nodeName } = await locateOrFail(ctx, target);
      const container = await taskContainer(engine, service.id);
      if (!container)
        return options.fail(ctx, `Database ${target.handle} has no running container on node ${nodeName}`);
      await options.log(ctx, `Backing up ${target.handle} on node ${nodeName}, through its Engine API`);
      return backups.dump(ctx, engine, container.Id, target, driver);
    },

    async deleteBackup(ctx: RuntimeContext, storageRef: string) {
      await backups.remove(ctx, storageRef);
    },

    async deprovisionDatabase(ctx: RuntimeContext, target: DatabaseTarget) {
      await options.log(ctx, `Stopping ${target.handle}`);
      await removeServices(ctx, await servicesOf(target));
      await removeVolumes(ctx, target);
      await options.log(ctx, `Deleted the service and disk of ${target.handle}`);
    },

    /** Why the database cannot run now (its node is down or gone), or null: for its status on the console. */
    async databaseNodeProblem(target: DatabaseTarget): Promise<string | null> {
      const located = await locate(target);
      return 'problem' in located ? located.problem : null;
    },

    /** The runtime's name for the same question, so the swarm runtime takes it with the other parts. */
    async databaseProblem(target: DatabaseTarget): Promise<string | null> {
      const located = await locate(target);
      return 'problem' in located ? located.problem : null;
    },
  };
}
