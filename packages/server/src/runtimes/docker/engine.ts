import { connect } from 'node:net';
import type Docker from 'dockerode';
import { type AppTarget, RuntimeError } from '../runtime.ts';

// What the docker runtime writes on the engine's objects and how it finds them again: every container
// carries labels naming its stack, environment, app (or database) and service, so the runtime needs no
// state of its own and finds its containers after a restart. Apps and services are keyed by the app's
// id: handles repeat across organizations, which share the default stack.

export const LABELS = {
  managed: 'io.berth.managed',
  /** Which Berth made it: several may share one engine (and the same stack and handle names). */
  installation: 'io.berth.installation',
  stack: 'io.berth.stack',
  environment: 'io.berth.environment',
  /** The environment's id (its handle may repeat across organizations): names its network. */
  environmentId: 'io.berth.environment-id',
  app: 'io.berth.app',
  service: 'io.berth.service',
  /** A database's identity (its stack, environment and id), on its container and volume. */
  database: 'io.berth.database',
  release: 'io.berth.release',
  layer: 'io.berth.layer',
  /** Where a database container keeps its data (its disk use is measured there). */
  data: 'io.berth.data',
  /** The port a container answers on (PORT), for the edge to send requests to. */
  port: 'io.berth.port',
} as const;

/**
 * An app's identity on the engine (its containers' and built images' `app` label): its id. Berths
 * before this one keyed by `<stack>/<environment>/<app>` handles, which two organizations can share;
 * what they made is found by what Berth records for a service instead (serviceContainers).
 */
export function appKey(target: Pick<AppTarget, 'appId'>): string {
  return `app-${target.appId}`;
}

/** One service's identity on the engine and the edge: its app's key and its handle (unique in an app). */
export function serviceKey(target: Pick<AppTarget, 'appId'>, serviceHandle: string): string {
  return `${appKey(target)}/${serviceHandle}`;
}

/** True for a service key of this form (not one of the handle keys of older Berths). */
export function isServiceKey(key: string): boolean {
  return key.length <= 220 && /^app-\d{1,15}\/[^/]+$/.test(key);
}

/** True for an app key of this form (not one of the handle keys of older Berths). */
export function isAppKey(key: string): boolean {
  return key.length <= 20 && /^app-\d{1,15}$/.test(key);
}

/**
 * A service's containers among these (this Berth's): those labelled with its key, and those Berth records
 * for it by name that an older Berth labelled with a handle key (never one labelled with another id key).
 */
export function ofService(
  containers: readonly Docker.ContainerInfo[],
  key: string,
  recorded: readonly string[],
): Docker.ContainerInfo[] {
  const names = new Set(recorded);
  return containers.filter((container) => {
    const label = container.Labels[LABELS.service] ?? '';
    if (label === key) return true;
    return (
      !isServiceKey(label) &&
      container.Labels[LABELS.layer] === 'app' &&
      container.Names.some((name) => names.has(name.replace(/^\//, '')))
    );
  });
}

/** A service's containers (running or not) of this Berth on the engine (see ofService). */
export async function serviceContainers(
  docker: Docker,
  installation: string,
  key: string,
  recorded: readonly string[],
): Promise<Docker.ContainerInfo[]> {
  // Without names to look for, the service's own label finds them all.
  const labels: Record<string, string> = recorded.length
    ? { [LABELS.installation]: installation, [LABELS.layer]: 'app' }
    : { [LABELS.installation]: installation, [LABELS.service]: key };
  return ofService(await containersLabelled(docker, labels), key, recorded);
}

/** Containers (running or not) carrying every one of these labels. */
export async function containersLabelled(
  docker: Docker,
  labels: Record<string, string>,
): Promise<Docker.ContainerInfo[]> {
  return docker.listContainers({
    all: true,
    filters: { label: Object.entries(labels).map(([key, value]) => `${key}=${value}`) },
  });
}

/**
 * The networks of one Berth on the engine. Each environment has a bridge network of its own,
 * `<prefix>-<installation>-env-<environment id>` (the prefix is BERTH_DOCKER_NETWORK): its containers
 * reach each other there and no other environment's, while the host (the edge) reaches them all. The
 * network named by the prefix alone is the one every container shared before; containers made then are
 * moved off it as they are rolled out or restarted.
 */
export function dockerNetworks(docker: Docker, prefix: string, installation: string) {
  const environmentPrefix = `${prefix}-${installation.slice(0, 8)}-env-`;
  const ofEnvironment = (environmentId: number) => `${environmentPrefix}${environmentId}`;

  /** Makes the environment's network when missing; its name. */
  async function ensureEnvironment(environment: EnvironmentOnEngine): Promise<string> {
    const name = ofEnvironment(environment.environmentId);
    await ensureNetwork(docker, name, {
      [LABELS.installation]: installation,
      [LABELS.stack]: environment.stackName,
      [LABELS.environment]: environment.environmentHandle,
      [LABELS.environmentId]: String(environment.environmentId),
    });
    return name;
  }

  return {
    shared: prefix,
    ofEnvironment,
    ensureEnvironment,
    /**
     * Where a container serves: its address on its environment's network, else (a container made before
     * environments had networks) on the shared one; '' when it has neither (stopped).
     */
    addressOf(networks: Record<string, { IPAddress?: string }> | undefined): string {
      const own = Object.entries(networks ?? {}).find(([name]) => name.startsWith(environmentPrefix));
      return own?.[1].IPAddress || networks?.[prefix]?.IPAddress || '';
    },
    /**
     * Creates and starts a container on its environment's network (`create` fills the network's name
     * in). A network removed meanwhile (by hand, or by an environment's delete) is made again and the
     * container with it, once. A container that does not start is removed.
     */
    async startContainer(
      environment: EnvironmentOnEngine,
      create: (network: string) => Docker.ContainerCreateOptions,
    ): Promise<Docker.Container> {
      for (let attempt = 1; ; attempt++) {
        const network = await ensureEnvironment(environment);
        let container: Docker.Container | undefined;
        try {
          container = await docker.createContainer(create(network));
          await container.start();
          return container;
        } catch (error) {
          await container?.remove({ force: true }).catch(() => undefined);
          if (attempt > 1 || !isMissingNetwork(error)) throw error;
        }
      }
    },
  };
}
export type DockerNetworks = ReturnType<typeof dockerNetworks>;

/** What names an environment's network and labels it. */
export interface EnvironmentOnEngine {
  environmentId: number;
  environmentHandle: string;
  stackName: string;
}

/** True when the engine refused because a network it was given does not exist (removed meanwhile). */
export function isMissingNetwork(error: unknown): boolean {
  const { statusCode, message } = error as { statusCode?: number; message?: string };
  return statusCode === 404 && /network/i.test(String(message ?? '').slice(0, 2000));
}

/**
 * Creates a bridge network when missing (its containers reach each other, and the host reaches them).
 * Never two of one name: the engine checks, and one made by another process in between is taken.
 */
export async function ensureNetwork(
  docker: Docker,
  name: string,
  labels: Record<string, string>,
): Promise<void> {
  const existing = await docker.listNetworks({ filters: { name: [name] } });
  if (existing.some((network) => network.Name === name)) return;
  try {
    await docker.createNetwork({
      Name: name,
      Driver: 'bridge',
      // Engines before API 1.44 make a second network of the same name without it.
      CheckDuplicate: true,
      Labels: { [LABELS.managed]: 'true', ...labels },
    });
  } catch (error) {
    // Another process made it in between.
    const again = await docker.listNetworks({ filters: { name: [name] } });
    if (again.some((network) => network.Name === name)) return;
    const message = (error as Error).message;
    // Each bridge network takes a subnet from the engine's pools, which hold some 30 by default.
    if (/address pool|non-overlapping/i.test(message.slice(0, 2000)))
      throw new RuntimeError(
        `Unable to create network ${name}: ${message}. The Docker engine has no subnet left for another network: add address pools to its default-address-pools setting (/etc/docker/daemon.json) and restart it`,
      );
    throw error;
  }
}

/**
 * A container's log as lines. Without a TTY the engine sends frames: one byte of stream (1 stdout,
 * 2 stderr), three of padding, four of length, then the payload.
 */
export function logLines(raw: Buffer): { stream: 'stdout' | 'stderr'; line: string }[] {
  const lines: { stream: 'stdout' | 'stderr'; line: string }[] = [];
  let offset = 0;
  const pending: Record<'stdout' | 'stderr', string> = { stdout: '', stderr: '' };
  while (offset + 8 <= raw.length) {
    const kind = raw[offset];
    const size = raw.readUInt32BE(offset + 4);
    // A frame cut short (the engine's answer ended early) is dropped.
    if (offset + 8 + size > raw.length) break;
    const stream = kind === 2 ? 'stderr' : 'stdout';
    pending[stream] += raw.subarray(offset + 8, offset + 8 + size).toString('utf8');
    offset += 8 + size;
    const parts = pending[stream].split('\n');
    pending[stream] = parts.pop() ?? '';
    for (const line of parts) lines.push({ stream, line: line.replace(/\r$/, '') });
  }
  for (const stream of ['stdout', 'stderr'] as const)
    if (pending[stream]) lines.push({ stream, line: pending[stream] });
  return lines;
}

/** The last lines a container wrote (both streams, in order). */
export async function lastLogLines(docker: Docker, id: string, count: number): Promise<string[]> {
  try {
    const raw = (await docker.getContainer(id).logs({
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

/** True when something accepts a TCP connection at the address within the time. */
export function tcpAnswers(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** True when an HTTP GET of / answers with a status under 500 within the time. */
export async function httpAnswers(host: string, port: number, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(`http://${host}:${port}/`, {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    await response.body?.cancel();
    return response.status < 500;
  } catch {
    return false;
  }
}

/** The TCP ports an image exposes, lowest first. */
export function exposedPorts(image: Docker.ImageInspectInfo): number[] {
  return Object.keys(image.Config?.ExposedPorts ?? {})
    .filter((key) => key.endsWith('/tcp'))
    .map((key) => Number.parseInt(key, 10))
    .filter((port) => Number.isInteger(port) && port > 0 && port < 65536)
    .sort((a, b) => a - b);
}
