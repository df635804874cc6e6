import { createHmac } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../config.ts';
import { createEdgeClient } from './docker/caddy-edge.ts';
import { runningEdgePid, superviseEdge } from './docker/caddy-process.ts';
import { createDockerRuntime } from './docker/docker-runtime.ts';
import { createDockerStatsRecorder } from './docker/docker-stats.ts';
import { fail, log, sleep } from './docker/image-source.ts';
import type { Runtime } from './runtime.ts';
import { createSimRuntime } from './sim/sim-runtime.ts';
import type { EngineTls } from './swarm/swarm-databases.ts';
import type { LostNode } from './swarm/swarm-node-loss.ts';

/** How often every process looks for Swarm clusters registered since it started. */
export const CLUSTER_LOOK_MS = 30_000;

/** A Swarm cluster a runtime runs on: BERTH_SWARM_HOST's, or one registered as a stack. */
export interface SwarmClusterSettings {
  /** The runtime key: `swarm`, or `swarm:<stack>` (swarmStackRuntime). */
  name: string;
  /** The manager's Engine API. */
  host: string;
  tls: EngineTls | null;
  /** Where images go for every node to pull (host:port). */
  registry: string;
}

/** This Berth's id on shared machines: derived from the server secret, the same in every process. */
export function installationId(serverSecret: Uint8Array): string {
  return createHmac('sha256', serverSecret).update('berth installation').digest('hex').slice(0, 16);
}

/**
 * The runtimes a process runs stacks on, by name: always `sim`; `docker` too when BERTH_RUNTIME is
 * docker (the engine at DOCKER_HOST, else the local socket), with the recorder of its containers' stats;
 * `swarm` when it is swarm (the cluster whose manager answers at BERTH_SWARM_HOST). With `superviseEdge`
 * (the server, not a separate worker) it takes over the running edge (Caddy) or starts it, and resolves
 * once it answers; the edge outlives the server (caddy-process.ts). The Docker client is loaded only then:
 * it adds some 130 ms and 25 MB to a start that does not use it.
 */
export async function createRuntimes(
  config: Pick<Config, 'simStepMs' | 'runtime' | 'docker' | 'git' | 'publicUrl' | 'edge' | 'swarm'>,
  serverSecret: Uint8Array,
  options: {
    superviseEdge: boolean;
    /**
     * Told once when a node of a cluster stops answering, with this Berth's containers it ran (the
     * server records it on each app; the runtime knows nothing of services).
     */
    onNodeLost?: (runtime: string, node: LostNode) => Promise<unknown>;
    /**
     * The Swarm clusters registered as stacks (`add-stack`), each run under its own key beside the
     * configured runtime; looked at again every CLUSTER_LOOK_MS. They share the edge, so they run only
     * when BERTH_RUNTIME is docker or swarm.
     */
    clusters?: () => Promise<SwarmClusterSettings[]>;
  },
): Promise<{
  runtimes: Record<string, Runtime>;
  close(): Promise<void>;
  /** Takes up the clusters registered since the last look now (a stack's operation found none for it). */
  lookForClusters(): Promise<void>;
}> {
  const runtimes: Record<string, Runtime> = { sim: createSimRuntime({ stepMs: config.simStepMs }) };
  if (config.runtime === 'sim') {
    // The edge outlives the server, and so a change of runtime: it is stopped by hand only.
    const leftRunning = options.superviseEdge ? runningEdgePid(config.edge.dir) : null;
    if (leftRunning !== null)
      console.warn(
        `The edge (Caddy, pid ${leftRunning}) of the docker runtime still serves from ${config.edge.dir}; \`npm run admin -- stop-edge\` stops it`,
      );
    const registered = options.clusters ? await options.clusters().catch(() => []) : [];
    if (registered.length > 0)
      console.warn(
        `The Swarm clusters of ${registered.length} stack(s) are not run: BERTH_RUNTIME=sim runs no edge for their endpoints (set BERTH_RUNTIME=swarm or docker)`,
      );
    return { runtimes, async close() {}, async lookForClusters() {} };
  }
  const { default: Docker } = await import('dockerode');
  const installation = installationId(serverSecret);
  const statsIntervalMs = Math.max(1, config.docker.statsIntervalSeconds) * 1000;
  const edgeSettings = {
    adminSocket: path.join(config.edge.dir, 'admin.sock'),
    httpPort: config.edge.httpPort,
    httpsPort: config.edge.httpsPort,
    acmeEmail: config.edge.acmeEmail,
    accessLog: path.join(config.edge.dir, 'access.log'),
  };
  const closeStats: (() => void)[] = [];
  // The server runs the edge; a separate worker process reaches the server's through its socket.
  const edgeProcess = options.superviseEdge
    ? superviseEdge({
        ...edgeSettings,
        caddyPath: config.edge.caddyPath,
        dir: config.edge.dir,
        onProblem: (message) => console.warn(message),
        onNotice: (message) => console.log(message),
      })
    : null;
  if (edgeProcess) {
    try {
      await edgeProcess.start();
    } catch (error) {
      await edgeProcess.stop();
      throw error;
    }
  }
  const edge = {
    edge: createEdgeClient(edgeSettings),
    edgePorts: { http: config.edge.httpPort, https: config.edge.httpsPort },
    edgeAccessLog: edgeSettings.accessLog,
  };
  const healthTimeoutMs = Math.max(1, config.docker.healthTimeoutSeconds) * 1000;
  if (config.runtime === 'docker') {
    const docker = new Docker();
    const stats = createDockerStatsRecorder(docker, { intervalMs: statsIntervalMs, installation });
    closeStats.push(() => stats.close());
    runtimes.docker = createDockerRuntime({
      docker,
      gitDir: config.git.dir,
      publicUrl: config.publicUrl,
      network: config.docker.network,
      healthTimeoutMs,
      stopTimeoutSeconds: 10,
      stats,
      installation,
      backupDir: config.docker.backupDir,
      databaseImages: config.docker.databaseImages,
      ...edge,
    });
  } else if (config.swarm) {
    const { host, tlsDir, registry } = config.swarm;
    const { readEngineTls } = await import('./swarm/swarm-databases.ts');
    runtimes.swarm = await startSwarm({
      name: 'swarm',
      host,
      tls: tlsDir ? readEngineTls(tlsDir) : null,
      registry,
    });
  }
  let lookForClusters = async () => {};
  if (options.clusters) {
    const loadClusters = options.clusters;
    // A cluster registered while Berth runs (on PostgreSQL the admin command does not stop it) is taken
    // up by the next look; one that cannot be reached yet is looked at again then.
    const takeUpClusters = async () => {
      for (const cluster of await loadClusters()) {
        if (runtimes[cluster.name]) continue;
        try {
          runtimes[cluster.name] = await startSwarm(cluster);
        } catch (error) {
          console.warn(
            `The Swarm cluster of stack ${cluster.name.slice('swarm:'.length)} at ${cluster.host} is not run yet: ${(error as Error).message}`,
          );
        }
      }
    };
    // One look at a time: two at once would start a cluster's runtime twice.
    let looking: Promise<void> | null = null;
    lookForClusters = () => {
      looking ??= takeUpClusters()
        .catch((error) => console.warn(`Reading the registered Swarm clusters: ${(error as Error).message}`))
        .finally(() => {
          looking = null;
        });
      return looking;
    };
    await lookForClusters();
    const timer = setInterval(() => void lookForClusters(), CLUSTER_LOOK_MS);
    timer.unref();
    closeStats.push(() => clearInterval(timer));
  }

  /**
   * The runtime of one Swarm cluster under its key, with its databases, networks and stats; the
   * server's process follows its events for the edge all clusters share (a worker runs no edge).
   */
  async function startSwarm(cluster: SwarmClusterSettings): Promise<Runtime> {
    // Loaded only here, as dockerode above: the swarm's client makes engines of its own.
    const { createSwarmDatabases, engineAt } = await import('./swarm/swarm-databases.ts');
    const { environmentNetwork, removeEnvironmentNetwork } = await import('./swarm/swarm-networks.ts');
    const { createSwarmRuntime } = await import('./swarm/swarm-runtime.ts');
    const { name, tls, registry } = cluster;
    const manager = engineAt(cluster.host, tls);
    const nodeEngine = (address: string) => engineAt(address, tls);
    const databases = createSwarmDatabases({
      manager,
      installation,
      backupDir: config.docker.backupDir,
      images: config.docker.databaseImages,
      registry,
      nodeEngine,
      tls,
      // A first start initializes the engine's data: longer than an app has to answer.
      readyTimeoutMs: Math.max(healthTimeoutMs, 120_000),
      stopTimeoutSeconds: 10,
      log,
      fail,
      sleep,
    });
    const swarm = createSwarmRuntime({
      name,
      docker: manager,
      registry,
      gitDir: config.git.dir,
      publicUrl: config.publicUrl,
      installation,
      healthTimeoutMs,
      stopTimeoutSeconds: 10,
      databases,
      nodeEngine,
      statsOf: (engine) => createDockerStatsRecorder(engine, { intervalMs: statsIntervalMs, installation }),
      environmentNetwork: (target) => environmentNetwork(manager, installation, target),
      removeEnvironmentNetwork: (environmentId) =>
        removeEnvironmentNetwork(manager, installation, environmentId),
      ...edge,
    });
    const label = name === 'swarm' ? 'Swarm' : `Swarm of stack ${name.slice('swarm:'.length)}`;
    if (edgeProcess)
      swarm.followEvents(
        (changes) => console.log(`${label}: routes repaired: ${changes.join('; ')}`),
        (error) => console.warn(`Following the ${label}'s events: ${(error as Error).message}`),
        options.onNodeLost && ((node) => options.onNodeLost?.(name, node)),
      );
    closeStats.push(() => swarm.close());
    return swarm;
  }
  return {
    runtimes,
    lookForClusters: () => lookForClusters(),
    async close() {
      for (const close of closeStats) close();
      // The edge keeps serving the endpoints while Berth is stopped; the next start takes it over.
      edgeProcess?.detach();
    },
  };
}
