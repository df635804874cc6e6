import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { baseImage } from './docker-images.ts';

// The swarm suites' cluster: `npm run swarm:local` (scripts/swarm-local.mjs) on this machine, at the network
// number in BERTH_SWARM_LOCAL_NET (default 87 here: not the script's own default, 77, so that the suite never
// takes over, nor takes down, a cluster made by hand). The suite's global setup brings it up once and takes
// it down at the end; a test file asks for it again (quick when it is up) to learn its addresses.

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../../scripts/swarm-local.mjs');
const NODE_COUNT = 3;
/** The suite's cluster number, unless BERTH_SWARM_LOCAL_NET names another (scripts/test-all.mjs agrees). */
export const SUITE_NET = '87';

export type SwarmClusterNode = {
  index: number;
  /** The node's address, where its host-mode published ports answer from this machine. */
  address: string;
  /** The node's own Engine API (unix://…/nodeK.sock). */
  engineHost: string;
  /** Its swarm host name (berth-swarmNET-K). */
  hostname: string;
};

export type SwarmCluster = {
  /** The manager's Engine API (BERTH_SWARM_HOST). */
  managerHost: string;
  /** host:port of the cluster's registry (BERTH_REGISTRY), reachable from every node and this machine. */
  registry: string;
  nodes: SwarmClusterNode[];
  /** Node K dies (its daemon and containers killed, its link down). */
  stop(index: number): Promise<void>;
  /** Node K comes back; resolves once the manager sees it Ready. */
  start(index: number): Promise<void>;
  /** Removes the whole cluster. */
  down(): Promise<void>;
};

/**
 * The second cluster's number: one node that runs a stack registered with add-stack beside the suite's
 * (scripts/test-all.mjs takes it down too after a crash).
 */
export const SECOND_NET = '88';

/** Runs the script; its stdout (its messages go to stderr, which the error carries on failure). */
async function swarmLocal(...args: string[]): Promise<string> {
  return swarmLocalAt(process.env.BERTH_SWARM_LOCAL_NET ?? SUITE_NET, ...args);
}

async function swarmLocalAt(net: string, ...args: string[]): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [script, ...args], {
      timeout: 300_000,
      // The second cluster's directory is its number's default, whatever BERTH_SWARM_LOCAL_DIR says.
      env: {
        ...process.env,
        BERTH_SWARM_LOCAL_NET: net,
        ...(net === SECOND_NET ? { BERTH_SWARM_LOCAL_DIR: undefined } : {}),
      },
    });
    return stdout;
  } catch (error) {
    const failed = error as { stderr?: string; message: string };
    throw new Error(`swarm-local ${args.join(' ')} failed: ${failed.stderr?.trim() || failed.message}`);
  }
}

/** `export NAME=value` lines → { NAME: value } (values hold no spaces or quotes). */
export function parseExports(output: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const line of output.split('\n')) {
    const text = line.trim();
    if (!text.startsWith('export ')) continue;
    const assignment = text.slice('export '.length);
    const equals = assignment.indexOf('=');
    if (equals > 0) found[assignment.slice(0, equals)] = assignment.slice(equals + 1);
  }
  return found;
}

/** The local cluster (brought up when it is not), with handles to make a node die and come back. */
export async function localSwarmCluster(): Promise<SwarmCluster> {
  const exports = parseExports(await swarmLocal('up', String(NODE_COUNT)));
  const managerHost = exports.BERTH_SWARM_HOST;
  const registry = exports.BERTH_REGISTRY;
  if (!managerHost || !registry)
    throw new Error('swarm-local up printed no BERTH_SWARM_HOST or BERTH_REGISTRY');
  const status = JSON.parse(await swarmLocal('status', '--json')) as {
    nodes: { index: number; name: string; address: string; engineHost: string }[];
  };
  return {
    managerHost,
    registry,
    nodes: status.nodes.map(({ index, name, address, engineHost }) => ({
      index,
      address,
      engineHost,
      hostname: name,
    })),
    stop: async (index) => void (await swarmLocal('stop', String(index))),
    start: async (index) => void (await swarmLocal('start', String(index))),
    down: async () => void (await swarmLocal('down')),
  };
}

/**
 * The second cluster (SECOND_NET): one node whose manager answers over TCP with TLS client certificates
 * (`up 1 --tls`), as a further machine's would. Its exports: BERTH_SWARM_HOST, BERTH_SWARM_TLS_DIR,
 * BERTH_REGISTRY; `down` removes it.
 */
export async function secondSwarmCluster(): Promise<{
  managerHost: string;
  tlsDir: string;
  registry: string;
  /** Node 1's own Engine API (unix://…): what runs there, seen without TLS. */
  engineHost: string;
  down(): Promise<void>;
}> {
  const exports = parseExports(await swarmLocalAt(SECOND_NET, 'up', '1', '--tls'));
  const { BERTH_SWARM_HOST: managerHost, BERTH_SWARM_TLS_DIR: tlsDir, BERTH_REGISTRY: registry } = exports;
  if (!managerHost || !tlsDir || !registry)
    throw new Error(
      'swarm-local up 1 --tls printed no BERTH_SWARM_HOST, BERTH_SWARM_TLS_DIR or BERTH_REGISTRY',
    );
  const status = JSON.parse(await swarmLocalAt(SECOND_NET, 'status', '--json')) as {
    nodes: { engineHost: string }[];
  };
  const engineHost = status.nodes[0]?.engineHost;
  if (!engineHost) throw new Error('swarm-local status names no node of the second cluster');
  return {
    managerHost,
    tlsDir,
    registry,
    engineHost,
    down: async () => void (await swarmLocalAt(SECOND_NET, 'down')),
  };
}

/** A dockerode client for an Engine API address of the cluster (unix://…). */
export function engineAt(host: string): Docker {
  if (!host.startsWith('unix://')) throw new Error(`not a unix socket address: ${host}`);
  return new Docker({ socketPath: host.slice('unix://'.length) });
}

/**
 * Whether the swarm suite can run here: it makes network namespaces and runs daemons, so it needs root.
 * In CI (CI=true) it must run: a machine that cannot fails the suite rather than skipping it.
 */
export function swarmSuiteRuns(): boolean {
  const root = process.getuid?.() === 0;
  if (!root && process.env.CI) throw new Error('CI runs the swarm suite: it needs root');
  if (!root) console.warn('Not root: the swarm suite (a local Swarm cluster) is skipped');
  return root;
}

/**
 * The test base image (busybox, docker-images.ts) made on the manager and pushed to the cluster's registry,
 * so that every node can pull it: its name there and the digest the registry gave it.
 */
export async function registryBaseImage(
  cluster: SwarmCluster,
): Promise<{ name: string; repository: string; digest: string }> {
  const manager = engineAt(cluster.managerHost);
  const [repo, tag] = (await baseImage(manager)).split(':');
  const repository = `${cluster.registry}/${repo}`;
  const name = `${repository}:${tag}`;
  await manager.getImage(`${repo}:${tag}`).tag({ repo: repository, tag });
  // The registry asks for no credentials; the Engine API still wants the header.
  const stream = await manager.getImage(name).push({ authconfig: { serveraddress: cluster.registry } });
  const events = await new Promise<{ error?: string; aux?: { Digest?: string } }[]>((resolve, reject) =>
    manager.modem.followProgress(stream, (error: Error | null, output: { error?: string }[]) =>
      error ? reject(error) : resolve(output),
    ),
  );
  const failed = events.find((event) => event.error);
  if (failed) throw new Error(`pushing ${name} failed: ${failed.error}`);
  const digest = events.find((event) => event.aux?.Digest)?.aux?.Digest;
  if (!digest) throw new Error(`pushing ${name} reported no digest`);
  return { name, repository, digest };
}
