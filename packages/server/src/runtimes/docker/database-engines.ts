import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type Docker from 'dockerode';
import type { DatabaseAccount, DatabaseBackup, DatabaseTarget, RuntimeContext } from '../runtime.ts';
import { RuntimeError } from '../runtime.ts';
import { LABELS } from './engine.ts';
import { installedVersions, isLocalImageEngine, localImageTag } from './local-images.ts';

// What the runtimes that run databases in containers (docker, swarm) share: each engine's image, data
// directory, account environment and its own commands (ready, dump, restore, reload), run in its
// container through an Engine API; and the backups' files, kept on Berth's machine.

/**
 * How the docker runtime runs one database engine from its image: where it keeps its data, the port it
 * answers on, the environment (and arguments) that make its account on a first start (the official
 * images' contract), and the shell commands, run inside its container where that environment is, that
 * dump its data to standard output and load a dump from standard input. An engine that loads its data
 * only at start (Redis) is restored by putting the dump in its data directory before it starts.
 */
export interface EngineDriver {
  name: string;
  /** The official image, `{version}` replaced by the database's version. */
  image: string;
  /** The oldest version it runs (older ones lack what the account needs), or null for any. */
  minimumVersion: number | null;
  port: number;
  /** The signal that stops it promptly (PostgreSQL's SIGTERM would wait for every client to leave). */
  stopSignal: string;
  dataPath: string;
  environment(account: DatabaseAccount): Record<string, string>;
  /** The container's command, when the image's own needs arguments. */
  command?: string[];
  /**
   * Files, by name, its data directory needs before its first start: the account, for an engine that
   * reads it from a file. Written 0600; the official images give their data directory to the engine's
   * user as they start.
   */
  accountFiles?(account: DatabaseAccount): Record<string, string>;
  /**
   * The account a container made before its engine read it from files still carries in its environment
   * (and on its command line), or null: such a container is recreated with the files instead.
   */
  legacyAccount?(env: Record<string, string>): DatabaseAccount | null;
  /**
   * Exits 0 once the engine accepts connections on its network address, not before (its first-start
   * set-up listens only inside): for a runtime whose containers the host cannot reach (swarm's overlay).
   */
  ready: string;
  dump: string;
  restore: { command: string } | { file: string };
  /** Reloads its configuration, or null when it reads it only at start. */
  reload: string | null;
}

const PG_AUTH = 'PGPASSWORD="$POSTGRES_PASSWORD"';
const MYSQL_ROOT = '-h127.0.0.1 -uroot -p"$MYSQL_ROOT_PASSWORD"';
// Redis's account is in an ACL file (users.acl), its password there only as a hash; the runtime's own
// commands sign in with the password kept beside it, read into redis-cli's environment (never onto a
// command line). A container made before issue 34 has it in its environment.
const REDIS_PASSWORD_FILE = 'berth-password';
const REDIS_CLI = `REDISCLI_AUTH="\${REDIS_PASSWORD:-$(cat /data/${REDIS_PASSWORD_FILE})}" redis-cli --no-auth-warning --user "$REDIS_USER"`;
// The image makes the account in the admin database (hence authSource=admin in its connection URL).
// `--password=…` in one word: the tools take a separate word that starts with `-` (a generated
// password may) for an option, not for the value.
const MONGO_AUTH =
  '--host=127.0.0.1 --authenticationDatabase=admin --username="$MONGO_INITDB_ROOT_USERNAME" --password="$MONGO_INITDB_ROOT_PASSWORD"';
export const ENGINES: Record<string, EngineDriver> = {
  postgresql: {
    name: 'PostgreSQL',
    image: 'postgres:{version}',
    minimumVersion: null,
    port: 5432,
    stopSignal: 'SIGINT',
    dataPath: '/var/lib/postgresql/data',
    environment: (account) => ({
      POSTGRES_USER: account.username,
      POSTGRES_PASSWORD: account.password,
      POSTGRES_DB: account.name,
      PGDATA: '/var/lib/postgresql/data/pgdata',
    }),
    ready: 'exec pg_isready -q -h 127.0.0.1 -U "$POSTGRES_USER" -d "$POSTGRES_DB"',
    dump: `${PG_AUTH} exec pg_dump --format=custom -h 127.0.0.1 -U "$POSTGRES_USER" "$POSTGRES_DB"`,
    restore: {
      command: `${PG_AUTH} exec pg_restore --no-owner --no-privileges --exit-on-error -h 127.0.0.1 -U "$POSTGRES_USER" -d "$POSTGRES_DB"`,
    },
    reload: `${PG_AUTH} exec psql -v ON_ERROR_STOP=1 -qAt -h 127.0.0.1 -U "$POSTGRES_USER" -d "$POSTGRES_DB" -c "SELECT pg_reload_conf()"`,
  },
  mysql: {
    name: 'MySQL',
    image: 'mysql:{version}',
    minimumVersion: null,
    port: 3306,
    stopSignal: 'SIGTERM',
    dataPath: '/var/lib/mysql',
    environment: (account) => ({
      MYSQL_DATABASE: account.name,
      MYSQL_USER: account.username,
      MYSQL_PASSWORD: account.password,
      // The engine's own administrator, for backups and reloads: nobody else needs it.
      MYSQL_ROOT_PASSWORD: randomBytes(24).toString('base64url'),
    }),
    ready: `exec mysqladmin ${MYSQL_ROOT} ping`,
    dump: `exec mysqldump --single-transaction --routines --triggers ${MYSQL_ROOT} "$MYSQL_DATABASE"`,
    restore: { command: `exec mysql ${MYSQL_ROOT} "$MYSQL_DATABASE"` },
    reload: `exec mysqladmin ${MYSQL_ROOT} reload`,
  },
  redis: {
    name: 'Redis',
    image: 'redis:{version}',
    // Accounts (ACL users with channel rules) arrived in 6.2.
    minimumVersion: 6.2,
    port: 6379,
    stopSignal: 'SIGTERM',
    dataPath: '/data',
    environment: (account) => ({ REDIS_USER: account.username }),
    // Issue 34: the account comes from a file, not the command line, which `docker inspect` and every
    // process list on the machine show.
    command: ['redis-server', '--dir', '/data', '--save', '60', '1', '--aclfile', '/data/users.acl'],
    accountFiles: (account) => ({
      'users.acl': [
        'user default off',
        `user ${account.username} on #${createHash('sha256').update(account.password).digest('hex')} ~* &* +@all`,
        '',
      ].join('\n'),
      [REDIS_PASSWORD_FILE]: account.password,
    }),
    legacyAccount: (env) =>
      env.REDIS_USER && env.REDIS_PASSWORD
        ? { username: env.REDIS_USER, password: env.REDIS_PASSWORD, name: '' }
        : null,
    ready: `${REDIS_CLI} -h 127.0.0.1 PING | grep -q PONG`,
    dump: `${REDIS_CLI} SAVE >/dev/null && exec cat /data/dump.rdb`,
    restore: { file: 'dump.rdb' },
    reload: null,
  },
  mongodb: {
    name: 'MongoDB',
    image: 'mongo:{version}',
    minimumVersion: null,
    port: 27017,
    // mongod shuts down cleanly on SIGTERM.
    stopSignal: 'SIGTERM',
    dataPath: '/data/db',
    environment: (account) => ({
      MONGO_INITDB_ROOT_USERNAME: account.username,
      MONGO_INITDB_ROOT_PASSWORD: account.password,
      MONGO_INITDB_DATABASE: account.name,
    }),
    // One archive of the account's database on standard output; restored whole, over what is there.
    // Its first-start set-up listens on 127.0.0.1 only: the container's own address answers after it.
    ready: `exec mongosh ${MONGO_AUTH.replace('--host=127.0.0.1', '--host="$(hostname -i)"')} --quiet --eval "db.runCommand({ ping: 1 }).ok"`,
    dump: `exec mongodump ${MONGO_AUTH} --db "$MONGO_INITDB_DATABASE" --archive --quiet`,
    restore: { command: `exec mongorestore ${MONGO_AUTH} --archive --drop --quiet` },
    reload: null,
  },
};

/** The image a database runs unless BERTH_DATABASE_IMAGES names another: its engine's official one. */
export function officialDatabaseImage(type: string, version: string): string | null {
  return ENGINES[type]?.image.replaceAll('{version}', version) ?? null;
}

/** Engines of the catalog this runtime runs, by display name (for the message about the others). */
export const DOCKER_DATABASE_ENGINES = Object.values(ENGINES).map((engine) => engine.name);

/** Whether the docker runtime runs this engine at this version (older ones lack what the account needs). */
export function runsOnDocker(type: string, version: string): boolean {
  const engine = ENGINES[type];
  return !!engine && (engine.minimumVersion === null || Number.parseFloat(version) >= engine.minimumVersion);
}

/** A backup's file: its database's id, when, and a random part; nothing a path could escape with. */
const BACKUP_FILE = /^db-\d{1,12}-\d{8}t\d{6}z-[0-9a-f]{8}\.dump$/;
/**
 * The engine's framed exec stream (no TTY): each frame is one byte of stream (1 stdout, 2 stderr), three
 * of padding, four of length, then the payload. Standard output passes on; standard error's tail is kept.
 */
class ExecOutput extends Transform {
  private pending: Buffer = Buffer.alloc(0);
  errors = '';

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    while (this.pending.length >= 8) {
      const size = this.pending.readUInt32BE(4);
      if (this.pending.length < 8 + size) break;
      const payload = this.pending.subarray(8, 8 + size);
      if (this.pending[0] === 2) this.errors = (this.errors + payload.toString('utf8')).slice(-4000);
      else this.push(payload);
      this.pending = this.pending.subarray(8 + size);
    }
    done();
  }
}

/** How long a dump or a restore may take, and a reload. */
export const DUMP_TIMEOUT_MS = 6 * 3_600_000;
export const RELOAD_TIMEOUT_MS = 60_000;

/** The engine a database runs, or why this runtime does not run it. */
export function engineFor(
  target: Pick<DatabaseTarget, 'type' | 'version'>,
  runtime: string,
): EngineDriver | { problem: string } {
  const engine = ENGINES[target.type];
  if (!engine)
    return {
      problem: `${target.type} databases are not available on the ${runtime} runtime yet: it runs ${DOCKER_DATABASE_ENGINES.join(', ')}`,
    };
  if (engine.minimumVersion !== null && Number.parseFloat(target.version) < engine.minimumVersion)
    return {
      problem: `${engine.name} ${target.version} is not available on the ${runtime} runtime: it runs ${engine.name} ${engine.minimumVersion} and later`,
    };
  return engine;
}

/** The image a database runs: BERTH_DATABASE_IMAGES's for its `type:version` or `type`, else the official one. */
export function databaseImage(
  images: Record<string, string>,
  target: Pick<DatabaseTarget, 'type' | 'version'>,
  engine: EngineDriver,
): string {
  const chosen = images[`${target.type}:${target.version}`] ?? images[target.type] ?? engine.image;
  return chosen.replaceAll('{version}', target.version);
}

/**
 * What to do about an image the engine has not and cannot pull: the official images of the engines
 * Debian packages can be made on this machine (local-images.ts); others must be put on the engine.
 */
export function missingImageAdvice(target: Pick<DatabaseTarget, 'type' | 'version'>, image: string): string {
  const elsewhere =
    'put it on the engine (docker load) or set BERTH_DATABASE_IMAGES to an image the engine has';
  if (!isLocalImageEngine(target.type) || image !== officialDatabaseImage(target.type, target.version))
    return `${elsewhere[0]?.toUpperCase()}${elsewhere.slice(1)}`;
  const installed = installedVersions(target.type);
  if (installed.includes(target.version))
    return `On a machine that cannot pull, make it from this machine's Debian packages: npm run images -- ${target.type} ${target.version} (or ${elsewhere})`;
  // This machine's package holds another version: that one can be made, and this version pointed at it.
  const [held] = installed;
  if (!held) return `${elsewhere[0]?.toUpperCase()}${elsewhere.slice(1)}`;
  return `This machine's packages hold version ${held}, not ${target.version}: make that image (npm run images -- ${target.type} ${held}) and run this version on it with BERTH_DATABASE_IMAGES=${target.type}:${target.version}=${localImageTag(target.type, held)}, or ${elsewhere}`;
}

/**
 * Runs a shell command in a container: standard input from a file, standard output into a file (with
 * backpressure: a dump is never held in memory), the tail of standard error kept to explain a failure.
 * Stopped when the operation is interrupted or the time runs out.
 */
export async function execInContainer(
  docker: Docker,
  ctx: Pick<RuntimeContext, 'signal'>,
  id: string,
  command: string,
  files: { input?: string; output?: string },
  timeoutMs: number,
): Promise<{ exitCode: number; errors: string }> {
  const exec = await docker.getContainer(id).exec({
    Cmd: ['sh', '-c', command],
    AttachStdin: !!files.input,
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = await exec.start({ hijack: true, stdin: !!files.input });
  const demux = new ExecOutput();
  const stop = (reason: string) => stream.destroy(new RuntimeError(reason));
  const onAbort = () => stop('Operation interrupted');
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(
    () => stop(`The command in the container did not finish within ${Math.round(timeoutMs / 60_000)} min`),
    timeoutMs,
  );
  try {
    const output = files.output
      ? fs.createWriteStream(files.output, { mode: 0o600 })
      : new Writable({ write: (_chunk, _encoding, done) => done() });
    // Both directions settle (and fail) together: no rejection is left unheard.
    await Promise.all([
      pipeline(stream, demux, output),
      files.input ? pipeline(fs.createReadStream(files.input), stream) : Promise.resolve(),
    ]);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
  }
  // The stream can end a moment before the engine records the exit code.
  for (let attempt = 0; attempt < 50; attempt++) {
    const state = await exec.inspect();
    if (!state.Running) return { exitCode: state.ExitCode ?? -1, errors: demux.errors.trim() };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { exitCode: -1, errors: demux.errors.trim() };
}

/**
 * Writes a file into a database's volume before its engine starts: a one-off container of the engine's
 * image with the volume mounted copies its standard input there, readable by its owner only. Returns
 * the copy's exit code.
 */
export async function putInVolume(
  docker: Docker,
  installation: string,
  image: string,
  volume: string,
  engine: EngineDriver,
  name: string,
  content: Readable,
): Promise<number> {
  const helper = await docker.createContainer({
    Image: image,
    Entrypoint: ['sh', '-c', `umask 077 && cat > "${engine.dataPath}/${name}"`],
    Cmd: [],
    OpenStdin: true,
    StdinOnce: true,
    AttachStdin: true,
    Labels: { [LABELS.managed]: 'true', [LABELS.installation]: installation },
    HostConfig: { Mounts: [{ Type: 'volume', Source: volume, Target: engine.dataPath }] },
  });
  try {
    const stream = await helper.attach({ stream: true, stdin: true, hijack: true });
    await helper.start();
    await pipeline(content, stream);
    const { StatusCode } = (await helper.wait()) as { StatusCode: number };
    return StatusCode;
  } finally {
    await helper.remove({ force: true }).catch(() => undefined);
  }
}

/**
 * The backups' files, kept in one directory of Berth's machine (BERTH_DATA_DIR/backups) whichever
 * machine ran the database: a dump streams there from its container, and a restore streams back from
 * there into a new one, on any machine.
 */
export function backupFiles(
  backupDir: string,
  log: (ctx: RuntimeContext, text: string, level?: 'INFO' | 'WARN' | 'ERROR') => Promise<void>,
  fail: (ctx: RuntimeContext, message: string) => Promise<never>,
  runtime: string,
) {
  const pathOf = (storageRef: string) => {
    if (!BACKUP_FILE.test(storageRef))
      throw new RuntimeError(`Backup ${storageRef.slice(0, 100)} is not one of this runtime's`);
    return path.join(backupDir, storageRef);
  };
  return {
    pathOf,
    /** The dump of a backup a new database starts from, when its file is there. */
    async sourceOf(ctx: RuntimeContext, storageRef: string): Promise<string> {
      const file = pathOf(storageRef);
      if (!fs.existsSync(file)) return fail(ctx, `Backup ${storageRef} has no file in ${backupDir}`);
      return file;
    },
    /** Dumps a database with its engine's own tool, run in its container on that engine, into a new backup. */
    async dump(
      ctx: RuntimeContext,
      docker: Docker,
      containerId: string,
      target: DatabaseTarget,
      engine: EngineDriver,
    ): Promise<DatabaseBackup> {
      fs.mkdirSync(backupDir, { recursive: true, mode: 0o700 });
      const stamp = new Date()
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'z')
        .toLowerCase();
      const storageRef = `db-${target.id}-${stamp}-${randomBytes(4).toString('hex')}.dump`;
      const file = pathOf(storageRef);
      const partial = `${file}.partial`;
      await log(ctx, `Dumping ${target.handle} with ${engine.name}'s own tool`);
      let dumped: { exitCode: number; errors: string };
      try {
        dumped = await execInContainer(
          docker,
          ctx,
          containerId,
          engine.dump,
          { output: partial },
          DUMP_TIMEOUT_MS,
        );
      } catch (error) {
        fs.rmSync(partial, { force: true });
        return fail(ctx, `Backup of ${target.handle} failed: ${(error as Error).message}`);
      }
      if (dumped.exitCode !== 0) {
        fs.rmSync(partial, { force: true });
        return fail(
          ctx,
          `Backup of ${target.handle} failed: ${dumped.errors || `exit code ${dumped.exitCode}`}`,
        );
      }
      // Only a whole dump gets the backup's name.
      fs.renameSync(partial, file);
      const bytes = fs.statSync(file).size;
      const sizeGb = Math.ceil(bytes / 1e7) / 100;
      await log(ctx, `Backup ${storageRef} completed (${bytes} bytes)`);
      return { storageRef, sizeGb };
    },
    async remove(ctx: RuntimeContext, storageRef: string) {
      if (!BACKUP_FILE.test(storageRef)) {
        // Not a file of this runtime (a backup taken while the stack ran on another): nothing to delete here.
        await log(ctx, `Backup ${storageRef.slice(0, 100)} has no file on the ${runtime} runtime`);
        return;
      }
      fs.rmSync(pathOf(storageRef), { force: true });
      await log(ctx, `Deleted backup ${storageRef}`);
    },
  };
}
