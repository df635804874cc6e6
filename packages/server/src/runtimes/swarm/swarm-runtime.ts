import type Docker from 'dockerode';
import type { Edge } from '../docker/caddy-edge.ts';
import {
  createDockerEndpoints,
  type ServiceUpstreams,
  type UpstreamSource,
} from '../docker/docker-endpoints.ts';
import { DEFAULT_APP_PORT } from '../docker/docker-runtime.ts';
import type { DockerStatsRecorder } from '../docker/docker-stats.ts';
import { readEdgeAccessLog } from '../docker/edge-access-log.ts';
import {
  dockerNetworks,
  exposedPorts,
  isServiceKey,
  LABELS,
  logLines,
  serviceKey,
} from '../docker/engine.ts';
import { removeRepository } from '../docker/git-source.ts';
import {
  createImageSource,
  fail,
  followProgress,
  interrupted,
  log,
  registryOf,
  sleep,
} from '../docker/image-source.ts';
import type {
  AppTarget,
  BuiltImage,
  ContainerLogLine,
  ContainerSpec,
  Runtime,
  RuntimeContext,
  ServicePlan,
} from '../runtime.ts';
import { newestLines, RuntimeError, registryAuthOf } from '../runtime.ts';
import { NODE_ENGINE_LABEL } from './swarm-databases.ts';
import { watchSwarmChanges } from './swarm-events.ts';
import { setSwarmNodeAvailability } from './swarm-node-availability.ts';
import {
  createNodeLossTracker,
  describeLostNode,
  type LostNode,
  slotsSwarmKeeps,
} from './swarm-node-loss.ts';
import { listSwarmNodes } from './swarm-nodes.ts';
import {
  isRunning,
  limitHolds,
  madeFrom,
  maxReplicasPerNode,
  parseSlotName,
  type SwarmNode,
  type SwarmTask,
  slotName,
  swarmImageRepository,
  swarmServiceName,
  swarmServiceSpec,
  type TaskTemplate,
  taskUpstreams,
} from './swarm-spec.ts';

type DatabaseMethods = Pick<
  Runtime,
  | 'provisionDatabase'
  | 'restartDatabase'
  | 'reloadDatabase'
  | 'backupDatabase'
  | 'deleteBackup'
  | 'deprovisionDatabase'
  | 'databaseProblem'
>;

export interface SwarmRuntimeOptions {
  /** The key it runs under: `swarm` (BERTH_SWARM_HOST), or `swarm:<stack>` for a registered cluster. */
  name?: string;
  /** The manager's Engine API (BERTH_SWARM_HOST): builds, pushes, services, tasks, logs. */
  docker: Docker;
  /** BERTH_REGISTRY (host:port): where built images are pushed for every node to pull. */
  registry: string;
  gitDir: string;
  publicUrl: string;
  installation: string;
  /** How long a new task has to pass its health check before the roll-out fails and rolls back. */
  healthTimeoutMs: number;
  stopTimeoutSeconds: number;
  /** The databases' side of the runtime (swarm-databases.ts). */
  databases: DatabaseMethods;
  /** A node's own Engine API from its `berth.engine` label (its containers' stats). */
  nodeEngine?: (address: string) => Docker;
  /** Samples the stats of one node's engine's containers. */
  statsOf?: (engine: Docker) => DockerStatsRecorder;
  /** The overlay network of an environment (swarm-networks.ts), made when missing; none: no network. */
  environmentNetwork?: (target: AppTarget) => Promise<string>;
  /** Removes an environment's overlay network once the environment is deleted (swarm-networks.ts). */
  removeEnvironmentNetwork?: (environmentId: number) => Promise<void>;
  edge?: Edge;
  edgePorts?: { http: number; https: number };
  edgeAccessLog?: string;
}

/** How often a roll-out looks at its service's update and tasks. */
const POLL_MS = 1000;
/** After a node or service event, how long and how often the routes are repaired. */
const EVENT_REPAIR_FOR_MS = 60_000;
const EVENT_REPAIR_EVERY_MS = 3000;

const updateStatusOf = (service: Docker.Service) =>
  (service as { UpdateStatus?: { State?: string; Message?: string; StartedAt?: string } }).UpdateStatus;

const statusOf = (error: unknown) => (error as { statusCode?: number }).statusCode;

/**
 * The `swarm` runtime: apps as Docker Swarm services on a cluster whose manager answers at
 * BERTH_SWARM_HOST. An app's image is built on the manager as on `docker`, pushed to BERTH_REGISTRY and
 * run pinned by digest; each process is one service of `containerCount` replicas spread over the
 * nodes, rolled out start-first behind its health check and rolled back by Swarm when it fails. The
 * edge reaches each task at its node's address and the port the node published for it (mode host).
 */
export function createSwarmRuntime(options: SwarmRuntimeOptions): Runtime & {
  close(): void;
  followEvents(
    onChanges: (changes: string[]) => void,
    onError: (error: unknown) => void,
    onNodeLost?: (node: LostNode) => unknown,
  ): void;
} {
  const { docker } = options;
  const images = createImageSource({
    docker,
    gitDir: options.gitDir,
    publicUrl: options.publicUrl,
    installation: options.installation,
  });

  /** A task's output through the manager (dockerode's Task has the call, its types not yet). */
  const taskLogs = (id: string, query: Record<string, unknown>) =>
    (docker.getTask(id) as unknown as { logs(query: Record<string, unknown>): Promise<unknown> }).logs(query);

  /** Updates a service to a spec at the version read (the query) with the pulls' account, if any. */
  function updateService(id: string, auth: object | undefined, options: { _query: object; _body: object }) {
    const service = docker.getService(id) as unknown as {
      update(auth: object | undefined, options: object): Promise<unknown>;
    };
    return service.update(auth, options);
  }

  const nameOf = (target: Pick<AppTarget, 'appId'>, handle: string) =>
    swarmServiceName(options.installation, target.appId, handle);

  async function nodes(): Promise<SwarmNode[]> {
    return (await docker.listNodes()) as SwarmNode[];
  }

  const readyNodes = (all: SwarmNode[]) =>
    all.filter(
      (node) => node.Status?.State === 'ready' && (node.Spec?.Availability ?? 'active') === 'active',
    );

  async function tasksOf(service: string): Promise<SwarmTask[]> {
    return (await docker.listTasks({ filters: { service: [service] } })) as SwarmTask[];
  }

  /** This Berth's app services. */
  async function myServices(): Promise<Docker.Service[]> {
    return docker.listServices({
      filters: { label: [`${LABELS.installation}=${options.installation}`, `${LABELS.layer}=app`] },
    });
  }

  async function inspectService(name: string): Promise<Docker.Service | null> {
    try {
      return (await docker.getService(name).inspect()) as Docker.Service;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  const portOfService = (service: Docker.Service) => Number(service.Spec?.Labels?.[LABELS.port] ?? 0) || 0;
  const imageOfService = (service: Docker.Service) =>
    (service.Spec?.TaskTemplate as { ContainerSpec?: { Image?: string } } | undefined)?.ContainerSpec?.Image;

  /** The upstreams of one of this Berth's services, from its tasks. */
  function upstreamsOfService(
    service: Docker.Service,
    tasks: SwarmTask[],
    all: SwarmNode[],
  ): ServiceUpstreams {
    const port = portOfService(service);
    if (!port) return { newest: [], running: [] };
    return {
      newest: taskUpstreams(tasks, all, port, imageOfService(service)),
      running: taskUpstreams(tasks, all, port),
    };
  }

  const upstreams: UpstreamSource = {
    async ofService(key) {
      const service = (await myServices()).find((entry) => entry.Spec?.Labels?.[LABELS.service] === key);
      if (!service?.Spec?.Name) return { newest: [], running: [] };
      return upstreamsOfService(service, await tasksOf(service.Spec.Name), await nodes());
    },
    async snapshot() {
      const [services, all, tasks] = await Promise.all([
        myServices(),
        nodes(),
        docker.listTasks({
          filters: { label: [`${LABELS.installation}=${options.installation}`] },
        }) as Promise<SwarmTask[]>,
      ]);
      const byKey = new Map<string, Docker.Service>();
      for (const service of services) {
        const key = service.Spec?.Labels?.[LABELS.service] ?? '';
        if (isServiceKey(key)) byKey.set(key, service);
      }
      return {
        keys: [...byKey.keys()],
        async ofService(key) {
          const service = byKey.get(key);
          if (!service) return { newest: [], running: [] };
          return upstreamsOfService(
            service,
            tasks.filter((task) => (task as { ServiceID?: string }).ServiceID === service.ID),
            all,
          );
        },
      };
    },
  };

  const endpoints = createDockerEndpoints({
    docker,
    // The docker runtime's networks are not used: the upstreams come from the tasks.
    networks: dockerNetworks(docker, 'berth-swarm', options.installation),
    installation: options.installation,
    edge: options.edge,
    ports: options.edgePorts ?? { http: 8080, https: 8443 },
    publicHost: new URL(options.publicUrl).hostname,
    log,
    fail,
    upstreams,
    addNewUpstreams: true,
    publishedPorts: true,
    runtimeName: 'swarm',
  });

  /** Points the service's endpoints at its running tasks (those of its current image once `final`). */
  async function routeTasks(key: string, name: string, final: boolean): Promise<number> {
    if (!options.edge) return 0;
    const service = await inspectService(name);
    if (!service) return options.edge.switchService(key, [], []);
    const found = upstreamsOfService(service, await tasksOf(name), await nodes());
    return options.edge.switchService(key, final ? found.newest : found.running, []);
  }

  /** The last lines of a task's output, through the manager (whichever node ran it). */
  async function taskLines(taskId: string, count: number): Promise<string[]> {
    try {
      const raw = (await taskLogs(taskId, {
        stdout: true,
        stderr: true,
        tail: count,
        follow: false,
      })) as unknown as Buffer;
      return logLines(raw).map((entry) => entry.line);
    } catch {
      return [];
    }
  }

  /** Why the tasks of a roll-out failed: each failed task's error and last lines. */
  async function failedTaskReport(name: string, since: number): Promise<string[]> {
    const failed = (await tasksOf(name))
      .filter(
        (task) =>
          Date.parse(task.CreatedAt ?? '') >= since &&
          ['failed', 'rejected', 'shutdown', 'complete'].includes(task.Status?.State ?? '') &&
          task.Status?.Err,
      )
      .sort((a, b) => Date.parse(b.CreatedAt ?? '') - Date.parse(a.CreatedAt ?? ''))
      .slice(0, 2);
    const lines: string[] = [];
    for (const task of failed) {
      lines.push(
        `Task ${name}.${task.Slot ?? '?'} (${task.ID.slice(0, 12)}): ${task.Status?.Err ?? task.Status?.State}`,
      );
      for (const line of await taskLines(task.ID, 20)) lines.push(`  ${line}`);
    }
    return lines;
  }

  /** The record of a service's running tasks, one per slot. */
  async function specsOf(name: string, service: ServicePlan, port: number | null): Promise<ContainerSpec[]> {
    const [tasks, all] = await Promise.all([tasksOf(name), nodes()]);
    const addresses = new Map(all.map((node) => [node.ID, node]));
    const bySlot = new Map<number, SwarmTask>();
    for (const task of tasks) if (isRunning(task) && task.Slot) bySlot.set(task.Slot, task);
    return [...bySlot.entries()]
      .sort(([a], [b]) => a - b)
      .map(([slot, task]) => {
        const node = addresses.get(task.NodeID ?? '');
        return {
          dockerName: slotName(name, slot),
          host: node?.Description?.Hostname ?? node?.Status?.Addr ?? '',
          awsInstanceId: task.ID.slice(0, 12),
          instanceClass: service.instanceClass,
          memoryLimit: service.memoryLimitMb,
          port: port ?? 0,
          layer: 'app',
          status: 'running',
        };
      });
  }

  /**
   * Waits until Swarm has finished the service's update (or, for a new service, until its replicas run
   * and pass their checks), keeping the edge on its running tasks meanwhile. A rolled-back update, or
   * a new service that does not come up in time, is a RuntimeError with the failed tasks' last lines.
   */
  async function awaitRollOut(
    ctx: RuntimeContext,
    key: string,
    name: string,
    service: ServicePlan,
    created: boolean,
    since: number,
    previousUpdate: string | undefined,
  ): Promise<void> {
    // Swarm retries a failing task for ever: a new service gets the health timeout, twice over for its
    // image's pull on each node, and an update as long as its tasks' checks and monitors need.
    const deadline = Date.now() + options.healthTimeoutMs * 2 + 30_000 + service.containerCount * 15_000;
    let lastState = '';
    for (;;) {
      if (ctx.signal.aborted) throw interrupted();
      await routeTasks(key, name, false).catch(() => 0);
      const info = await inspectService(name);
      if (!info) return fail(ctx, `Service ${name} is gone from the cluster`);
      const update = updateStatusOf(info);
      const state = update?.State ?? '';
      if (state && state !== lastState) {
        lastState = state;
        await log(
          ctx,
          `Swarm: ${state.replaceAll('_', ' ')}${update?.Message ? ` (${update.Message})` : ''}`,
        );
      }
      // A status left by an earlier update (a scale changes no task, and starts none) is not this one's.
      const fresh = Boolean(update?.StartedAt) && update?.StartedAt !== previousUpdate;
      if (fresh && (state === 'rollback_completed' || state === 'rollback_paused' || state === 'paused')) {
        const report = await failedTaskReport(name, since);
        return fail(
          ctx,
          [
            `The roll-out of service ${service.handle} failed its health checks and was rolled back: the previous tasks keep serving`,
            ...report,
          ].join('\n'),
        );
      }
      // Done when enough tasks run what the service now says (a status may not be there yet: right after
      // the update call the old tasks still run the old template, and are not counted).
      if (!fresh || state === 'completed') {
        const template = info.Spec?.TaskTemplate as TaskTemplate | undefined;
        const running = (await tasksOf(name)).filter((task) => isRunning(task) && madeFrom(task, template));
        if (running.length >= service.containerCount) return;
      }
      if (Date.now() > deadline) {
        const report = await failedTaskReport(name, since);
        if (created)
          await docker
            .getService(name)
            .remove()
            .catch(() => undefined);
        return fail(
          ctx,
          [
            `Service ${service.handle} did not run its ${service.containerCount} task(s) within ${Math.round((deadline - since) / 1000)} s`,
            ...report,
          ].join('\n'),
        );
      }
      await sleep(POLL_MS, ctx.signal);
    }
  }

  /** The port a process answers on (web and an image's own command): the image's first exposed. */
  async function portOf(
    service: ServicePlan,
    image: string,
  ): Promise<{ port: number | null; healthcheck: boolean }> {
    const info = await docker
      .getImage(image)
      .inspect()
      .catch(() => null);
    const healthcheck = Boolean(
      (info?.Config as { Healthcheck?: { Test?: string[] } } | undefined)?.Healthcheck?.Test?.length,
    );
    if (service.processType !== 'cmd' && service.processType !== 'web') return { port: null, healthcheck };
    return { port: (info ? exposedPorts(info)[0] : undefined) ?? DEFAULT_APP_PORT, healthcheck };
  }

  /** Creates or updates the process's service to this spec, and waits for Swarm to roll it out. */
  async function deploy(
    ctx: RuntimeContext,
    target: AppTarget,
    service: ServicePlan,
    image: string,
    env: Record<string, string>,
    force: boolean,
  ): Promise<ContainerSpec[]> {
    const key = serviceKey(target, service.handle);
    const name = nameOf(target, service.handle);
    await endpoints.adoptRoutes(ctx, key, service.endpointIds);
    const { port, healthcheck } = await portOf(service, image);
    const ready = readyNodes(await nodes()).length;
    if (ready === 0) return fail(ctx, 'No node of the cluster is ready: the service cannot run');
    const spec = swarmServiceSpec({
      name,
      installation: options.installation,
      target,
      service,
      image,
      env,
      port,
      imageHasHealthcheck: healthcheck,
      healthTimeoutMs: options.healthTimeoutMs,
      stopTimeoutSeconds: options.stopTimeoutSeconds,
      readyNodes: ready,
      network: options.environmentNetwork ? await options.environmentNetwork(target) : null,
    });
    // The app's private registry account goes to Swarm (the nodes' pulls), never to the containers.
    const auth = registryAuthOf(env);
    const authconfig = auth
      ? { username: auth.username, password: auth.password, serveraddress: registryOf(image) }
      : undefined;
    const since = Date.now() - 1000;
    const existing = await inspectService(name);
    await log(
      ctx,
      `${existing ? 'Updating' : 'Creating'} Swarm service ${name}: ${service.containerCount} replica(s) of ${service.memoryLimitMb} MB over ${ready} ready node(s), start-first`,
    );
    try {
      if (existing) {
        const template = spec.TaskTemplate as Record<string, unknown>;
        const previous = existing.Spec?.TaskTemplate as { ForceUpdate?: number } | undefined;
        await updateService(name, authconfig, {
          _query: { version: existing.Version?.Index },
          _body: {
            ...spec,
            TaskTemplate: { ...template, ForceUpdate: (previous?.ForceUpdate ?? 0) + (force ? 1 : 0) },
          },
        });
      } else {
        await docker.createService(authconfig as never, spec as never);
      }
    } catch (error) {
      return fail(ctx, `Swarm refused service ${name}: ${(error as Error).message}`);
    }
    await awaitRollOut(
      ctx,
      key,
      name,
      service,
      !existing,
      since,
      existing ? updateStatusOf(existing)?.StartedAt : undefined,
    );
    const switched = await routeTasks(key, name, true);
    if (switched > 0) await log(ctx, `Switched ${switched} endpoint route(s) to the new task(s)`);
    const specs = await specsOf(name, service, port);
    await log(
      ctx,
      `Service ${service.handle} runs ${specs.length} task(s) on ${new Set(specs.map((s) => s.host)).size} node(s)`,
    );
    return specs;
  }

  /** Tags a built image for the registry, pushes it, and answers the pushed digest. */
  async function push(ctx: RuntimeContext, target: AppTarget, image: BuiltImage): Promise<BuiltImage> {
    const repository = swarmImageRepository(options.registry, options.installation, target.appId);
    const tag = (image.commit?.sha ?? image.dockerRef.replace(/^sha256:/, '')).slice(0, 12);
    await docker.getImage(image.dockerRef).tag({ repo: repository, tag });
    await log(ctx, `Pushing ${repository}:${tag}`);
    let digest: string | undefined;
    let error: string | undefined;
    try {
      // A registry that asks for no account still needs the header from the Engine API.
      const stream = await docker
        .getImage(`${repository}:${tag}`)
        .push({ tag, authconfig: { serveraddress: options.registry } });
      await followProgress(docker, stream, (event) => {
        const aux = (event as { aux?: { Digest?: string } }).aux;
        if (aux?.Digest) digest = aux.Digest;
        if (event.error) error = event.error;
      });
    } catch (pushError) {
      error ??= (pushError as Error).message;
    }
    if (error || !digest)
      return fail(
        ctx,
        `Unable to push ${repository}:${tag} to ${options.registry}: ${error ?? 'no digest came back'}`,
      );
    await log(ctx, `Pushed ${repository}@${digest}`);
    return { ...image, dockerRepo: repository, dockerRef: `${repository}@${digest}` };
  }

  /** Waits (at most 30 s) until the removed services' tasks have no container left running. */
  async function tasksGone(serviceIds: string[]): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (serviceIds.length && Date.now() < deadline) {
      const left = (await docker.listTasks().catch(() => [] as SwarmTask[])) as (SwarmTask & {
        ServiceID?: string;
      })[];
      if (!left.some((task) => serviceIds.includes(task.ServiceID ?? ''))) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  /** The running task of a recorded slot. */
  async function taskOfSlot(recorded: string): Promise<SwarmTask | null> {
    const slot = parseSlotName(recorded);
    if (!slot) return null;
    const tasks = await tasksOf(slot.service).catch(() => [] as SwarmTask[]);
    return tasks.find((task) => task.Slot === slot.slot && isRunning(task)) ?? null;
  }

  const recorders = new Map<string, DockerStatsRecorder>();
  const watching = new AbortController();
  let closed = false;

  /**
   * Keeps each service's per-node limit able to hold its replicas on the nodes that are ready now (a
   * node lost can make it too tight: Swarm would leave replicas pending). What it changed.
   */
  async function rebalance(): Promise<string[]> {
    const ready = readyNodes(await nodes()).length;
    const changes: string[] = [];
    for (const service of await myServices()) {
      const spec = service.Spec as
        | (Docker.ServiceSpec & { TaskTemplate?: { Placement?: { MaxReplicas?: number } } })
        | undefined;
      const replicas = spec?.Mode?.Replicated?.Replicas ?? 0;
      const limit = spec?.TaskTemplate?.Placement?.MaxReplicas ?? 0;
      if (!spec?.Name || limit === 0 || limitHolds(limit, replicas, ready)) continue;
      const next = maxReplicasPerNode(replicas, ready);
      await updateService(service.ID, undefined, {
        _query: { version: service.Version?.Index },
        _body: {
          ...spec,
          TaskTemplate: {
            ...spec.TaskTemplate,
            Placement: { ...spec.TaskTemplate?.Placement, MaxReplicas: next },
          },
        },
      });
      changes.push(`service ${spec.Name}: at most ${next} task(s) per node on ${ready} ready node(s)`);
    }
    return changes;
  }

  return {
    name: options.name ?? 'swarm',

    async buildImage(ctx, target, source) {
      if (source.dockerImage) {
        // Pulled on the manager for its ports and processes; the nodes pull it themselves.
        const pulled = await images.imageFromRegistry(ctx, source.dockerImage, source.registryAuth);
        const info = await docker.getImage(pulled.dockerRef).inspect();
        const pinned = info.RepoDigests?.find((digest) => digest.startsWith(`${pulled.dockerRepo}@`));
        return { ...pulled, dockerRef: pinned ?? source.dockerImage };
      }
      const built = await images.imageFromGit(ctx, target, source.gitRef ?? 'main');
      return push(ctx, target, built);
    },

    async rollOut(ctx, target, service, image, env) {
      return deploy(ctx, target, service, image.dockerRef, env, false);
    },

    async restart(ctx, target, service, _recreate, release) {
      // A forced update: every task is replaced, start-first, behind its checks.
      await log(
        ctx,
        `Restarting service ${service.handle}: Swarm replaces its tasks one at a time, start-first`,
      );
      return deploy(ctx, target, service, release.image.dockerRef, release.env, true);
    },

    async removeApp(ctx, target) {
      const services = (await myServices()).filter(
        (service) => service.Spec?.Labels?.[LABELS.app] === `app-${target.appId}`,
      );
      for (const service of services) {
        await docker
          .getService(service.ID)
          .remove()
          .catch((error) => {
            if (statusOf(error) !== 404) throw error;
          });
        await log(ctx, `Removed Swarm service ${service.Spec?.Name}`);
        if (options.edge)
          await options.edge.switchService(service.Spec?.Labels?.[LABELS.service] ?? '', [], []);
      }
      // Its tasks' containers stop a moment after their services go; an image in use cannot be removed.
      await tasksGone(services.map((service) => service.ID));
      // Each node pulled its images by digest: they go from every node whose Engine API Berth knows.
      const repository = swarmImageRepository(options.registry, options.installation, target.appId);
      for (const node of await nodes()) {
        const address = node.Spec?.Labels?.[NODE_ENGINE_LABEL];
        const name = node.Description?.Hostname ?? node.ID;
        if (!address || !options.nodeEngine || node.Status?.State !== 'ready') {
          // Nothing comes back to it later: say so, for the operator to remove them there by hand.
          await log(
            ctx,
            `The images of ${target.appHandle} pulled on node ${name} stay there: ${address ? `the node is ${node.Status?.State ?? 'unknown'}` : `it has no ${NODE_ENGINE_LABEL} label`}`,
            'WARN',
          );
          continue;
        }
        const engine = options.nodeEngine(address);
        const pulled = await engine.listImages().catch(() => [] as Docker.ImageInfo[]);
        for (const image of pulled)
          if ((image.RepoDigests ?? []).some((digest) => digest.startsWith(`${repository}@`)))
            await engine
              .getImage(image.Id)
              .remove({ force: true })
              .catch(() => undefined);
      }
      // Its images on the manager go, and their tags in the registry (the registry must allow deletes).
      const local = [
        ...(await docker.listImages({ filters: { reference: [repository] } })),
        // Built from its repository on the manager (image-source.ts labels them, as on docker).
        ...(await docker.listImages({
          filters: {
            label: [`${LABELS.app}=app-${target.appId}`, `${LABELS.installation}=${options.installation}`],
          },
        })),
      ];
      for (const image of local)
        await docker
          .getImage(image.Id)
          .remove({ force: true })
          .catch(() => undefined);
      const removed = await deleteRegistryTags(repository);
      if (removed.error)
        await log(ctx, `The registry kept the images of ${target.appHandle}: ${removed.error}`, 'WARN');
      else if (removed.count)
        await log(
          ctx,
          `Removed ${removed.count} image tag(s) of ${target.appHandle} from ${options.registry}`,
        );
      if (await removeRepository(options.gitDir, target))
        await log(ctx, `Removed the git repository of ${target.appHandle}`);
      await log(ctx, `Removed app ${target.appHandle} from ${target.stackName}`);
    },

    scanCode: images.scanCode,
    provisionEndpoint: endpoints.provisionEndpoint,
    renewEndpointCertificate: endpoints.renewEndpointCertificate,
    deprovisionEndpoint: endpoints.deprovisionEndpoint,

    async repairRouting(recorded) {
      const changes = await rebalance();
      return [...changes, ...(await endpoints.repairRouting(recorded))];
    },

    async removeEnvironment(environment) {
      await options.removeEnvironmentNetwork?.(environment.id);
    },

    provisionDatabase: (...args) => options.databases.provisionDatabase(...args),
    restartDatabase: (...args) => options.databases.restartDatabase(...args),
    reloadDatabase: (...args) => options.databases.reloadDatabase(...args),
    backupDatabase: (...args) => options.databases.backupDatabase(...args),
    deleteBackup: (...args) => options.databases.deleteBackup(...args),
    deprovisionDatabase: (...args) => options.databases.deprovisionDatabase(...args),
    // Why a database cannot run (its node is lost): the database page says so.
    databaseProblem: (...args) => options.databases.databaseProblem?.(...args) ?? Promise.resolve(null),

    async containerMetrics(container, metric, ticks) {
      // Each node's engine samples its own containers: the slot's running task tells which.
      const task = await taskOfSlot(container.dockerName);
      const node = task ? (await nodes()).find((entry) => entry.ID === task.NodeID) : undefined;
      const address = node?.Spec?.Labels?.[NODE_ENGINE_LABEL];
      if (!task || !address || !options.nodeEngine || !options.statsOf) return [];
      let recorder = recorders.get(address);
      if (!recorder) {
        recorder = options.statsOf(options.nodeEngine(address));
        recorders.set(address, recorder);
      }
      const slot = parseSlotName(container.dockerName);
      const containerName = `${container.dockerName}.${task.ID}`;
      return slot ? recorder.series({ ...container, dockerName: containerName }, metric, ticks) : [];
    },

    async runningContainers() {
      const tasks = (await docker.listTasks({
        filters: { label: [`${LABELS.installation}=${options.installation}`], 'desired-state': ['running'] },
      })) as (SwarmTask & { ServiceID?: string })[];
      const services = new Map((await myServices()).map((service) => [service.ID, service.Spec?.Name ?? '']));
      return slotsSwarmKeeps(tasks, services);
    },

    async endpointLogs(list, tail, since) {
      if (!options.edgeAccessLog || list.length === 0) return [];
      const hostnames = new Set(list.map((endpoint) => endpoint.hostname.toLowerCase()));
      return readEdgeAccessLog(options.edgeAccessLog, hostnames, tail, since);
    },

    async containerLogs(containers, tail, since) {
      const lines: ContainerLogLine[] = [];
      await Promise.all(
        containers.map(async (container) => {
          const task = await taskOfSlot(container.dockerName);
          if (!task) return;
          let raw: Buffer;
          try {
            raw = (await taskLogs(task.ID, {
              stdout: true,
              stderr: true,
              timestamps: true,
              tail,
              follow: false,
              ...(since ? { since: Math.floor(since.getTime() / 1000) } : {}),
            })) as unknown as Buffer;
          } catch {
            return;
          }
          for (const entry of logLines(raw)) {
            const space = entry.line.indexOf(' ');
            const time = new Date(space > 0 ? entry.line.slice(0, space) : Number.NaN);
            if (Number.isNaN(time.getTime()) || (since && time <= since)) continue;
            lines.push({
              time,
              container: container.dockerName,
              stream: entry.stream,
              line: entry.line.slice(space + 1),
            });
          }
        }),
      );
      return newestLines(lines, tail);
    },

    /**
     * Follows the cluster's node and service events: after each, for a while (Swarm reschedules a lost
     * node's tasks some seconds after it marks the node down, and tasks have no events of their own), the
     * per-node limits and the routes are repaired as the minutely pass does, so the edge follows tasks as
     * they move within seconds. Routes to tasks that run are left alone: a roll-out is never undone.
     * A node's loss is told once, with this Berth's containers it ran (read from the manager at once,
     * before Swarm's new tasks replace them), for Berth to record on each app.
     */
    followEvents(onChanges, onError, onNodeLost) {
      const losses = createNodeLossTracker();
      let pass: Promise<void> = Promise.resolve();
      let until = 0;
      let timer: NodeJS.Timeout | null = null;
      const tick = () => {
        timer = null;
        // A pass set for after the runtime closed would reach a cluster Berth no longer follows.
        if (closed) return;
        pass = pass
          .then(async () => {
            const changes = [...(await rebalance()), ...(await endpoints.repairRouting([]))];
            if (changes.length) onChanges(changes);
          })
          .catch(onError)
          .finally(() => {
            if (Date.now() < until && !closed) timer = setTimeout(tick, EVENT_REPAIR_EVERY_MS);
          });
      };
      // The watcher reconnects with a back-off and asks for what it missed (swarm-events.ts).
      void watchSwarmChanges(
        docker,
        (change) => {
          if (onNodeLost && losses.startsLoss(change) && change.kind === 'node')
            describeLostNode(docker, options.installation, change.nodeId, change.hostname)
              .then(onNodeLost)
              .catch(onError);
          until = Date.now() + EVENT_REPAIR_FOR_MS;
          if (!timer) timer = setTimeout(tick, EVENT_REPAIR_EVERY_MS);
        },
        {
          signal: watching.signal,
          onStatus: (status) => {
            if (!status.connected && status.error) onError(new Error(status.error));
          },
          onError,
        },
      );
    },

    /** The cluster's nodes, each with this Berth's task containers (the stack page's Nodes tab). */
    listNodes() {
      return listSwarmNodes(docker, options.installation);
    },

    /** Drain (paused first), pause or activate a node: the stack page's Drain / Activate. */
    async setNodeAvailability(_stack, nodeId, availability) {
      await setSwarmNodeAvailability(docker, nodeId, availability);
    },

    close() {
      closed = true;
      watching.abort();
      for (const recorder of recorders.values()) recorder.close();
      recorders.clear();
    },
  };

  /**
   * Deletes a repository's tags from the registry (Registry API v2: the manifest by digest). A registry
   * started without deletes enabled answers 405: the tags stay, and the caller says so.
   */
  async function deleteRegistryTags(repository: string): Promise<{ count: number; error?: string }> {
    const name = repository.slice(options.registry.length + 1);
    const base = `http://${options.registry}/v2/${name}`;
    try {
      const list = await fetch(`${base}/tags/list`, { signal: AbortSignal.timeout(10_000) });
      if (list.status === 404) return { count: 0 };
      const tags = ((await list.json()) as { tags?: string[] | null }).tags ?? [];
      let count = 0;
      for (const tag of tags.slice(0, 1000)) {
        const head = await fetch(`${base}/manifests/${encodeURIComponent(tag)}`, {
          method: 'HEAD',
          headers: {
            Accept:
              'application/vnd.docker.distribution.manifest.v2+json, application/vnd.oci.image.manifest.v1+json',
          },
          signal: AbortSignal.timeout(10_000),
        });
        const digest = head.headers.get('docker-content-digest');
        if (!digest) continue;
        const removed = await fetch(`${base}/manifests/${digest}`, {
          method: 'DELETE',
          signal: AbortSignal.timeout(10_000),
        });
        if (removed.status === 405)
          return { count, error: 'it does not allow deletes (REGISTRY_STORAGE_DELETE_ENABLED)' };
        if (removed.ok || removed.status === 404) count++;
      }
      return { count };
    } catch (error) {
      return { count: 0, error: (error as Error).message };
    }
  }
}

export { RuntimeError };
