import fs from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { stopEdge } from '../runtimes/docker/caddy-process.ts';
import {
  buildLocalImage,
  type LocalImageEngine,
  staticBusybox,
  tarOf,
} from '../runtimes/docker/local-images.ts';

// Images for the docker suites, made on the machine: this network reaches no image registry. The base is
// a root filesystem holding Debian's static busybox (`apt-get install busybox-static`), imported with
// `docker import`; the apps' are built FROM it with small Dockerfiles, the databases' by the product's
// own recipe (local-images.ts).

export const BASE_IMAGE = 'berth-test/busybox:1';

/**
 * The engine of a docker suite's file: null (and a warning) when none answers locally; in CI (CI=true)
 * a missing engine fails the file, since CI runs the docker suite.
 */
export async function suiteEngine(): Promise<Docker | null> {
  const docker = await dockerEngine();
  if (!docker && process.env.CI) throw new Error('CI runs the docker suite: no Docker engine answers');
  if (!docker)
    console.warn('No Docker engine answers (DOCKER_HOST or the local socket): the docker suite is skipped');
  return docker;
}

/** The text an app's container answers at / (the test images' httpd serves one line). */
export async function pageText(host: string, port: number): Promise<string> {
  const response = await fetch(`http://${host}:${port}/`, { signal: AbortSignal.timeout(3000) });
  return (await response.text()).trim();
}

/** The engine when one answers (DOCKER_HOST, else the local socket), else null. */
export async function dockerEngine(): Promise<Docker | null> {
  const docker = new Docker();
  try {
    await Promise.race([
      docker.ping(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 3000)),
    ]);
    return docker;
  } catch {
    return null;
  }
}

function follow(docker: Docker, stream: NodeJS.ReadableStream): Promise<{ error?: string }[]> {
  return new Promise((resolve, reject) => {
    docker.modem.followProgress(stream, (error: Error | null, output: { error?: string }[]) => {
      if (error) return reject(error);
      const failed = output.find((event) => event.error);
      return failed ? reject(new Error(failed.error)) : resolve(output);
    });
  });
}

async function hasImage(docker: Docker, name: string): Promise<boolean> {
  try {
    await docker.getImage(name).inspect();
    return true;
  } catch {
    return false;
  }
}

/** The base image: busybox and its applets, nothing else. */
export async function baseImage(docker: Docker): Promise<string> {
  if (await hasImage(docker, BASE_IMAGE)) return BASE_IMAGE;
  const root = fs.mkdtempSync(path.join(tmpdir(), 'berth-rootfs-'));
  try {
    fs.mkdirSync(path.join(root, 'bin'));
    fs.mkdirSync(path.join(root, 'tmp'));
    fs.copyFileSync(staticBusybox(), path.join(root, 'bin', 'busybox'));
    fs.chmodSync(path.join(root, 'bin', 'busybox'), 0o755);
    for (const applet of ['sh', 'httpd', 'sleep', 'echo', 'cat', 'mkdir', 'env', 'wc', 'ls'])
      fs.symlinkSync('busybox', path.join(root, 'bin', applet));
    const [repo, tag] = BASE_IMAGE.split(':');
    await follow(docker, await docker.importImage(tarOf(root) as never, { repo, tag }));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  return BASE_IMAGE;
}

/** Builds an image from files (a Dockerfile among them) under a name, once. */
export async function builtImage(
  docker: Docker,
  name: string,
  files: Record<string, string>,
): Promise<string> {
  if (await hasImage(docker, name)) return name;
  const context = fs.mkdtempSync(path.join(tmpdir(), 'berth-context-'));
  try {
    for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(context, file), content);
    await follow(docker, await docker.buildImage(tarOf(context) as never, { t: name, forcerm: true }));
  } finally {
    fs.rmSync(context, { recursive: true, force: true });
  }
  return name;
}

/** A web app: busybox's httpd answering `text` on $PORT. */
export function webImage(docker: Docker, name: string, text: string): Promise<string> {
  return builtImage(docker, name, {
    Dockerfile: [
      `FROM ${BASE_IMAGE}`,
      'ENV PATH=/bin',
      `RUN mkdir -p /www && echo ${text} > /www/index.html`,
      'CMD ["/bin/sh", "-c", "exec httpd -f -p $PORT -h /www"]',
      '',
    ].join('\n'),
  });
}

/** A web app that answers with the id (host name) of the container that served the request. */
export function whoamiImage(docker: Docker, name: string): Promise<string> {
  return builtImage(docker, name, {
    Dockerfile: [
      `FROM ${BASE_IMAGE}`,
      'ENV PATH=/bin',
      'RUN mkdir -p /www',
      'CMD ["/bin/sh", "-c", "hostname > /www/index.html && exec httpd -f -p $PORT -h /www"]',
      '',
    ].join('\n'),
  });
}

/** A TCP port nothing listens on right now (for a test's own listeners). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A test server's configuration for the docker runtime: its own data directory, network and edge, and
 * new containers given 10 s to answer.
 */
export async function dockerTestConfig(
  dataDir: string,
  network: string,
  docker: { statsIntervalSeconds?: number; databaseImages?: Record<string, string> } = {},
) {
  return {
    runtime: 'docker' as const,
    dataDir,
    git: { dir: path.join(dataDir, 'git'), maxPushBytes: 64 * 1024 * 1024 },
    docker: {
      network,
      healthTimeoutSeconds: 10,
      statsIntervalSeconds: docker.statsIntervalSeconds ?? 60,
      databaseImages: docker.databaseImages ?? {},
      backupDir: path.join(dataDir, 'backups'),
    },
    edge: await testEdge(dataDir),
  };
}

/**
 * Removes what a docker suite made: its edge (which outlives the test's server), its environment's
 * containers (or, for a suite whose environments have handles others use too, its server's: by its
 * installation), its networks (the environments' ones are named after the suite's, engine.ts
 * dockerNetworks) and its data directory.
 */
export async function removeDockerTestResources(
  docker: Docker,
  resources: ({ environmentHandle: string } | { installation: string }) & {
    network: string;
    dataDir: string;
  },
) {
  const { network, dataDir } = resources;
  await stopEdge(path.join(dataDir, 'edge'));
  const left = await docker.listContainers({
    all: true,
    filters: {
      label: [
        'installation' in resources
          ? `io.berth.installation=${resources.installation}`
          : `io.berth.environment=${resources.environmentHandle}`,
      ],
    },
  });
  for (const container of left) await docker.getContainer(container.Id).remove({ force: true });
  const networks = await docker.listNetworks({ filters: { name: [network] } });
  for (const made of networks.filter(({ Name }) => Name === network || Name.startsWith(`${network}-`)))
    await docker
      .getNetwork(made.Id)
      .remove()
      .catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** The edge of a test server: Caddy on free ports, its files in the test's data directory. */
export async function testEdge(dataDir: string) {
  return {
    appsDomain: 'localhost',
    httpPort: await freePort(),
    httpsPort: await freePort(),
    acmeEmail: null,
    caddyPath: 'caddy',
    dir: path.join(dataDir, 'edge'),
  };
}

/**
 * Database images for the docker suites, made by the product's own recipe (`npm run images`,
 * local-images.ts) from the machine's Debian packages, under names of the tests' own: no registry is
 * reachable. Their "MySQL" is MariaDB at the official MySQL image's contract.
 */
export const POSTGRES_IMAGE = 'berth-test/postgresql:15';
export const MYSQL_IMAGE = 'berth-test/mariadb:10.11';
export const REDIS_IMAGE = 'berth-test/redis:7.0';

async function localImage(docker: Docker, engine: LocalImageEngine, version: string, tag: string) {
  return (await buildLocalImage(docker, engine, version, { tag })).tag;
}

/** PostgreSQL 15 (apt-get install postgresql) at the official image's contract, which the docker runtime relies on. */
export function postgresImage(docker: Docker): Promise<string> {
  return localImage(docker, 'postgresql', '15', POSTGRES_IMAGE);
}

/** "MySQL" for the docker suites: MariaDB 10.11 (apt-get install mariadb-server) at the official MySQL image's contract. */
export function mysqlImage(docker: Docker): Promise<string> {
  return localImage(docker, 'mysql', '10.11', MYSQL_IMAGE);
}

/** Redis 7.0 (apt-get install redis-server): the official image runs the arguments it is given. */
export function redisImage(docker: Docker): Promise<string> {
  return localImage(docker, 'redis', '7.0', REDIS_IMAGE);
}
