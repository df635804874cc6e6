import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';

/**
 * Database images made on this machine from Debian's packages, for a machine that cannot pull from a
 * registry (an air-gapped one): `npm run images -- postgresql 15` makes `postgres:15`, the image the
 * docker runtime runs PostgreSQL 15 databases from. Each image is a root filesystem of the package's
 * programs with the shared libraries they load and Debian's static busybox (its shell, `su`, `du`),
 * imported into the engine, and keeps the part of the official image's contract the runtime relies on
 * (docker-databases.ts): the variables that make the account on a first start, the data directory, the
 * port, and the tools its backups, restores and reloads run.
 */

export const LOCAL_IMAGE_ENGINES = ['postgresql', 'mysql', 'redis'] as const;
export type LocalImageEngine = (typeof LOCAL_IMAGE_ENGINES)[number];

/** Marks an image this command made, with the recipe it was made by (a newer recipe makes it again). */
export const LOCAL_IMAGE_LABEL = 'io.berth.local-image';
const RECIPE = '1';

/** What an image is made of, and where its version comes from. */
interface Recipe {
  /** The engine's own name, and Debian's package that holds it. */
  product: string;
  debianPackage: string;
  /** The image's name: the official image's, so the runtime takes it without BERTH_DATABASE_IMAGES. */
  tag(version: string): string;
  /** The versions this machine's packages hold (none when the package is not installed). */
  installedVersions(): string[];
  /** What to copy from the machine into the image. */
  paths(version: string): string[];
  /** The system user the engine runs as, and the directories it writes to. */
  user: string;
  directories: string[];
  entrypoint: string;
  /** The image's settings, as Dockerfile lines. */
  changes(version: string): string[];
}

// A root filesystem of programs from the machine (Debian's packages), with the shared libraries they
// load, and busybox for the shell and `su`: its arguments are the root, busybox, then the paths to copy.
// Files are readable by all (the engine's user reads them), whatever umask the command runs under.
const DEBIAN_ROOTFS = String.raw`
set -eu
umask 022
ROOT=$1; BUSYBOX=$2; shift 2
chmod 755 "$ROOT"
mkdir -p "$ROOT/bin" "$ROOT/etc" "$ROOT/tmp"
chmod 1777 "$ROOT/tmp"
cp "$BUSYBOX" "$ROOT/bin/busybox"
chmod 755 "$ROOT/bin/busybox"
for applet in $("$ROOT/bin/busybox" --list); do [ "$applet" = busybox ] || ln -sf busybox "$ROOT/bin/$applet"; done
for path in "$@"; do tar -C / -cf - "${'$'}{path#/}" | tar -C "$ROOT" -xf -; done
for path in "$@"; do find "$path" -type f \( -perm -u+x -o -name '*.so*' \); done | while read -r file; do
  ldd "$file" 2>/dev/null | awk '/=>/ {print $3} /ld-linux/ {print $1}' | grep '^/' || true
done | sort -u | while read -r lib; do mkdir -p "$ROOT$(dirname "$lib")"; cp -L "$lib" "$ROOT$lib"; chmod 755 "$ROOT$lib"; done
`;

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

/** `major.minor` from a program's version line (`Ver 10.11.19-MariaDB`, `v=7.0.15`); none without the program. */
function versionOf(program: string, args: string[], marker: RegExp): string[] {
  if (!fs.existsSync(program)) return [];
  try {
    // A version line is short: 200 characters is plenty, and bounds what the pattern reads.
    const output = execFileSync(program, args, { encoding: 'utf8', timeout: 10_000 }).slice(0, 200);
    const found = marker.exec(output)?.[1];
    return found ? [found] : [];
  } catch {
    return [];
  }
}

const POSTGRES_ROOT = '/usr/lib/postgresql';

const RECIPES: Record<LocalImageEngine, Recipe> = {
  postgresql: {
    product: 'PostgreSQL',
    debianPackage: 'postgresql',
    tag: (version) => `postgres:${version}`,
    // Debian's postgresql-<major> packages, one directory per major version.
    installedVersions: () =>
      fs.existsSync(POSTGRES_ROOT)
        ? fs
            .readdirSync(POSTGRES_ROOT)
            .filter((version) => fs.existsSync(path.join(POSTGRES_ROOT, version, 'bin', 'postgres')))
            .sort((a, b) => Number(b) - Number(a))
        : [],
    paths: (version) => [
      `${POSTGRES_ROOT}/${version}`,
      `/usr/share/postgresql/${version}`,
      '/usr/share/zoneinfo/UTC',
      '/usr/share/zoneinfo/Etc',
    ],
    user: 'postgres',
    directories: ['var/run/postgresql', 'var/lib/postgresql'],
    entrypoint: POSTGRES_ENTRYPOINT,
    changes: (version) => [
      `ENV PATH=${POSTGRES_ROOT}/${version}/bin:/bin`,
      'ENTRYPOINT ["/entrypoint.sh"]',
      'EXPOSE 5432',
    ],
  },
  mysql: {
    product: 'MariaDB',
    debianPackage: 'mariadb-server',
    // Named for what it runs: MariaDB (the official mariadb image keeps the same MYSQL_* contract).
    tag: (version) => `mariadb:${version}`,
    installedVersions: () => versionOf('/usr/sbin/mariadbd', ['--version'], /\bVer (\d{1,4}\.\d{1,4})/),
    paths: () => [
      '/usr/sbin/mariadbd',
      ...[
        'mariadb',
        'mariadb-admin',
        'mariadb-dump',
        'mariadb-install-db',
        'my_print_defaults',
        'resolveip',
        'mysql',
        'mysqladmin',
        'mysqldump',
      ].map((program) => `/usr/bin/${program}`),
      '/usr/share/mysql',
    ],
    user: 'mysql',
    directories: ['var/lib/mysql', 'run/mysqld'],
    entrypoint: MYSQL_ENTRYPOINT,
    changes: () => ['ENV PATH=/usr/sbin:/usr/bin:/bin', 'ENTRYPOINT ["/entrypoint.sh"]', 'EXPOSE 3306'],
  },
  redis: {
    product: 'Redis',
    debianPackage: 'redis-server',
    tag: (version) => `redis:${version}`,
    installedVersions: () => versionOf('/usr/bin/redis-server', ['--version'], /\bv=(\d{1,4}\.\d{1,4})/),
    paths: () => ['/usr/bin/redis-server', '/usr/bin/redis-check-rdb', '/usr/bin/redis-cli'],
    user: 'redis',
    directories: ['data'],
    entrypoint: REDIS_ENTRYPOINT,
    changes: () => [
      'ENV PATH=/usr/bin:/bin',
      'WORKDIR /data',
      'ENTRYPOINT ["/entrypoint.sh"]',
      'CMD ["redis-server"]',
      'EXPOSE 6379',
    ],
  },
};

export class LocalImageError extends Error {
  override name = 'LocalImageError';
}

export function isLocalImageEngine(engine: string): engine is LocalImageEngine {
  return (LOCAL_IMAGE_ENGINES as readonly string[]).includes(engine);
}

/** The image a version of an engine is made as (`postgres:15`, `mariadb:10.11`, `redis:7.0`). */
export function localImageTag(engine: LocalImageEngine, version: string): string {
  return RECIPES[engine].tag(version);
}

/** The versions of an engine this machine's Debian packages hold. */
export function installedVersions(engine: LocalImageEngine): string[] {
  return RECIPES[engine].installedVersions();
}

/**
 * Why a version cannot be made here, or null when it can: an image is this machine's package, so it
 * is the version the package holds (Debian 12: PostgreSQL 15, MariaDB 10.11, Redis 7.0) and no other.
 */
export function versionProblem(
  engine: LocalImageEngine,
  version: string,
  installed: string[],
): string | null {
  const recipe = RECIPES[engine];
  if (installed.length === 0)
    return `${recipe.product} is not installed on this machine: the image is made from Debian's package, so install it first (apt-get install ${recipe.debianPackage}), then run this again`;
  if (installed.includes(version)) return null;
  const [newest = ''] = installed;
  const held = `this machine's ${recipe.debianPackage} package holds ${recipe.product} ${installed.join(', ')}`;
  if (engine === 'mysql')
    return `Debian ships MariaDB, not MySQL, and ${held}: that is the one version made here (npm run images -- mysql ${newest}, which makes ${recipe.tag(newest)} at the official MySQL image's contract), not MySQL ${version}`;
  return `${recipe.product} ${version} cannot be made here: the image is made from Debian's package, and ${held} (npm run images -- ${engine} ${newest})`;
}

/** Debian's static busybox (`apt-get install busybox-static`): the images' shell and tools. */
export function staticBusybox(): string {
  for (const candidate of ['/bin/busybox', '/usr/bin/busybox'])
    if (fs.existsSync(candidate)) return candidate;
  throw new LocalImageError('busybox is missing: apt-get install busybox-static');
}

/** A folder as a tar stream of root's files (what the engine takes for an import or a build context). */
export function tarOf(folder: string): Readable {
  return spawn('tar', ['-C', folder, '--owner=0', '--group=0', '--numeric-owner', '-c', '.'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  }).stdout;
}

function followProgress(docker: Docker, stream: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    docker.modem.followProgress(stream, (error: Error | null, output: { error?: string }[]) => {
      if (error) return reject(error);
      const failed = output.find((event) => event.error);
      return failed ? reject(new Error(failed.error)) : resolve();
    });
  });
}

/** What is on the engine under a name: nothing, an image this command made (and by which recipe), or another. */
async function existingImage(docker: Docker, tag: string): Promise<'none' | 'current' | 'older' | 'foreign'> {
  let info: Docker.ImageInspectInfo;
  try {
    info = await docker.getImage(tag).inspect();
  } catch {
    return 'none';
  }
  const made = info.Config?.Labels?.[LOCAL_IMAGE_LABEL];
  if (!made) return 'foreign';
  return made === RECIPE ? 'current' : 'older';
}

function runRootfsScript(root: string, paths: string[]): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const build = spawn('bash', ['-c', DEBIAN_ROOTFS, 'rootfs', root, staticBusybox(), ...paths], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    build.once('error', reject);
    build.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new LocalImageError(`making the root filesystem failed (exit ${code})`)),
    );
  });
}

/** Writes a file of the image with its mode, whatever umask the process runs under. */
function writeImageFile(file: string, content: string, mode: number) {
  fs.writeFileSync(file, content);
  fs.chmodSync(file, mode);
}

/**
 * Makes an engine's image from this machine's package, under its official name or `options.tag`. An
 * image this command made by the same recipe is left as it is; an image of that name made otherwise (one
 * pulled from a registry) is never replaced.
 */
export async function buildLocalImage(
  docker: Docker,
  engine: LocalImageEngine,
  version: string,
  options: { tag?: string; log?: (line: string) => void } = {},
): Promise<{ tag: string; built: boolean }> {
  const recipe = RECIPES[engine];
  const tag = options.tag ?? recipe.tag(version);
  const log = options.log ?? (() => undefined);
  const problem = versionProblem(engine, version, recipe.installedVersions());
  if (problem) throw new LocalImageError(problem);
  const existing = await existingImage(docker, tag);
  if (existing === 'current') return { tag, built: false };
  if (existing === 'foreign')
    throw new LocalImageError(
      `${tag} is already on the engine and was not made by this command (pulled from a registry?): it is left as it is. Remove it first (docker image rm ${tag}) to make it here`,
    );
  const paths = recipe.paths(version);
  for (const required of paths)
    if (!fs.existsSync(required))
      throw new LocalImageError(`${required} is missing: apt-get install ${recipe.debianPackage}`);
  const root = fs.mkdtempSync(path.join(tmpdir(), 'berth-image-rootfs-'));
  try {
    log(`Copying ${recipe.product} ${version} from ${paths.join(', ')}, with the libraries it loads`);
    await runRootfsScript(root, paths);
    writeImageFile(
      path.join(root, 'etc', 'passwd'),
      `root:x:0:0:root:/root:/bin/sh\n${recipe.user}:x:999:999::/tmp:/bin/sh\n`,
      0o644,
    );
    writeImageFile(path.join(root, 'etc', 'group'), `root:x:0:\n${recipe.user}:x:999:\n`, 0o644);
    for (const directory of recipe.directories) {
      fs.mkdirSync(path.join(root, directory), { recursive: true });
      fs.chmodSync(path.join(root, directory), 0o755);
    }
    writeImageFile(path.join(root, 'entrypoint.sh'), recipe.entrypoint, 0o755);
    log(`Importing it into the engine as ${tag}`);
    const [repo, imageTag] = splitTag(tag);
    // The engine takes the image's settings as Dockerfile lines (`changes`, repeated).
    const settings: Record<string, unknown> = {
      repo,
      tag: imageTag,
      changes: [...recipe.changes(version), `LABEL ${LOCAL_IMAGE_LABEL}=${RECIPE}`],
    };
    await followProgress(docker, await docker.importImage(tarOf(root) as never, settings));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  return { tag, built: true };
}

/** `registry:5000/name:tag` as its repository and tag (`latest` when it names none). */
function splitTag(reference: string): [string, string] {
  const colon = reference.lastIndexOf(':');
  return colon > reference.lastIndexOf('/')
    ? [reference.slice(0, colon), reference.slice(colon + 1)]
    : [reference, 'latest'];
}
