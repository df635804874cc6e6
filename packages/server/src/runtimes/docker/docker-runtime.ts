import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type Docker from 'dockerode';
import type {
  AppTarget,
  ContainerLogLine,
  ContainerSpec,
  Runtime,
  RuntimeContext,
  ServicePlan,
} from '../runtime.ts';
import { containerEnv, newestLines, RuntimeError } from '../runtime.ts';
import type { Edge } from './caddy-edge.ts';
import { createDockerDatabases } from './docker-databases.ts';
import { createDockerEndpoints } from './docker-endpoints.ts';
import { dockerEngineNode } from './docker-nodes.ts';
import type { DockerStatsRecorder } from './docker-stats.ts';
import { readEdgeAccessLog } from './edge-access-log.ts';
import {
  appKey,
  containersLabelled,
  dockerNetworks,
  exposedPorts,
  httpAnswers,
  isAppKey,
  isServiceKey,
  LABELS,
  lastLogLines,
  logLines,
  serviceContainers,
  serviceKey,
  tcpAnswers,
} from './engine.ts';
import { removeRepository } from './git-source.ts';
import { createImageSource, fail, interrupted, log, nameOf, sleep } from './image-source.ts';

export { pullFailure, registryOf } from './image-source.ts';

export interface DockerRuntimeOptions {
  docker: Docker;
  /** Where the apps' bare repositories live (`<gitDir>/<app id>.git`). */
  gitDir: string;
  /** The console's public origin: the apps' git remotes hang off it. */
  publicUrl: string;
  /**
   * BERTH_DOCKER_NETWORK: the prefix of the environments' bridge networks, and the network containers
   * made before those shared (engine.ts dockerNetworks).
   */
  network: string;
  /** How long new containers have to answer before a deploy fails and the old ones keep serving. */
  healthTimeoutMs: number;
  /** Seconds a container gets to stop before it is killed. */
  stopTimeoutSeconds: number;
  /** Samples the containers' stats for the metric charts. */
  stats: DockerStatsRecorder;
  /** This Berth's id on the engine's objects: it touches no container another Berth made. */
  installation: string;
  /** Where database backups' dumps are kept. */
  backupDir: string;
  /** Database images by `type` or `type:version` (BERTH_DATABASE_IMAGES), over the official ones. */
  databaseImages: Record<string, string>;
  /** The edge endpoints are routed on (none: endpoints fail, roll-outs switch nothing). */
  edge?: Edge;
  /** The edge's listeners. */
  edgePorts?: { http: number; https: number };
  /** The edge's access log (JSON lines): the endpoints' logs. */
  edgeAccessLog?: string;
}

/** The port a service's containers get in PORT (and answer on) when the image exposes none. */
export const DEFAULT_APP_PORT = 5000;
const MB = 1024 * 1024;
/** How long a container without a port must keep running to count as started. */
const SETTLE_MS = 2000;
/** How long the requests in flight to a container taken out of the edge have to answer before it stops. */
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * The `docker` runtime: real containers through the Docker Engine API (dockerode). Apps are built
 * from their git repository's Dockerfile or run from an image; each service runs its container count
 * of containers with its memory limit, the app's configuration and PORT; a deploy starts the new
 * containers, waits for them to answer, then stops the old ones, and leaves the old ones serving when
 * the new ones do not answer.
 */
export function createDockerRuntime(options: DockerRuntimeOptions): Runtime {
  const { docker } = options;
  const networks = dockerNetworks(docker, options.network, options.installation);
  const machine = hostname();
  /** Only this Berth's containers carrying the labels. */
  const mine = (labels: Record<string, string>) =>
    containersLabelled(docker, { ...labels, [LABELS.installation]: options.installation });

  const images = createImageSource({
    docker,
    gitDir: options.gitDir,
    publicUrl: options.publicUrl,
    installation: options.installation,
  });
  const { imageFromRegistry, imageFromGit } = images;

  const endpoints = createDockerEndpoints({
    docker,
    networks,
    installation: options.installation,
    edge: options.edge,
    ports: options.edgePorts ?? { http: 8080, https: 8443 },
    publicHost: new URL(options.publicUrl).hostname,
    log,
    fail,
  });

  const databases = createDockerDatabases({
    docker,
    networks,
    installation: options.installation,
    backupDir: options.backupDir,
    images: options.databaseImages,
    // A first start initializes the engine's data: longer than an app has to answer.
    readyTimeoutMs: Math.max(options.healthTimeoutMs, 120_000),
    stopTimeoutSeconds: options.stopTimeoutSeconds,
    log,
    fail,
    sleep,
  });

  /**
   * Points the service's endpoints at containers that answer, holding the `previous` ones (which the
   * caller then retires) for their drain; on failure the new go and the old stay.
   */
  async function switchTo(
    ctx: RuntimeContext,
    key: string,
    started: ContainerSpec[],
    previous: Docker.ContainerInfo[],
  ) {
    try {
      await endpoints.switchService(ctx, key, started, addressesOf(previous));
    } catch (error) {
      await removeContainers(started.map((spec) => spec.awsInstanceId));
      for (const spec of started) options.stats.forget(spec.dockerName);
      // Routes switched before the failure go back to the containers still running (the previous ones).
      await endpoints.routeBack(key, previous).catch(() => undefined);
      await endpoints.releaseDrained(key).catch(() => undefined);
      await log(ctx, `The previous containers keep serving`, 'WARN');
      return fail(ctx, (error as Error).message);
    }
  }

  /** The port a service listens on: web processes (and an image's own command) answer on PORT. */
  async function servicePort(service: ServicePlan, imageId: string): Promise<number | null> {
    if (service.processType !== 'cmd' && service.processType !== 'web') return null;
    const image = await docker.getImage(imageId).inspect();
    return exposedPorts(image)[0] ?? DEFAULT_APP_PORT;
  }

  function specOf(
    info: Docker.ContainerInspectInfo,
    service: ServicePlan,
    port: number | null,
  ): ContainerSpec {
    return {
      dockerName: info.Name.replace(/^\//, ''),
      host: networks.addressOf(info.NetworkSettings.Networks) || machine,
      awsInstanceId: info.Id.slice(0, 12),
      instanceClass: service.instanceClass,
      memoryLimit: service.memoryLimitMb,
      port: port ?? 0,
      layer: 'app',
      status: info.State.Running ? 'running' : info.State.Status,
    };
  }

  /** Waits until a new container answers (or, without a port, keeps running); throws why not. */
  async function waitHealthy(
    ctx: RuntimeContext,
    id: string,
    port: number | null,
    naive: boolean,
  ): Promise<Docker.ContainerInspectInfo> {
    const deadline = Date.now() + options.healthTimeoutMs;
    const started = Date.now();
    for (;;) {
      const info = await docker.getContainer(id).inspect();
      const name = info.Name.replace(/^\//, '');
      if (!info.State.Running || info.State.Restarting) {
        const output = await lastLogLines(docker, id, 20);
        throw new RuntimeError(
          [
            `Container ${name} exited with code ${info.State.ExitCode} before it answered`,
            ...output.map((line) => `  ${line}`),
          ].join('\n'),
        );
      }
      const address = networks.addressOf(info.NetworkSettings.Networks);
      if (port === null) {
        if (Date.now() - started >= SETTLE_MS) return info;
      } else if (address) {
        const ok = naive ? await tcpAnswers(address, port, 1000) : await httpAnswers(address, port, 2000);
        if (ok) return info;
      }
      if (Date.now() > deadline) {
        const output = await lastLogLines(docker, id, 20);
        throw new RuntimeError(
          [
            `Container ${name} did not answer on port ${port} within ${Math.round(options.healthTimeoutMs / 1000)} s`,
            ...output.map((line) => `  ${line}`),
          ].join('\n'),
        );
      }
      await sleep(500, ctx.signal);
    }
  }

  async function removeContainers(ids: string[]) {
    await Promise.all(
      ids.map((id) =>
        docker
          .getContainer(id)
          .remove({ force: true })
          .catch(() => undefined),
      ),
    );
  }

  /** Where the edge reaches these containers: those that run have an address. */
  function addressesOf(containers: Docker.ContainerInfo[]): string[] {
    return containers.flatMap((container) => {
      const address = networks.addressOf(container.NetworkSettings?.Networks);
      return address ? [address] : [];
    });
  }

  /**
   * Containers the edge no longer routes to go once the requests it still has in flight to them have
   * answered (a container stopped mid-request would fail it).
   */
  async function retire(ctx: RuntimeContext, key: string, containers: Docker.ContainerInfo[]) {
    if (!(await endpoints.drain(key, addressesOf(containers), DRAIN_TIMEOUT_MS)))
      await log(
        ctx,
        `Requests were still in flight to the previous containers after ${DRAIN_TIMEOUT_MS / 1000} s: stopping them all the same`,
        'WARN',
      );
    await stopAndRemove(ctx, containers);
  }

  /** After a restart that failed: the service's endpoints go to those of its containers that run now. */
  async function routeToRunning(
    ctx: RuntimeContext,
    key: string,
    containers: Docker.ContainerInfo[],
    service: ServicePlan,
    port: number,
  ) {
    const serving: ContainerSpec[] = [];
    for (const container of containers) {
      // Inspected anew: a restarted container may run at another address.
      const info = await docker
        .getContainer(container.Id)
        .inspect()
        .catch(() => null);
      if (info?.State.Running) serving.push(specOf(info, service, port));
    }
    await endpoints.releaseDrained(key);
    if ((await endpoints.routeService(key, serving)) > 0)
      await log(
        ctx,
        `The endpoint route(s) of service ${service.handle} go to its ${serving.length} running container(s)`,
        'WARN',
      );
  }

  /**
   * Moves a container made before environments had networks onto its environment's network and off the
   * shared one, where other environments' containers of that time still are. It comes back at another
   * address.
   */
  async function moveToEnvironment(ctx: RuntimeContext, target: AppTarget, container: Docker.ContainerInfo) {
    const on = container.NetworkSettings?.Networks ?? {};
    const own = networks.ofEnvironment(target.environmentId);
    if (on[own] && !on[networks.shared]) return;
    if (!on[own])
      await docker.getNetwork(await networks.ensureEnvironment(target)).connect({ Container: container.Id });
    if (on[networks.shared])
      await docker.getNetwork(networks.shared).disconnect({ Container: container.Id, Force: true });
    const name = container.Names[0]?.replace(/^\//, '') ?? container.Id.slice(0, 12);
    await log(ctx, `Moved container ${name} onto the network of environment ${target.environmentHandle}`);
  }

  async function stopAndRemove(ctx: RuntimeContext, containers: Docker.ContainerInfo[]) {
    for (const container of containers) {
      const name = container.Names[0]?.replace(/^\//, '') ?? container.Id.slice(0, 12);
      try {
        if (container.State === 'running')
          await docker.getContainer(container.Id).stop({ t: options.stopTimeoutSeconds });
      } catch {
        // Already stopped: removed below all the same.
      }
      await docker
        .getContainer(container.Id)
        .remove({ force: true })
        .catch(() => undefined);
      await log(ctx, `Stopped container ${name}`);
      options.stats.forget(name);
    }
  }

  /**
   * Starts `count` containers of a service from an image and waits for each to answer. On any failure
   * the new containers go and the caller's old ones are untouched.
   */
  async function startContainers(
    ctx: RuntimeContext,
    target: AppTarget,
    service: ServicePlan,
    imageId: string,
    env: Record<string, string>,
  ): Promise<ContainerSpec[]> {
    const port = await servicePort(service, imageId);
    const environment = { ...containerEnv(env), ...(port === null ? {} : { PORT: String(port) }) };
    const created: string[] = [];
    try {
      // The new containers join the environment's network: its databases must be there (one made
      // before environments had networks is not yet).
      await databases.joinEnvironment(ctx, target);
      const specs: ContainerSpec[] = [];
      for (let index = 1; index <= service.containerCount; index++) {
        if (ctx.signal.aborted) throw interrupted();
        const name = nameOf(
          target.environmentHandle,
          target.appHandle,
          service.handle,
          String(index),
          randomBytes(4).toString('hex'),
        );
        const container = await networks.startContainer(target, (network) => ({
          name,
          Image: imageId,
          Env: Object.entries(environment).map(([key, value]) => `${key}=${value}`),
          ...(service.command ? { Cmd: ['/bin/sh', '-c', service.command] } : {}),
          Labels: {
            [LABELS.managed]: 'true',
            [LABELS.installation]: options.installation,
            [LABELS.stack]: target.stackName,
            [LABELS.environment]: target.environmentHandle,
            [LABELS.environmentId]: String(target.environmentId),
            [LABELS.app]: appKey(target),
            [LABELS.service]: serviceKey(target, service.handle),
            [LABELS.release]: imageId,
            [LABELS.layer]: 'app',
            [LABELS.port]: port === null ? '' : String(port),
          },
          HostConfig: {
            Memory: service.memoryLimitMb * MB,
            MemorySwap: service.memoryLimitMb * MB,
            // CPU in proportion to memory, as the container profiles give it (1024 shares per GB).
            CpuShares: Math.max(2, Math.round(service.memoryLimitMb)),
            RestartPolicy: { Name: 'unless-stopped', MaximumRetryCount: 0 },
            // An init process forwards the stop signal (a shell or server as PID 1 would ignore it and
            // be killed only after the stop timeout) and reaps orphaned processes.
            Init: true,
            NetworkMode: network,
            LogConfig: { Type: 'json-file', Config: { 'max-size': '10m', 'max-file': '3' } },
          },
        }));
        created.push(container.id);
        await log(ctx, `Container ${name} started`);
      }
      if (port !== null && created.length > 0)
        await log(ctx, `Waiting for service ${service.handle} to respond on port ${port}`);
      for (const id of created) {
        const info = await waitHealthy(ctx, id, port, service.naiveHealthCheck ?? false);
        specs.push(specOf(info, service, port));
      }
      if (created.length > 0) await log(ctx, `Service ${service.handle} is healthy`);
      return specs;
    } catch (error) {
      await removeContainers(created);
      if (error instanceof RuntimeError && error.message !== interrupted().message) {
        await log(ctx, error.message, 'ERROR');
        await log(ctx, `The previous containers of service ${service.handle} keep running`, 'WARN');
      }
      throw error instanceof RuntimeError ? error : new RuntimeError((error as Error).message);
    }
  }

  return {
    name: 'docker',

    async buildImage(ctx, target, source) {
      if (source.dockerImage) return imageFromRegistry(ctx, source.dockerImage, source.registryAuth);
      return imageFromGit(ctx, target, source.gitRef ?? 'main');
    },

    async rollOut(ctx, target, service, image, env) {
      const key = serviceKey(target, service.handle);
      await endpoints.adoptRoutes(ctx, key, service.endpointIds);
      const previous = await serviceContainers(docker, options.installation, key, service.recordedContainers);
      await log(
        ctx,
        `Starting ${service.containerCount} container(s) of service ${service.handle} (${service.memoryLimitMb} MB, ${service.instanceClass})`,
      );
      const started = await startContainers(ctx, target, service, image.dockerRef, env);
      const kept = new Set(started.map((spec) => spec.dockerName));
      const old = previous.filter((c) => !c.Names.some((name) => kept.has(name.replace(/^\//, ''))));
      await switchTo(ctx, key, started, old);
      if (old.length > 0) await log(ctx, `Stopping previous containers of service ${service.handle}`);
      await retire(ctx, key, old);
      return started;
    },

    async restart(ctx, target, service, recreate, release) {
      const key = serviceKey(target, service.handle);
      await endpoints.adoptRoutes(ctx, key, service.endpointIds);
      const current = (
        await serviceContainers(docker, options.installation, key, service.recordedContainers)
      ).sort((a, b) => (a.Names[0] ?? '').localeCompare(b.Names[0] ?? ''));
      // Containers gone from the engine (removed by hand, a lost host) are started again from the release.
      if (recreate || current.length < service.containerCount) {
        await log(
          ctx,
          recreate
            ? `Recreating containers of service ${service.handle}`
            : `Service ${service.handle} has ${current.length} of its ${service.containerCount} container(s) on the engine: starting them all again`,
          recreate ? 'INFO' : 'WARN',
        );
        const started = await startContainers(ctx, target, service, release.image.dockerRef, release.env);
        await switchTo(ctx, key, started, current);
        await retire(ctx, key, current);
        return started;
      }
      const port = await servicePort(service, release.image.dockerRef);
      // A container that serves cannot leave the edge without its requests failing when no other runs
      // (a lone one, or the others stopped): replacements start first, and the old go once they answer.
      const runningCount = current.filter((container) => container.State === 'running').length;
      if (port !== null && runningCount <= 1) {
        await log(
          ctx,
          current.length === 1
            ? `Restarting service ${service.handle}: starting a replacement for its one container first, so requests keep being answered`
            : `Restarting service ${service.handle}: ${runningCount === 0 ? 'none' : 'only one'} of its ${current.length} containers runs, so replacements start first and requests keep being answered`,
        );
        const started = await startContainers(ctx, target, service, release.image.dockerRef, release.env);
        await switchTo(ctx, key, started, current);
        await retire(ctx, key, current);
        return started;
      }
      await log(ctx, `Restarting containers of service ${service.handle}`);
      await databases.joinEnvironment(ctx, target);
      const specs = new Map<string, ContainerSpec>();
      for (const container of current)
        specs.set(container.Id, specOf(await docker.getContainer(container.Id).inspect(), service, port));
      // One at a time, so the others keep serving: each leaves the edge before it stops, once the
      // requests in flight to it have answered, and comes back once it answers again.
      try {
        for (const container of current) {
          const name = container.Names[0]?.replace(/^\//, '') ?? container.Id.slice(0, 12);
          if (port !== null) {
            const others = [...specs]
              .filter(([id, spec]) => id !== container.Id && spec.status === 'running')
              .map(([, spec]) => spec);
            const address = specs.get(container.Id)?.host;
            const routes = await endpoints.routeService(key, others, address ? [address] : []);
            if (routes > 0) await log(ctx, `Took container ${name} out of ${routes} endpoint route(s)`);
            if (address && !(await endpoints.drain(key, [address], DRAIN_TIMEOUT_MS)))
              await log(
                ctx,
                `Requests were still in flight to container ${name} after ${DRAIN_TIMEOUT_MS / 1000} s: restarting it all the same`,
                'WARN',
              );
          }
          await moveToEnvironment(ctx, target, container);
          await docker.getContainer(container.Id).restart({ t: options.stopTimeoutSeconds });
          const info = await waitHealthy(ctx, container.Id, port, service.naiveHealthCheck ?? false).catch(
            (error: Error) => fail(ctx, error.message),
          );
          await log(ctx, `Container ${name} restarted`);
          // It may come back at another address.
          specs.set(container.Id, specOf(info, service, port));
          const serving = [...specs.values()].filter((spec) => spec.status === 'running');
          if (port !== null && (await endpoints.routeService(key, serving)) > 0)
            await log(ctx, `Container ${name} is back in the endpoint route(s)`);
        }
      } catch (error) {
        // The container taken out may run (or soon answer) all the same: every container that runs
        // goes back into the routes (the edge tries another while one does not answer yet).
        if (port !== null) await routeToRunning(ctx, key, current, service, port).catch(() => undefined);
        throw error;
      }
      return [...specs.values()];
    },

    async removeApp(ctx, target, recorded) {
      await log(ctx, `Stopping all containers of app ${target.appHandle}`);
      // Its own, and those an older Berth made for it under a handle key (which another organization's
      // app may share): found by the names Berth records, never by that key.
      const names = new Set(recorded.containers);
      const containers = (await mine({ [LABELS.layer]: 'app' })).filter(
        (container) =>
          container.Labels[LABELS.app] === appKey(target) ||
          (!isServiceKey(container.Labels[LABELS.service] ?? '') &&
            container.Names.some((name) => names.has(name.replace(/^\//, '')))),
      );
      await stopAndRemove(ctx, containers);
      // The images its git deploys built go too (an image it pulled may serve others, and stays): those
      // labelled with its key, and those an older Berth built among the images Berth records for it alone.
      const built = await docker.listImages({
        filters: {
          label: [`${LABELS.app}=${appKey(target)}`, `${LABELS.installation}=${options.installation}`],
        },
      });
      const builtIds = new Set(built.map((image) => image.Id));
      for (const id of recorded.images) {
        if (builtIds.has(id)) continue;
        const labels = await docker
          .getImage(id)
          .inspect()
          .then((image) => image.Config?.Labels ?? {})
          .catch(() => null);
        const app = labels?.[LABELS.app] ?? '';
        if (labels?.[LABELS.installation] === options.installation && app && !isAppKey(app)) {
          builtIds.add(id);
        }
      }
      for (const id of builtIds)
        await docker
          .getImage(id)
          .remove({ force: true })
          .catch(() => undefined);
      if (builtIds.size) await log(ctx, `Removed ${builtIds.size} image(s) built for ${target.appHandle}`);
      if (await removeRepository(options.gitDir, target))
        await log(ctx, `Removed the git repository of ${target.appHandle}`);
      await log(ctx, `Removed app ${target.appHandle} from ${target.stackName}`);
    },

    scanCode: images.scanCode,

    provisionEndpoint: endpoints.provisionEndpoint,
    renewEndpointCertificate: endpoints.renewEndpointCertificate,
    deprovisionEndpoint: endpoints.deprovisionEndpoint,
    repairRouting: endpoints.repairRouting,
    provisionDatabase: databases.provisionDatabase,
    restartDatabase: databases.restartDatabase,
    reloadDatabase: databases.reloadDatabase,
    backupDatabase: databases.backupDatabase,
    deleteBackup: databases.deleteBackup,
    deprovisionDatabase: databases.deprovisionDatabase,

    async containerMetrics(container, metric, ticks) {
      return options.stats.series(container, metric, ticks);
    },

    async runningContainers() {
      const running = await docker.listContainers({
        filters: { label: [`${LABELS.managed}=true`, `${LABELS.installation}=${options.installation}`] },
      });
      return new Map(
        running.flatMap((container) =>
          container.Names.map(
            (name) => [name.replace(/^\//, ''), new Date(container.Created * 1000)] as const,
          ),
        ),
      );
    },

    async listNodes() {
      return [await dockerEngineNode(docker, options.installation)];
    },

    async removeContainers(names) {
      await removeContainers([...names]);
      for (const name of names) options.stats.forget(name);
    },

    async removeEnvironment(environment) {
      const name = networks.ofEnvironment(environment.id);
      try {
        await docker.getNetwork(name).remove();
      } catch (error) {
        // An environment that never ran a container on this runtime has no network.
        if ((error as { statusCode?: number }).statusCode === 404) return;
        const users = await docker
          .getNetwork(name)
          .inspect()
          .then(
            (info: { Containers?: Record<string, { Name?: string }> }) =>
              Object.values(info.Containers ?? {}).map((container) => container.Name ?? '?'),
            () => [],
          );
        throw new RuntimeError(
          users.length
            ? `The network ${name} of deleted environment ${environment.handle} is left on the engine: container(s) ${users.join(', ')} still use it`
            : `The network ${name} of deleted environment ${environment.handle} is left on the engine: ${(error as Error).message}`,
        );
      }
    },

    async endpointLogs(endpoints, tail, since) {
      if (!options.edgeAccessLog || endpoints.length === 0) return [];
      const hostnames = new Set(endpoints.map((endpoint) => endpoint.hostname.toLowerCase()));
      return readEdgeAccessLog(options.edgeAccessLog, hostnames, tail, since);
    },

    async containerLogs(containers, tail, since) {
      const lines: ContainerLogLine[] = [];
      await Promise.all(
        containers.map(async (container) => {
          let raw: Buffer;
          try {
            raw = (await docker.getContainer(container.dockerName).logs({
              stdout: true,
              stderr: true,
              timestamps: true,
              tail,
              follow: false,
              // Whole seconds: the lines of the second `since` falls in are held against it below.
              ...(since ? { since: Math.floor(since.getTime() / 1000) } : {}),
            })) as unknown as Buffer;
          } catch {
            // Gone from the engine since it was recorded: it has nothing more to say.
            return;
          }
          for (const entry of logLines(raw)) {
            // With timestamps, each line starts with its RFC 3339 time and a space.
            const space = entry.line.indexOf(' ');
            const time = new Date(space > 0 ? entry.line.slice(0, space) : Number.NaN);
            if (Number.isNaN(time.getTime())) continue;
            if (since && time <= since) continue;
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
  };
}
