import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type Docker from 'dockerode';
import type {
  AppTarget,
  ContainerSpec,
  DatabaseAccount,
  DatabaseBackup,
  DatabasePlan,
  DatabaseSeed,
  DatabaseTarget,
  ProvisionedDatabase,
  RuntimeContext,
} from '../runtime.ts';
import { RuntimeError } from '../runtime.ts';
import { containersLabelled, type DockerNetworks, LABELS, lastLogLines, tcpAnswers } from './engine.ts';
import { installedVersions, isLocalImageEngine, localImageTag } from './local-images.ts';

/**
 * How the docker runtime runs one database engine from its image: where it keeps its data, the port it
 * answers on, the environment (and arguments) that make its account on a first start (the official
 * images' contract), and the shell commands, run inside its container where that environment is, that
 * dump its data to standard output and load a dump from standard input. An engine that loads its data
 * only at start (Redis) is restored by putting the dump in its data directory before it starts.
 */
interface EngineDriver {
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
const ENGINES: Record<string, EngineDriver> = {
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

export interface DockerDatabasesOptions {
  docker: Docker;
  /** A database joins its environment's network, where that environment's apps reach it by name. */
  networks: DockerNetworks;
  installation: string;
  /** Where backups' dumps are kept (`BERTH_DATA_DIR/backups`). */
  backupDir: string;
  /** Images by `type` or `type:version` (BERTH_DATABASE_IMAGES), over the official ones. */
  images: Record<string, string>;
  /** How long a new database has to accept connections. */
  readyTimeoutMs: number;
  stopTimeoutSeconds: number;
  log(ctx: RuntimeContext, text: string, level?: 'INFO' | 'WARN' | 'ERROR'): Promise<void>;
  fail(ctx: RuntimeContext, message: string): Promise<never>;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

const MB = 1024 * 1024;
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
const DUMP_TIMEOUT_MS = 6 * 3_600_000;
const RELOAD_TIMEOUT_MS = 60_000;

/**
 * Databases on the docker runtime: one container per database from its engine's image, its data on a
 * named volume (which outlives the container: restarts and resizes keep it), reached by the other
 * containers at a stable name on the network. Backups are the engine's own dump, kept as files; a
 * restore is a new database loaded from one.
 */
export function createDockerDatabases(options: DockerDatabasesOptions) {
  const { docker, networks } = options;
  const machine = hostname();

  const keyOf = (target: DatabaseTarget) => `${target.stackName}/${target.environmentHandle}/db-${target.id}`;
  const short = options.installation.slice(0, 8);
  const volumeOf = (target: DatabaseTarget) => `berth-${short}-db-${target.id}`;
  /** The name apps reach it at on the network (the connection URL's host): kept across recreations. */
  const aliasOf = (target: DatabaseTarget) =>
    `${target.handle.replace(/[^a-z0-9-]+/g, '-').slice(0, 40)}-${target.id}-${short}`;
  /** The names of a database's that a container answers to on its networks (the alias it was made with). */
  const aliasesOf = (info: Docker.ContainerInspectInfo, databaseId: number) => [
    ...new Set(
      Object.values(info.NetworkSettings.Networks ?? {})
        .flatMap((network) => network.Aliases ?? [])
        .filter((alias) => alias.endsWith(`-${databaseId}-${short}`)),
    ),
  ];
  const addressOf = (info: Docker.ContainerInspectInfo) => networks.addressOf(info.NetworkSettings.Networks);
  const nameOf = (info: Docker.ContainerInspectInfo) => info.Name.replace(/^\//, '');

  function engineOf(target: DatabaseTarget): EngineDriver | null {
    return ENGINES[target.type] ?? null;
  }

  async function engineOrFail(ctx: RuntimeContext, target: DatabaseTarget): Promise<EngineDriver> {
    const engine = engineOf(target);
    if (engine && engine.minimumVersion !== null && Number.parseFloat(target.version) < engine.minimumVersion)
      return options.fail(
        ctx,
        `${engine.name} ${target.version} is not available on the docker runtime: it runs ${engine.name} ${engine.minimumVersion} and later`,
      );
    if (engine) return engine;
    return options.fail(
      ctx,
      `${target.type} databases are not available on the docker runtime yet: it runs ${DOCKER_DATABASE_ENGINES.join(', ')}`,
    );
  }

  function imageOf(target: DatabaseTarget, engine: EngineDriver): string {
    const chosen =
      options.images[`${target.type}:${target.version}`] ?? options.images[target.type] ?? engine.image;
    return chosen.replaceAll('{version}', target.version);
  }

  /**
   * What to do about an image the engine has not and cannot pull: the official images of the engines
   * Debian packages can be made on this machine (local-images.ts); others must be put on the engine.
   */
  function missingImageAdvice(target: DatabaseTarget, image: string): string {
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

  async function ensureImage(ctx: RuntimeContext, target: DatabaseTarget, image: string) {
    try {
      await docker.getImage(image).inspect();
      return;
    } catch {
      await options.log(ctx, `Pulling Docker image ${image}`);
    }
    try {
      const stream = await docker.pull(image);
      await new Promise<void>((resolve, reject) =>
        docker.modem.followProgress(stream, (error: Error | null) => (error ? reject(error) : resolve())),
      );
    } catch (error) {
      await options.fail(
        ctx,
        `Unable to pull ${image}: ${(error as Error).message}. ${missingImageAdvice(target, image)}`,
      );
    }
  }

  async function containersOf(target: DatabaseTarget) {
    return containersLabelled(docker, {
      [LABELS.database]: keyOf(target),
      [LABELS.installation]: options.installation,
    });
  }

  /** Waits until the engine accepts connections on the network (its first-start set-up listens only inside). */
  async function waitReady(
    ctx: RuntimeContext,
    id: string,
    port: number,
  ): Promise<Docker.ContainerInspectInfo> {
    const deadline = Date.now() + options.readyTimeoutMs;
    for (;;) {
      const info = await docker.getContainer(id).inspect();
      const name = info.Name.replace(/^\//, '');
      if (!info.State.Running || info.State.Restarting) {
        const output = await lastLogLines(docker, id, 20);
        return options.fail(
          ctx,
          [
            `Container ${name} exited with code ${info.State.ExitCode} before it accepted connections`,
            ...output.map((line) => `  ${line}`),
          ].join('\n'),
        );
      }
      const address = addressOf(info);
      if (address && (await tcpAnswers(address, port, 1000))) return info;
      if (Date.now() > deadline) {
        const output = await lastLogLines(docker, id, 20);
        return options.fail(
          ctx,
          [
            `Container ${name} did not accept connections on port ${port} within ${Math.round(options.readyTimeoutMs / 1000)} s`,
            ...output.map((line) => `  ${line}`),
          ].join('\n'),
        );
      }
      await options.sleep(500, ctx.signal);
    }
  }

  function specOf(
    info: Docker.ContainerInspectInfo,
    plan: DatabasePlan,
    engine: EngineDriver,
  ): ContainerSpec {
    return {
      dockerName: info.Name.replace(/^\//, ''),
      host: addressOf(info) || machine,
      awsInstanceId: info.Id.slice(0, 12),
      instanceClass: plan.instanceClass,
      memoryLimit: plan.containerSizeMb,
      port: engine.port,
      layer: 'database',
      status: info.State.Running ? 'running' : info.State.Status,
    };
  }

  /**
   * App containers made before environments had networks, still on the network every container shared
   * then: databases stay on it too (under their names) while any is, so those apps keep reaching them.
   */
  async function appsLeftOnSharedNetwork(): Promise<boolean> {
    const left = await docker
      .listContainers({
        all: true,
        filters: {
          network: [networks.shared],
          label: [`${LABELS.installation}=${options.installation}`, `${LABELS.layer}=app`],
        },
      })
      .catch(() => []);
    return left.length > 0;
  }

  /**
   * Puts a database container on its environment's network under its names (a container made before
   * environments had networks is on the shared one only), and takes it off the shared one once no app
   * container made then is left there.
   */
  async function moveToEnvironment(
    ctx: RuntimeContext,
    environment: Pick<AppTarget, 'environmentId' | 'environmentHandle' | 'stackName'>,
    info: Docker.ContainerInspectInfo,
    aliases: string[],
  ) {
    const on = info.NetworkSettings.Networks ?? {};
    const own = networks.ofEnvironment(environment.environmentId);
    if (!on[own]) {
      await docker
        .getNetwork(await networks.ensureEnvironment(environment))
        .connect({ Container: info.Id, EndpointConfig: { Aliases: aliases } });
      await options.log(
        ctx,
        `Connected database container ${nameOf(info)} to the network of environment ${environment.environmentHandle} as ${aliases.join(', ')}`,
      );
    }
    if (on[networks.shared] && !(await appsLeftOnSharedNetwork())) {
      await docker.getNetwork(networks.shared).disconnect({ Container: info.Id, Force: true });
      await options.log(
        ctx,
        `Took database container ${nameOf(info)} off the shared ${networks.shared} network`,
      );
    }
  }

  /** Creates and starts a database's container on its volume; the environment makes the account on a first start. */
  async function startContainer(
    ctx: RuntimeContext,
    target: DatabaseTarget,
    plan: DatabasePlan,
    engine: EngineDriver,
    image: string,
    env: string[],
    cmd: string[] | undefined,
    aliases: string[],
  ) {
    const name =
      `db-${target.environmentHandle}-${target.handle}-${target.id}-${randomBytes(4).toString('hex')}`
        .replace(/[^a-zA-Z0-9_.-]+/g, '-')
        .slice(0, 120);
    const container = await networks
      .startContainer(target, (network) => ({
        name,
        Image: image,
        Env: env,
        ...(cmd ? { Cmd: cmd } : {}),
        StopSignal: engine.stopSignal,
        Labels: {
          [LABELS.managed]: 'true',
          [LABELS.installation]: options.installation,
          [LABELS.stack]: target.stackName,
          [LABELS.environment]: target.environmentHandle,
          [LABELS.environmentId]: String(target.environmentId),
          [LABELS.database]: keyOf(target),
          [LABELS.layer]: 'database',
          [LABELS.port]: String(engine.port),
          [LABELS.data]: engine.dataPath,
        },
        HostConfig: {
          Memory: plan.containerSizeMb * MB,
          MemorySwap: plan.containerSizeMb * MB,
          CpuShares: Math.max(2, Math.round(plan.containerSizeMb)),
          RestartPolicy: { Name: 'unless-stopped', MaximumRetryCount: 0 },
          Init: true,
          Mounts: [{ Type: 'volume', Source: volumeOf(target), Target: engine.dataPath }],
          LogConfig: { Type: 'json-file', Config: { 'max-size': '10m', 'max-file': '3' } },
          NetworkMode: network,
        },
        NetworkingConfig: { EndpointsConfig: { [network]: { Aliases: aliases } } },
      }))
      .catch((error: Error) => {
        throw error instanceof RuntimeError ? error : new RuntimeError(error.message);
      });
    try {
      await options.log(ctx, `Container ${name} started`);
      return await waitReady(ctx, container.id, engine.port);
    } catch (error) {
      await container.remove({ force: true }).catch(() => undefined);
      throw error instanceof RuntimeError ? error : new RuntimeError((error as Error).message);
    }
  }

  async function stopAndRemove(ctx: RuntimeContext, containers: Docker.ContainerInfo[]) {
    for (const container of containers) {
      const handle = docker.getContainer(container.Id);
      if (container.State === 'running')
        await handle.stop({ t: options.stopTimeoutSeconds }).catch(() => undefined);
      await handle.remove({ force: true }).catch(() => undefined);
      await options.log(
        ctx,
        `Stopped container ${container.Names[0]?.replace(/^\//, '') ?? container.Id.slice(0, 12)}`,
      );
    }
  }

  /**
   * Runs a shell command in a container: standard input from a file, standard output into a file (with
   * backpressure: a dump is never held in memory), the tail of standard error kept to explain a failure.
   * Stopped when the operation is interrupted or the time runs out.
   */
  async function execIn(
    ctx: RuntimeContext,
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
   * image with the volume mounted copies its standard input there, readable by its owner only.
   */
  async function putInVolume(
    ctx: RuntimeContext,
    image: string,
    target: DatabaseTarget,
    engine: EngineDriver,
    name: string,
    content: Readable,
  ) {
    const helper = await docker.createContainer({
      Image: image,
      Entrypoint: ['sh', '-c', `umask 077 && cat > "${engine.dataPath}/${name}"`],
      Cmd: [],
      OpenStdin: true,
      StdinOnce: true,
      AttachStdin: true,
      Labels: { [LABELS.managed]: 'true', [LABELS.installation]: options.installation },
      HostConfig: { Mounts: [{ Type: 'volume', Source: volumeOf(target), Target: engine.dataPath }] },
    });
    try {
      const stream = await helper.attach({ stream: true, stdin: true, hijack: true });
      await helper.start();
      await pipeline(content, stream);
      const { StatusCode } = (await helper.wait()) as { StatusCode: number };
      if (StatusCode !== 0)
        await options.fail(ctx, `Copying ${name} into the volume failed (exit code ${StatusCode})`);
    } finally {
      await helper.remove({ force: true }).catch(() => undefined);
    }
  }

  async function running(ctx: RuntimeContext, target: DatabaseTarget): Promise<Docker.ContainerInfo> {
    const [container] = (await containersOf(target)).filter((found) => found.State === 'running');
    if (!container)
      return options.fail(ctx, `Database ${target.handle} has no running container on the engine`);
    return container;
  }

  const backupPath = (storageRef: string) => {
    if (!BACKUP_FILE.test(storageRef))
      throw new RuntimeError(`Backup ${storageRef.slice(0, 100)} is not one of this runtime's`);
    return path.join(options.backupDir, storageRef);
  };

  return {
    /**
     * Puts the environment's databases on its network, for an app's new containers there to reach them
     * by name: one made before environments had networks is on the shared one only until then.
     */
    async joinEnvironment(ctx: RuntimeContext, target: AppTarget) {
      if (target.environmentDatabaseIds.length === 0) return;
      const own = networks.ofEnvironment(target.environmentId);
      const ids = new Set(target.environmentDatabaseIds.map((id) => `/db-${id}`));
      const containers = await containersLabelled(docker, {
        [LABELS.installation]: options.installation,
        [LABELS.layer]: 'database',
      });
      for (const container of containers) {
        const key = container.Labels[LABELS.database] ?? '';
        if (!ids.has(key.slice(key.lastIndexOf('/'))) || container.NetworkSettings?.Networks?.[own]) continue;
        const info = await docker.getContainer(container.Id).inspect();
        const databaseId = Number(key.slice(key.lastIndexOf('/db-') + 4));
        await moveToEnvironment(ctx, target, info, aliasesOf(info, databaseId));
      }
    },

    async provisionDatabase(
      ctx: RuntimeContext,
      target: DatabaseTarget,
      plan: DatabasePlan,
      account: DatabaseAccount,
      seed: DatabaseSeed,
    ): Promise<ProvisionedDatabase> {
      const engine = await engineOrFail(ctx, target);
      if (seed.kind === 'point_in_time' || seed.kind === 'replica')
        return options.fail(
          ctx,
          seed.kind === 'replica'
            ? 'Replicas are not available on the docker runtime yet'
            : 'Point-in-time recovery is not available on the docker runtime: restore a backup instead',
        );
      const image = imageOf(target, engine);
      const source = seed.kind === 'backup' ? backupPath(seed.storageRef) : null;
      if (source && !fs.existsSync(source))
        return options.fail(
          ctx,
          `Backup ${seed.kind === 'backup' ? seed.storageRef : ''} has no file in ${options.backupDir}`,
        );
      await ensureImage(ctx, target, image);
      // An earlier attempt of this provision (a lost lease) may have left a container: it goes first,
      // so two engines never share the data directory.
      const leftovers = await containersOf(target);
      if (leftovers.length) {
        await options.log(ctx, `Removing ${leftovers.length} container(s) an earlier attempt left`, 'WARN');
        await stopAndRemove(ctx, leftovers);
      }
      const volume = volumeOf(target);
      const existed = await docker
        .getVolume(volume)
        .inspect()
        .then(
          () => true,
          () => false,
        );
      await docker.createVolume({
        Name: volume,
        Labels: {
          [LABELS.managed]: 'true',
          [LABELS.installation]: options.installation,
          [LABELS.database]: keyOf(target),
        },
      });
      await options.log(
        ctx,
        `Created volume ${volume} for ${target.handle} (the local volume driver does not cap its size at ${plan.diskSizeGb} GB)`,
      );
      await options.log(
        ctx,
        `Starting ${engine.name} ${target.version} (${image}) in ${plan.containerSizeMb} MB`,
      );
      const env = Object.entries(engine.environment(account)).map(([key, value]) => `${key}=${value}`);
      const restore = engine.restore;
      let info: Docker.ContainerInspectInfo;
      try {
        if (seed.kind === 'backup' && 'file' in restore) {
          // Loaded at start: the dump goes into the data directory first.
          await options.log(ctx, `Restoring data from backup ${seed.storageRef}`);
          await putInVolume(ctx, image, target, engine, restore.file, fs.createReadStream(source ?? ''));
        }
        for (const [name, text] of Object.entries(engine.accountFiles?.(account) ?? {}))
          await putInVolume(ctx, image, target, engine, name, Readable.from([text]));
        info = await startContainer(ctx, target, plan, engine, image, env, engine.command, [aliasOf(target)]);
        if (seed.kind === 'backup' && 'command' in restore) {
          await options.log(ctx, `Restoring data from backup ${seed.storageRef}`);
          const restored = await execIn(
            ctx,
            info.Id,
            restore.command,
            { input: source ?? '' },
            DUMP_TIMEOUT_MS,
          );
          if (restored.exitCode !== 0)
            await options.fail(
              ctx,
              `Restoring ${seed.storageRef} failed: ${restored.errors || `exit code ${restored.exitCode}`}`,
            );
        }
        if (seed.kind === 'backup') await options.log(ctx, `Restored backup ${seed.storageRef}`);
      } catch (error) {
        // Nothing of a database that never was is kept (a volume an earlier attempt made stays: it may hold data).
        await stopAndRemove(ctx, await containersOf(target));
        if (!existed)
          await docker
            .getVolume(volume)
            .remove()
            .catch(() => undefined);
        throw error;
      }
      await options.log(ctx, `Created user ${account.username} and database ${account.name}`);
      await options.log(
        ctx,
        `Database ${target.handle} is accepting connections at ${aliasOf(target)}:${engine.port} on the ${networks.ofEnvironment(target.environmentId)} network`,
      );
      return {
        containers: [specOf(info, plan, engine)],
        host: aliasOf(target),
        port: engine.port,
        disk: {
          device: engine.dataPath,
          host: machine,
          availabilityZone: 'local',
          volumeId: volume,
          instanceId: info.Id.slice(0, 12),
          keyBytes: 0,
        },
      };
    },

    async restartDatabase(
      ctx: RuntimeContext,
      target: DatabaseTarget,
      plan: DatabasePlan,
      restart: { recreate: boolean; diskGrowsTo: number | null },
    ): Promise<ContainerSpec[]> {
      const engine = await engineOrFail(ctx, target);
      const current = await containersOf(target);
      const [first] = current;
      if (!first) return options.fail(ctx, `Database ${target.handle} has no container on the engine`);
      if (restart.diskGrowsTo !== null)
        await options.log(
          ctx,
          `The local volume driver does not cap disks: ${target.handle} may use ${restart.diskGrowsTo} GB`,
        );
      const old = await docker.getContainer(first.Id).inspect();
      // The names apps reach it at (its connection URL's host) stay, whatever its handle is now.
      const made = aliasesOf(old, target.id);
      const aliases = made.length ? made : [aliasOf(target)];
      let env = old.Config.Env ?? [];
      let command = engine.command ? (old.Config.Cmd ?? undefined) : undefined;
      // Issue 34: a container with its account on its command line goes, at its next restart, for one
      // that reads the account from files in its volume.
      const legacy = engine.legacyAccount?.(
        Object.fromEntries(
          env.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
        ),
      );
      if (!restart.recreate && !legacy) {
        // A new size applies to the same container: nothing of it is lost if the restart fails.
        if (old.HostConfig.Memory !== plan.containerSizeMb * MB) {
          await options.log(ctx, `Resizing ${target.handle} to ${plan.containerSizeMb} MB`);
          await docker.getContainer(first.Id).update({
            Memory: plan.containerSizeMb * MB,
            MemorySwap: plan.containerSizeMb * MB,
            CpuShares: Math.max(2, Math.round(plan.containerSizeMb)),
          });
        }
        await moveToEnvironment(ctx, target, old, aliases);
        await options.log(ctx, `Restarting ${target.handle}`);
        await docker.getContainer(first.Id).restart({ t: options.stopTimeoutSeconds });
        const info = await waitReady(ctx, first.Id, engine.port);
        return [specOf(info, plan, engine)];
      }
      // New hardware: a new container on the same volume with the same environment. The old one is only
      // stopped until the new one accepts connections, and starts again if it does not.
      await options.log(ctx, `Recreating ${target.handle} in ${plan.containerSizeMb} MB`);
      for (const container of current)
        await docker
          .getContainer(container.Id)
          .stop({ t: options.stopTimeoutSeconds })
          .catch(() => undefined);
      let info: Docker.ContainerInspectInfo;
      try {
        if (legacy) {
          await options.log(ctx, `Moving ${target.handle}'s account off its command line, into its volume`);
          for (const [name, text] of Object.entries(engine.accountFiles?.(legacy) ?? {}))
            await putInVolume(ctx, old.Config.Image, target, engine, name, Readable.from([text]));
          env = Object.entries(engine.environment(legacy)).map(([key, value]) => `${key}=${value}`);
          command = engine.command;
        }
        info = await startContainer(ctx, target, plan, engine, old.Config.Image, env, command, aliases);
        // Apps made before environments had networks reach it on the shared one until they are moved.
        if (old.NetworkSettings.Networks?.[networks.shared] && (await appsLeftOnSharedNetwork()))
          await docker
            .getNetwork(networks.shared)
            .connect({ Container: info.Id, EndpointConfig: { Aliases: aliases } });
      } catch (error) {
        await options.log(ctx, `Starting ${target.handle}'s previous container again`, 'WARN');
        await docker.getContainer(first.Id).start();
        await waitReady(ctx, first.Id, engine.port);
        throw error;
      }
      await stopAndRemove(ctx, current);
      return [specOf(info, plan, engine)];
    },

    async reloadDatabase(ctx: RuntimeContext, target: DatabaseTarget) {
      const engine = await engineOrFail(ctx, target);
      const container = await running(ctx, target);
      if (engine.reload === null) {
        await options.log(
          ctx,
          `${engine.name} reads its configuration when it starts: restart ${target.handle} to apply it`,
          'WARN',
        );
        return;
      }
      await options.log(ctx, `Reloading the configuration of ${target.handle}`);
      const reloaded = await execIn(ctx, container.Id, engine.reload, {}, RELOAD_TIMEOUT_MS);
      if (reloaded.exitCode !== 0)
        await options.fail(
          ctx,
          `Reload of ${target.handle} failed: ${reloaded.errors || `exit code ${reloaded.exitCode}`}`,
        );
    },

    async backupDatabase(ctx: RuntimeContext, target: DatabaseTarget): Promise<DatabaseBackup> {
      const engine = await engineOrFail(ctx, target);
      const container = await running(ctx, target);
      fs.mkdirSync(options.backupDir, { recursive: true, mode: 0o700 });
      const stamp = new Date()
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'z')
        .toLowerCase();
      const storageRef = `db-${target.id}-${stamp}-${randomBytes(4).toString('hex')}.dump`;
      const file = backupPath(storageRef);
      const partial = `${file}.partial`;
      await options.log(ctx, `Dumping ${target.handle} with ${engine.name}'s own tool`);
      let dumped: { exitCode: number; errors: string };
      try {
        dumped = await execIn(ctx, container.Id, engine.dump, { output: partial }, DUMP_TIMEOUT_MS);
      } catch (error) {
        fs.rmSync(partial, { force: true });
        return options.fail(ctx, `Backup of ${target.handle} failed: ${(error as Error).message}`);
      }
      if (dumped.exitCode !== 0) {
        fs.rmSync(partial, { force: true });
        return options.fail(
          ctx,
          `Backup of ${target.handle} failed: ${dumped.errors || `exit code ${dumped.exitCode}`}`,
        );
      }
      // Only a whole dump gets the backup's name.
      fs.renameSync(partial, file);
      const bytes = fs.statSync(file).size;
      const sizeGb = Math.ceil(bytes / 1e7) / 100;
      await options.log(ctx, `Backup ${storageRef} completed (${bytes} bytes)`);
      return { storageRef, sizeGb };
    },

    async deleteBackup(ctx: RuntimeContext, storageRef: string) {
      if (!BACKUP_FILE.test(storageRef)) {
        // Not a file of this runtime (a backup taken while the stack ran on another): nothing to delete here.
        await options.log(ctx, `Backup ${storageRef.slice(0, 100)} has no file on the docker runtime`);
        return;
      }
      fs.rmSync(backupPath(storageRef), { force: true });
      await options.log(ctx, `Deleted backup ${storageRef}`);
    },

    async deprovisionDatabase(ctx: RuntimeContext, target: DatabaseTarget) {
      await options.log(ctx, `Stopping ${target.handle}`);
      await stopAndRemove(ctx, await containersOf(target));
      const volume = volumeOf(target);
      try {
        await docker.getVolume(volume).remove();
        await options.log(ctx, `Deleted volume ${volume}`);
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode !== 404)
          return options.fail(ctx, `Unable to delete volume ${volume}: ${(error as Error).message}`);
      }
      await options.log(ctx, `Deleted the container and disk of ${target.handle}`);
    },
  };
}
