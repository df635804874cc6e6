import { createHmac } from 'node:crypto';
import type { Config } from '../config.ts';
import { createDockerRuntime } from './docker/docker-runtime.ts';
import { createDockerStatsRecorder } from './docker/docker-stats.ts';
import type { Runtime } from './runtime.ts';
import { createSimRuntime } from './sim/sim-runtime.ts';

/** This Berth's id on shared machines: derived from the server secret, the same in every process. */
export function installationId(serverSecret: Uint8Array): string {
  return createHmac('sha256', serverSecret).update('berth installation').digest('hex').slice(0, 16);
}

/**
 * The runtimes a process runs stacks on, by name: always `sim`; `docker` too when BERTH_RUNTIME is
 * docker (the engine at DOCKER_HOST, else the local socket), with the recorder of its containers' stats.
 * The Docker client is loaded only then: it adds some 130 ms and 25 MB to a start that does not use it.
 */
export async function createRuntimes(
  config: Pick<Config, 'simStepMs' | 'runtime' | 'docker' | 'git' | 'publicUrl'>,
  serverSecret: Uint8Array,
): Promise<{ runtimes: Record<string, Runtime>; close(): void }> {
  const runtimes: Record<string, Runtime> = { sim: createSimRuntime({ stepMs: config.simStepMs }) };
  if (config.runtime !== 'docker') return { runtimes, close() {} };
  const { default: Docker } = await import('dockerode');
  const docker = new Docker();
  const installation = installationId(serverSecret);
  const stats = createDockerStatsRecorder(docker, {
    intervalMs: Math.max(1, config.docker.statsIntervalSeconds) * 1000,
    installation,
  });
  runtimes.docker = createDockerRuntime({
    docker,
    gitDir: config.git.dir,
    publicUrl: config.publicUrl,
    network: config.docker.network,
    healthTimeoutMs: Math.max(1, config.docker.healthTimeoutSeconds) * 1000,
    stopTimeoutSeconds: 10,
    stats,
    installation,
  });
  return { runtimes, close: () => stats.close() };
}
