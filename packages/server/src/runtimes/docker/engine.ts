import { connect } from 'node:net';
import type Docker from 'dockerode';
import type { AppTarget } from '../runtime.ts';

// What the docker runtime writes on the engine's objects and how it finds them again: every container
// carries labels naming its stack, environment, app (or database) and service, so the runtime needs no
// state of its own and finds its containers after a restart.

export const LABELS = {
  managed: 'io.berth.managed',
  /** Which Berth made it: several may share one engine (and the same stack and handle names). */
  installation: 'io.berth.installation',
  stack: 'io.berth.stack',
  environment: 'io.berth.environment',
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

/** One service's identity on the engine (handles never hold a slash). */
export function serviceKey(target: AppTarget, serviceHandle: string): string {
  return `${target.stackName}/${target.environmentHandle}/${target.appHandle}/${serviceHandle}`;
}

export function appKey(target: AppTarget): string {
  return `${target.stackName}/${target.environmentHandle}/${target.appHandle}`;
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

/** Creates the runtime's network when missing (containers reach each other, and the host reaches them). */
export async function ensureNetwork(docker: Docker, name: string): Promise<void> {
  const existing = await docker.listNetworks({ filters: { name: [name] } });
  if (existing.some((network) => network.Name === name)) return;
  try {
    await docker.createNetwork({ Name: name, Driver: 'bridge', Labels: { [LABELS.managed]: 'true' } });
  } catch (error) {
    // Another process made it in between.
    const again = await docker.listNetworks({ filters: { name: [name] } });
    if (!again.some((network) => network.Name === name)) throw error;
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

/** The container's address on the network, or '' when it has none (stopped). */
export function addressOn(info: Docker.ContainerInspectInfo, network: string): string {
  return info.NetworkSettings.Networks?.[network]?.IPAddress ?? '';
}

/** The TCP ports an image exposes, lowest first. */
export function exposedPorts(image: Docker.ImageInspectInfo): number[] {
  return Object.keys(image.Config?.ExposedPorts ?? {})
    .filter((key) => key.endsWith('/tcp'))
    .map((key) => Number.parseInt(key, 10))
    .filter((port) => Number.isInteger(port) && port > 0 && port < 65536)
    .sort((a, b) => a - b);
}
