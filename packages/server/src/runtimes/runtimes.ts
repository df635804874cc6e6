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
import type { LostNode } from './swarm/swarm-node-loss.ts';

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
  },
): Promise<{ runtimes: Record<string, Runtime>; close(): Promise<void> }> {
  const runtimes: Record<string, Runtime> = { sim: createSimRuntime({ stepMs: config.simStepMs }) };
  if (config.runtime === 'sim') {
    // The edge outlives the server, and so a change of runtime: it is stopped by hand only.
    const leftRunning = options.superviseEdge ? runningEdgePid(config.edge.dir) : null;
    if (leftRunning !== null)
      console.warn(
        `The edge (Caddy, pid ${leftRunning}) of the docker runtime still serves from ${config.edge.dir}; \`npm run admin -- stop-edge\` stops it`,
      );
    return { runtimes, async close() {} };
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
    // Loaded only here, as dockerode above: the swarm's client makes engines of its own.
    const { createSwarmDatabases, engineAt } = await import('./swarm/swarm-databases.ts');
    const { environmentNetwork, removeEnvironmentNetwork } = await import('./swarm/swarm-networks.ts');
    const { createSwarmRuntime } = await import('./swarm/swarm-runtime.ts');
    const tlsDir = config.swarm.tlsDir;
    const manager = engineAt(config.swarm.host, tlsDir);
    const nodeEngine = (address: string) => engineAt(address, tlsDir);
    const databases = createSwarmDatabases({
      manager,
      installation,
      backupDir: config.docker.backupDir,
      images: config.docker.databaseImages,
      registry: config.swarm.registry,
      nodeEngine,
      tlsDir,
      // A first start initializes the engine's data: longer than an app has to answer.
      readyTimeoutMs: Math.max(healthTimeoutMs, 120_000),
      stopTimeoutSeconds: 10,
      log,
      fail,
      sleep,
    });
    const swarm = createSwarmRuntime({
      docker: manager,
      registry: config.swarm.registry,
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
    // The server's process follows the cluster's events for the edge it runs (a worker has none).
    if (edgeProcess)
      swarm.followEvents(
        (changes) => console.log(`Swarm routes repaired: ${changes.join('; ')}`),
        (error) => console.warn(`Following the Swarm's events: ${(error as Error).message}`),
        options.onNodeLost && ((node) => options.onNodeLost?.('swarm', node)),
      );
    closeStats.push(() => swarm.close());
    runtimes.swarm = swarm;
  }
  return {
    runtimes,
    async close() {
      for (const close of closeStats) close();
      // The edge keeps serving the endpoints while Berth is stopped; the next start takes it over.
      edgeProcess?.detach();
    },
  };
}
