import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { hostname } from 'node:os';
import { Readable } from 'node:stream';
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
import {
  backupFiles,
  DUMP_TIMEOUT_MS,
  databaseImage,
  type EngineDriver,
  engineFor,
  execInContainer,
  missingImageAdvice,
  putInVolume as putInVolumeOf,
  RELOAD_TIMEOUT_MS,
} from './database-engines.ts';
import { containersLabelled, type DockerNetworks, LABELS, lastLogLines, tcpAnswers } from './engine.ts';

export { DOCKER_DATABASE_ENGINES, officialDatabaseImage, runsOnDocker } from './database-engines.ts';

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

  async function engineOrFail(ctx: RuntimeContext, target: DatabaseTarget): Promise<EngineDriver> {
    const engine = engineFor(target, 'docker');
    return 'problem' in engine ? options.fail(ctx, engine.problem) : engine;
  }

  const imageOf = (target: DatabaseTarget, engine: EngineDriver) =>
    databaseImage(options.images, target, engine);

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

  const execIn = (
    ctx: RuntimeContext,
    id: string,
    command: string,
    files: { input?: string; output?: string },
    timeoutMs: number,
  ) => execInContainer(docker, ctx, id, command, files, timeoutMs);

  async function putInVolume(
    ctx: RuntimeContext,
    image: string,
    target: DatabaseTarget,
    engine: EngineDriver,
    name: string,
    content: Readable,
  ) {
    const status = await putInVolumeOf(
      docker,
      options.installation,
      image,
      volumeOf(target),
      engine,
      name,
      content,
    );
    if (status !== 0) await options.fail(ctx, `Copying ${name} into the volume failed (exit code ${status})`);
  }

  async function running(ctx: RuntimeContext, target: DatabaseTarget): Promise<Docker.ContainerInfo> {
    const [container] = (await containersOf(target)).filter((found) => found.State === 'running');
    if (!container)
      return options.fail(ctx, `Database ${target.handle} has no running container on the engine`);
    return container;
  }

  const backups = backupFiles(options.backupDir, options.log, options.fail, 'docker');

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
      const source = seed.kind === 'backup' ? await backups.sourceOf(ctx, seed.storageRef) : null;
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
      return backups.dump(ctx, docker, container.Id, target, engine);
    },

    async deleteBackup(ctx: RuntimeContext, storageRef: string) {
      await backups.remove(ctx, storageRef);
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
