import { lookup } from 'node:dns/promises';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { type Config, ConfigError } from './config.ts';

// Issue 35: what only the machine can tell about a variable, asked before the database opens, so a wrong
// value stops the start with one line at once instead of a trace (or a hang) later.

/** How long a name lookup or the Docker engine may take to answer before the start gives up on it. */
const ANSWER_TIMEOUT_MS = 5000;

class TimedOut extends Error {}

function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut()), ANSWER_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const reasonOf = (error: unknown) =>
  error instanceof TimedOut
    ? `no answer within ${ANSWER_TIMEOUT_MS / 1000} s`
    : String((error as { code?: unknown }).code ?? (error as Error).message ?? error);

/** HOST as a name: it must resolve (the listen would otherwise wait out the resolver, near a minute). */
async function checkHost(host: string): Promise<void> {
  if (isIP(host) !== 0) return;
  try {
    await withinTimeout(lookup(host));
  } catch (error) {
    throw new ConfigError(
      `HOST ${host} does not resolve (${reasonOf(error)}); set HOST to an address of this machine, such as 0.0.0.0 or 127.0.0.1`,
    );
  }
}

/** The file a command name runs: itself when it holds a slash, else the first match on PATH. */
function executableOf(command: string, pathVariable: string): string | null {
  const isExecutableFile = (file: string) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes('/')) return isExecutableFile(command) ? path.resolve(command) : null;
  for (const dir of pathVariable.split(path.delimiter)) {
    const file = path.join(dir || '.', command);
    if (isExecutableFile(file)) return file;
  }
  return null;
}

/** The edge's binary, which the server runs on the docker runtime. */
function checkCaddy(caddyPath: string): void {
  if (executableOf(caddyPath, process.env.PATH ?? '')) return;
  const where = caddyPath.includes('/') ? '' : ' on PATH';
  throw new ConfigError(
    `BERTH_CADDY_PATH "${caddyPath.slice(0, 200)}" is no executable file${where}; install Caddy (Debian: apt-get install caddy) or set BERTH_CADDY_PATH to its binary`,
  );
}

/** The Docker engine the docker runtime drives (the client reads DOCKER_HOST itself). */
async function checkDockerEngine(dockerHost: string | undefined): Promise<void> {
  const { default: Docker } = await import('dockerode');
  try {
    await withinTimeout(new Docker().ping());
  } catch (error) {
    const where = dockerHost
      ? `at ${dockerHost} (DOCKER_HOST)`
      : 'on the local socket (DOCKER_HOST is unset)';
    throw new ConfigError(
      `DOCKER_HOST: no Docker engine answers ${where}: ${reasonOf(error)}. BERTH_RUNTIME=docker needs one: start dockerd, or set DOCKER_HOST to the engine's address`,
    );
  }
}

/** The swarm runtime's manager answers, and is a manager of a Swarm (not a lone engine, nor a worker). */
async function checkSwarmManager(swarm: NonNullable<Config['swarm']>): Promise<void> {
  const { engineAt } = await import('./runtimes/swarm/swarm-databases.ts');
  let info: { Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean } };
  try {
    info = await withinTimeout(engineAt(swarm.host, swarm.tlsDir).info());
  } catch (error) {
    throw new ConfigError(
      `BERTH_SWARM_HOST: no Docker engine answers at ${swarm.host}: ${reasonOf(error)}. BERTH_RUNTIME=swarm needs the Engine API of a Swarm manager`,
    );
  }
  if (info.Swarm?.LocalNodeState !== 'active' || !info.Swarm.ControlAvailable)
    throw new ConfigError(
      `BERTH_SWARM_HOST: the engine at ${swarm.host} is not a Swarm manager (${info.Swarm?.LocalNodeState === 'active' ? 'a worker node' : 'no swarm'}): run \`docker swarm init\` there, or name a manager's address`,
    );
}

/**
 * The start's checks on the machine: HOST resolves (the server only), and on the docker and swarm
 * runtimes the edge's binary runs (the server only: it runs the edge) and the Docker engine (the Swarm
 * manager) answers. Throws a ConfigError naming the variable.
 */
export async function checkMachine(
  config: Pick<Config, 'host' | 'runtime' | 'dockerHost' | 'edge'> & Partial<Pick<Config, 'swarm'>>,
  role: 'server' | 'worker',
): Promise<void> {
  if (role === 'server') await checkHost(config.host);
  if (config.runtime === 'sim') return;
  if (role === 'server') checkCaddy(config.edge.caddyPath);
  if (config.runtime === 'swarm' && config.swarm) await checkSwarmManager(config.swarm);
  else await checkDockerEngine(config.dockerHost);
}

/** For the server and worker processes: a failed check stops the start with its line, as loadConfigOrExit does. */
export async function checkMachineOrExit(
  config: Pick<Config, 'host' | 'runtime' | 'dockerHost' | 'edge'> & Partial<Pick<Config, 'swarm'>>,
  role: 'server' | 'worker',
  beforeExit: () => void = () => {},
): Promise<void> {
  try {
    await checkMachine(config, role);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Berth cannot start: ${error.message}`);
    beforeExit();
    process.exit(1);
  }
}
