import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import Docker from 'dockerode';

// Images for the docker suites, made on the machine: this network reaches no image registry. The base is
// a root filesystem holding Debian's static busybox (`apt-get install busybox-static`), imported with
// `docker import`; the others are built FROM it with small Dockerfiles.

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

/** A folder as a tar stream (what the engine takes for an import or a build context). */
export function tarOf(folder: string): Readable {
  return spawn('tar', ['-C', folder, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] }).stdout;
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

function staticBusybox(): string {
  for (const candidate of ['/bin/busybox', '/usr/bin/busybox'])
    if (fs.existsSync(candidate)) return candidate;
  throw new Error('busybox is missing: apt-get install busybox-static');
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

/** Removes what a docker suite made: its environment's containers, its network and its data directory. */
export async function removeDockerTestResources(
  docker: Docker,
  resources: { environmentHandle: string; network: string; dataDir: string },
) {
  const { environmentHandle, network, dataDir } = resources;
  const left = await docker.listContainers({
    all: true,
    filters: { label: [`io.berth.environment=${environmentHandle}`] },
  });
  for (const container of left) await docker.getContainer(container.Id).remove({ force: true });
  await docker
    .getNetwork(network)
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

/** Database images for the docker suites, made from the machine's Debian packages: no registry is reachable. */
export const POSTGRES_IMAGE = 'berth-test/postgres:15';
export const MYSQL_IMAGE = 'berth-test/mysql:8.4';
// (-2: starts as the official image does, as its redis user, which owns the data directory.)
export const REDIS_IMAGE = 'berth-test/redis:7.2-2';

// A root filesystem of programs from the machine (Debian's packages), with the shared libraries they
// load, and busybox for the shell and `su`: its arguments are the root, busybox, then the paths to copy.
const DEBIAN_ROOTFS = String.raw`
set -eu
ROOT=$1; BUSYBOX=$2; shift 2
mkdir -p "$ROOT/bin" "$ROOT/etc" "$ROOT/tmp"
chmod 1777 "$ROOT/tmp"
cp "$BUSYBOX" "$ROOT/bin/busybox"
for applet in $("$ROOT/bin/busybox" --list); do [ "$applet" = busybox ] || ln -sf busybox "$ROOT/bin/$applet"; done
for path in "$@"; do tar -C / -cf - "${'$'}{path#/}" | tar -C "$ROOT" -xf -; done
for path in "$@"; do find "$path" -type f \( -perm -u+x -o -name '*.so*' \); done | while read -r file; do
  ldd "$file" 2>/dev/null | awk '/=>/ {print $3} /ld-linux/ {print $1}' | grep '^/' || true
done | sort -u | while read -r lib; do mkdir -p "$ROOT$(dirname "$lib")"; cp -L "$lib" "$ROOT$lib"; done
`;

/**
 * An image of programs from the machine's Debian packages: the paths, a system user to run as, the
 * directories it writes to, an entrypoint script (when the image's contract needs one) and the image's
 * settings as Dockerfile lines.
 */
async function debianImage(
  docker: Docker,
  name: string,
  image: { paths: string[]; user: string; directories: string[]; entrypoint?: string; changes: string[] },
): Promise<string> {
  if (await hasImage(docker, name)) return name;
  for (const required of image.paths)
    if (!fs.existsSync(required)) throw new Error(`${required} is missing: install its Debian package`);
  const root = fs.mkdtempSync(path.join(tmpdir(), 'berth-debian-rootfs-'));
  try {
    await new Promise<void>((resolve, reject) => {
      const build = spawn('bash', ['-c', DEBIAN_ROOTFS, 'rootfs', root, staticBusybox(), ...image.paths], {
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      build.once('error', reject);
      build.once('exit', (code) =>
        code === 0
          ? resolve()
          : reject(new Error(`building the root filesystem of ${name} failed (${code})`)),
      );
    });
    fs.writeFileSync(
      path.join(root, 'etc', 'passwd'),
      `root:x:0:0:root:/root:/bin/sh\n${image.user}:x:999:999::/tmp:/bin/sh\n`,
    );
    fs.writeFileSync(path.join(root, 'etc', 'group'), `root:x:0:\n${image.user}:x:999:\n`);
    for (const directory of image.directories) fs.mkdirSync(path.join(root, directory), { recursive: true });
    if (image.entrypoint)
      fs.writeFileSync(path.join(root, 'entrypoint.sh'), image.entrypoint, { mode: 0o755 });
    const [repo, tag] = name.split(':');
    // The engine takes the image's settings as Dockerfile lines (`changes`, repeated).
    const settings: Record<string, unknown> = { repo, tag, changes: image.changes };
    await follow(docker, await docker.importImage(tarOf(root) as never, settings));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  return name;
}

// The official image's contract, small: POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB make the
// account and database on a first start (with the server listening on no network meanwhile), PGDATA
// says where the data lives.
const POSTGRES_ENTRYPOINT = String.raw`#!/bin/sh
set -e
PGDATA=${'$'}{PGDATA:-/var/lib/postgresql/data}
mkdir -p "$PGDATA" /var/run/postgresql
chown -R postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"
as_postgres() { su postgres -s /bin/sh -c "$1"; }
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "$POSTGRES_PASSWORD" > /tmp/pwfile
  chown postgres /tmp/pwfile
  as_postgres "initdb -D '$PGDATA' -U '$POSTGRES_USER' --pwfile=/tmp/pwfile -E UTF8 --locale=C -A scram-sha-256 --auth-local=trust"
  rm -f /tmp/pwfile
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  as_postgres "pg_ctl -D '$PGDATA' -o \"-c listen_addresses=''\" -w start"
  as_postgres "psql -v ON_ERROR_STOP=1 -U '$POSTGRES_USER' -d postgres -c 'CREATE DATABASE \"$POSTGRES_DB\"'"
  as_postgres "pg_ctl -D '$PGDATA' -m fast -w stop"
fi
exec su postgres -s /bin/sh -c "exec postgres -D '$PGDATA' -c listen_addresses='*'"
`;

/** PostgreSQL 15 (apt-get install postgresql) at the official image's contract, which the docker runtime relies on. */
export function postgresImage(docker: Docker): Promise<string> {
  return debianImage(docker, POSTGRES_IMAGE, {
    paths: [
      '/usr/lib/postgresql/15',
      '/usr/share/postgresql/15',
      '/usr/share/zoneinfo/UTC',
      '/usr/share/zoneinfo/Etc',
    ],
    user: 'postgres',
    directories: ['var/run/postgresql', 'var/lib/postgresql'],
    entrypoint: POSTGRES_ENTRYPOINT,
    changes: ['ENV PATH=/usr/lib/postgresql/15/bin:/bin', 'ENTRYPOINT ["/entrypoint.sh"]', 'EXPOSE 5432'],
  });
}

// The official MySQL image's contract, small, on MariaDB (Debian has no MySQL): MYSQL_ROOT_PASSWORD,
// MYSQL_DATABASE, MYSQL_USER and MYSQL_PASSWORD make the accounts and the database on a first start,
// with the server listening on no network meanwhile.
const MYSQL_ENTRYPOINT = String.raw`#!/bin/sh
set -e
DATA=/var/lib/mysql
SOCKET=/run/mysqld/mysqld.sock
mkdir -p "$DATA" /run/mysqld
chown -R mysql:mysql "$DATA" /run/mysqld
if [ ! -d "$DATA/mysql" ]; then
  mariadb-install-db --no-defaults --user=mysql --datadir="$DATA" --skip-test-db --skip-name-resolve --auth-root-authentication-method=normal >/dev/null
  mariadbd --no-defaults --user=mysql --datadir="$DATA" --skip-networking --socket="$SOCKET" &
  pid=$!
  for _ in $(seq 1 120); do mariadb-admin --socket="$SOCKET" -uroot ping >/dev/null 2>&1 && break; sleep 0.5; done
  mariadb --socket="$SOCKET" -uroot <<SQL
DROP USER IF EXISTS 'root'@'127.0.0.1', 'root'@'::1', 'root'@'$(hostname)';
ALTER USER 'root'@'localhost' IDENTIFIED BY '$MYSQL_ROOT_PASSWORD';
CREATE USER 'root'@'%' IDENTIFIED BY '$MYSQL_ROOT_PASSWORD';
GRANT ALL ON *.* TO 'root'@'%' WITH GRANT OPTION;
CREATE DATABASE \`$MYSQL_DATABASE\`;
CREATE USER '$MYSQL_USER'@'%' IDENTIFIED BY '$MYSQL_PASSWORD';
GRANT ALL ON \`$MYSQL_DATABASE\`.* TO '$MYSQL_USER'@'%';
SQL
  kill "$pid"
  wait "$pid" || true
fi
exec mariadbd --no-defaults --user=mysql --datadir="$DATA" --socket="$SOCKET" --bind-address=0.0.0.0 --skip-name-resolve
`;

/** "MySQL" for the docker suites: MariaDB (apt-get install mariadb-server) at the official MySQL image's contract. */
export function mysqlImage(docker: Docker): Promise<string> {
  const programs = [
    'mariadb',
    'mariadb-admin',
    'mariadb-dump',
    'mariadb-install-db',
    'my_print_defaults',
    'resolveip',
  ];
  return debianImage(docker, MYSQL_IMAGE, {
    paths: [
      '/usr/sbin/mariadbd',
      ...programs.map((program) => `/usr/bin/${program}`),
      '/usr/bin/mysql',
      '/usr/bin/mysqladmin',
      '/usr/bin/mysqldump',
      '/usr/share/mysql',
    ],
    user: 'mysql',
    directories: ['var/lib/mysql', 'run/mysqld'],
    entrypoint: MYSQL_ENTRYPOINT,
    changes: ['ENV PATH=/usr/sbin:/usr/bin:/bin', 'ENTRYPOINT ["/entrypoint.sh"]', 'EXPOSE 3306'],
  });
}

// The official Redis image's entrypoint, small: `redis-server` runs as the redis user, given what is in
// its data directory (the working directory) first; anything else runs as it is.
const REDIS_ENTRYPOINT = String.raw`#!/bin/sh
set -e
if [ "$1" = redis-server ] && [ "$(id -u)" = 0 ]; then
  find . \! -user redis -exec chown redis '{}' +
  exec su -s /bin/sh -c 'exec "$0" "$@"' -- redis "$@"
fi
exec "$@"
`;

/** Redis 7 (apt-get install redis-server): the official image runs the arguments it is given. */
export function redisImage(docker: Docker): Promise<string> {
  return debianImage(docker, REDIS_IMAGE, {
    paths: ['/usr/bin/redis-server', '/usr/bin/redis-check-rdb', '/usr/bin/redis-cli'],
    user: 'redis',
    directories: ['data'],
    entrypoint: REDIS_ENTRYPOINT,
    changes: [
      'ENV PATH=/usr/bin:/bin',
      'WORKDIR /data',
      'ENTRYPOINT ["/entrypoint.sh"]',
      'CMD ["redis-server"]',
      'EXPOSE 6379',
    ],
  });
}
