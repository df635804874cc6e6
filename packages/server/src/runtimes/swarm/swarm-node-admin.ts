import fs from 'node:fs';
import path from 'node:path';
import Docker from 'dockerode';

// A platform operator's hand on a Swarm's nodes: draining one moves its tasks to the others (Swarm
// reschedules them) before the machine is taken down for maintenance; `active` takes tasks again, `pause`
// keeps what runs but takes nothing new.

export const NODE_AVAILABILITIES = ['active', 'pause', 'drain'] as const;
export type NodeAvailability = (typeof NODE_AVAILABILITIES)[number];

/** A node reference or availability that is not one, or a node the cluster does not have. */
export class SwarmNodeError extends Error {}

const MAX_NODE_REF_LENGTH = 128;

/** A node as the Engine API lists it (the fields Berth reads; dockerode's types leave it untyped). */
export type SwarmNodeInfo = {
  ID?: string;
  Version?: { Index?: number };
  Spec?: { Availability?: string; Role?: string; Name?: string; Labels?: Record<string, string> };
  Description?: { Hostname?: string };
  Status?: { State?: string; Addr?: string; Message?: string };
};

export type NodeAvailabilityResult = {
  id: string;
  hostname: string;
  previous: string;
  availability: NodeAvailability;
};

/**
 * Sets a node's availability. `nodeRef` is the node's id (or an unambiguous start of it, as the docker CLI
 * takes) or its host name.
 */
export async function setNodeAvailability(
  manager: Docker,
  nodeRef: string,
  availability: NodeAvailability,
): Promise<NodeAvailabilityResult> {
  if (!(NODE_AVAILABILITIES as readonly string[]).includes(availability))
    throw new SwarmNodeError(`Availability must be one of ${NODE_AVAILABILITIES.join(', ')}`);
  const node = await findNode(manager, nodeRef);
  const id = node.ID ?? '';
  const hostname = node.Description?.Hostname ?? '';
  const previous = node.Spec?.Availability ?? 'unknown';
  if (previous !== availability) {
    // The engine takes the whole spec with the version it was read at (a concurrent change fails, not lost).
    await manager
      .getNode(id)
      .update({ version: node.Version?.Index, ...node.Spec, Availability: availability } as never);
  }
  return { id, hostname, previous, availability };
}

/** The node `nodeRef` names: its id, a start of its id naming one node only, or its host name. */
export async function findNode(manager: Docker, nodeRef: string): Promise<SwarmNodeInfo> {
  const ref = nodeRef.trim();
  if (ref.length === 0 || nodeRef.length > MAX_NODE_REF_LENGTH)
    throw new SwarmNodeError(
      `A node is named by its id or host name (1 to ${MAX_NODE_REF_LENGTH} characters)`,
    );
  const nodes: SwarmNodeInfo[] = await manager.listNodes();
  const byId = nodes.find((node) => node.ID === ref);
  if (byId) return byId;
  const byName = nodes.filter((node) => node.Description?.Hostname === ref);
  if (byName.length > 1)
    throw new SwarmNodeError(`${byName.length} nodes have the host name ${ref}: name the node by its id`);
  if (byName[0]) return byName[0];
  const byIdStart = nodes.filter((node) => node.ID?.startsWith(ref));
  if (byIdStart.length > 1) throw new SwarmNodeError(`More than one node's id starts with ${ref}`);
  if (byIdStart[0]) return byIdStart[0];
  const known = nodes.map((node) => `${node.Description?.Hostname ?? '?'} (${node.ID})`).join(', ');
  throw new SwarmNodeError(`The cluster has no node ${ref}; its nodes: ${known || 'none'}`);
}

/**
 * The Engine API of a swarm stack's manager. For now every swarm stack's manager is BERTH_SWARM_HOST: a
 * unix socket (unix:///…) or tcp://host:port with TLS client certificates from BERTH_SWARM_TLS_DIR (ca.pem,
 * cert.pem, key.pem, as the docker CLI names them). Kept in this one place to be switched to the
 * configuration's (and a stack's own host) when those exist.
 */
export function swarmManagerHost(env: NodeJS.ProcessEnv = process.env): string {
  const host = env.BERTH_SWARM_HOST ?? '';
  if (!host) throw new SwarmNodeError('BERTH_SWARM_HOST is not set: it names the swarm manager');
  return host;
}

/** A dockerode client for a manager's address (see swarmManagerHost). */
export function managerEngine(host: string, env: NodeJS.ProcessEnv = process.env): Docker {
  if (host.length > 1024) throw new SwarmNodeError('The swarm manager address is too long');
  if (host.startsWith('unix://')) return new Docker({ socketPath: host.slice('unix://'.length) });
  if (!host.startsWith('tcp://'))
    throw new SwarmNodeError(`The swarm manager address must be unix:///… or tcp://host:port, not ${host}`);
  const url = new URL(host.replace('tcp://', 'https://'));
  const tlsDir = env.BERTH_SWARM_TLS_DIR ?? '';
  if (!tlsDir)
    throw new SwarmNodeError('A tcp:// swarm manager needs BERTH_SWARM_TLS_DIR (ca.pem, cert.pem, key.pem)');
  const read = (file: string) => fs.readFileSync(path.join(tlsDir, file));
  return new Docker({
    protocol: 'https',
    host: url.hostname,
    port: Number(url.port) || 2376,
    ca: read('ca.pem'),
    cert: read('cert.pem'),
    key: read('key.pem'),
  });
}
