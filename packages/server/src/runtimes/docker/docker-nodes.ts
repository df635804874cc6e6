import { networkInterfaces } from 'node:os';
import type Docker from 'dockerode';
import type { RuntimeNode } from '../runtime.ts';
import { LABELS } from './engine.ts';

/**
 * The address the engine is reached at: the host of a `tcp://` DOCKER_HOST, else (a local socket) this
 * machine's first external IPv4 address, the one other machines would use.
 */
export function engineAddress(modemHost: string | undefined): string {
  if (modemHost) return modemHost;
  for (const addresses of Object.values(networkInterfaces()))
    for (const address of addresses ?? [])
      if (address.family === 'IPv4' && !address.internal) return address.address;
  return '127.0.0.1';
}

/** The docker runtime's one machine, its engine, with this Berth's running containers on it. */
export async function dockerEngineNode(docker: Docker, installation: string): Promise<RuntimeNode> {
  const [info, running] = await Promise.all([
    docker.info() as Promise<{
      ID?: string;
      Name?: string;
      MemTotal?: number;
      NCPU?: number;
      ServerVersion?: string;
    }>,
    docker.listContainers({
      filters: { label: [`${LABELS.managed}=true`, `${LABELS.installation}=${installation}`] },
    }),
  ]);
  const containers = running.flatMap((container) =>
    container.Names.map((name) => ({ name: name.replace(/^\//, ''), state: container.State })),
  );
  containers.sort((a, b) => a.name.localeCompare(b.name));
  return {
    id: info.ID ?? '',
    hostname: info.Name ?? '',
    address: engineAddress((docker.modem as { host?: string }).host),
    // A lone engine manages itself: the one machine the stack has.
    role: 'manager',
    leader: false,
    // It answered, so it is up.
    state: 'ready',
    availability: 'active',
    memoryBytes: info.MemTotal ?? 0,
    cpus: info.NCPU ?? 0,
    engineVersion: info.ServerVersion ?? null,
    containers,
  };
}
