import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseImage,
  pageText,
  REDIS_IMAGE,
  redisImage,
  suiteEngine,
  webImage,
} from '../../testing/docker-images.ts';
import type { AppTarget, DatabaseTarget, Runtime, RuntimeContext, ServicePlan } from '../runtime.ts';
import { createDockerRuntime } from './docker-runtime.ts';
import { createDockerStatsRecorder, type DockerStatsRecorder } from './docker-stats.ts';
import { appKey, containersLabelled, LABELS, logLines, serviceKey } from './engine.ts';

// Issue 35: each environment has a Docker network of its own. Its apps and databases are on it, where
// they reach each other (a database by its name) and no other environment's; the host (the edge)
// reaches them all. What was made on the network every container shared before moves at its next
// restart. Skipped locally without an engine.

const docker = await suiteEngine();

const run = randomBytes(3).toString('hex');
const stackName = `envnet-${run}`;
const network = `berth-envnet-${run}`;
const installation = `envnet${run}`;
const backupDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-envnet-'));

function context(): RuntimeContext & { lines: string[] } {
  const lines: string[] = [];
  return { lines, signal: new AbortController().signal, log: async (line) => void lines.push(line) };
}

const web = (containerCount: number): ServicePlan => ({
  handle: 'web',
  processType: 'web',
  command: null,
  containerCount,
  memoryLimitMb: 64,
  instanceClass: 'm5',
  recordedContainers: [],
  endpointIds: [],
});

const environment = (id: number, databaseIds: number[] = []) => ({
  environmentId: id,
  environmentHandle: `env-${id}`,
  stackName,
  environmentDatabaseIds: databaseIds,
});

const redis = (id: number, environmentId: number): DatabaseTarget => ({
  id,
  handle: 'cache',
  type: 'redis',
  version: '7.2',
  dockerRepo: '',
  environmentId,
  environmentHandle: `env-${environmentId}`,
  stackName,
  region: 'local',
  internalDomain: 'berth.internal',
});
const databasePlan = { containerSizeMb: 256, instanceClass: 'm5', diskSizeGb: 1, provisionedIops: 0 };
const account = { username: 'berth', password: randomBytes(12).toString('hex'), name: '' };

describe.skipIf(!docker)('a network per environment on the docker runtime', () => {
  const engine = docker as Docker;
  let runtime: Runtime;
  let stats: DockerStatsRecorder;
  let image: { dockerRepo: string; dockerRef: string };

  const runtimeOn = (client: Docker) =>
    createDockerRuntime({
      docker: client,
      gitDir: '/nonexistent',
      publicUrl: 'http://berth.test',
      network,
      healthTimeoutMs: 8000,
      stopTimeoutSeconds: 1,
      stats,
      installation,
      backupDir,
      databaseImages: { redis: REDIS_IMAGE },
    });

  beforeAll(async () => {
    await baseImage(engine);
    await redisImage(engine);
    await webImage(engine, 'berth-test/web:1', 'version-one');
    image = {
      dockerRepo: 'berth-test/web',
      dockerRef: (await engine.getImage('berth-test/web:1').inspect()).Id,
    };
    stats = createDockerStatsRecorder(engine, { intervalMs: 60_000, installation });
    runtime = runtimeOn(engine);
  }, 180_000);

  afterAll(async () => {
    stats?.close();
    for (const container of await containersLabelled(engine, { [LABELS.stack]: stackName }))
      await engine.getContainer(container.Id).remove({ force: true });
    const { Volumes } = await engine.listVolumes({
      filters: { label: [`${LABELS.installation}=${installation}`] },
    });
    for (const volume of Volumes ?? []) await engine.getVolume(volume.Name).remove();
    for (const made of await engine.listNetworks({ filters: { name: [network] } }))
      if (made.Name === network || made.Name.startsWith(`${network}-`))
        await engine.getNetwork(made.Id).remove();
    fs.rmSync(backupDir, { recursive: true, force: true });
  });

  /** The networks a container is on, by name, with its address and names there. */
  async function networksOf(name: string) {
    return (await engine.getContainer(name).inspect()).NetworkSettings.Networks;
  }

  /** Which of the addresses (`host:port`) a container opens a TCP connection to, tried from inside it. */
  async function reachedFrom(container: string, addresses: string[]): Promise<string[]> {
    const script = addresses
      .map((address) => {
        const [host, port] = address.split(':');
        return `(busybox nc -w 2 ${host} ${port} -e /bin/busybox true && echo "reached ${address}") &`;
      })
      .concat('wait')
      .join('\n');
    const exec = await engine
      .getContainer(container)
      .exec({ Cmd: ['/bin/busybox', 'sh', '-c', script], AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({ hijack: true, stdin: false });
    const chunks: Buffer[] = [];
    await new Promise((resolve) =>
      stream.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', resolve),
    );
    return logLines(Buffer.concat(chunks))
      .map((entry) => entry.line)
      .filter((line) => line.startsWith('reached '))
      .map((line) => line.slice('reached '.length))
      .sort();
  }

  it("keeps environments apart: another environment's container reaches neither an app's nor a database's port, its own reaches both, the database by name", async () => {
    const ctx = context();
    const database = await runtime.provisionDatabase(ctx, redis(9001, 101), databasePlan, account, {
      kind: 'empty',
    });
    const alpha: AppTarget = { ...environment(101, [9001]), appId: 1, appHandle: 'shop' };
    const beta: AppTarget = { ...environment(102), appId: 2, appHandle: 'shop' };
    const [shop] = await runtime.rollOut(ctx, alpha, web(1), image, {});
    const [other] = await runtime.rollOut(ctx, beta, web(1), image, {});

    // Each on its environment's network alone, named after this Berth and the environment's id.
    const alphaNetwork = `${network}-${installation.slice(0, 8)}-env-101`;
    const betaNetwork = `${network}-${installation.slice(0, 8)}-env-102`;
    const [databaseContainer] = database.containers;
    expect(Object.keys(await networksOf(databaseContainer?.dockerName ?? ''))).toEqual([alphaNetwork]);
    expect(Object.keys(await networksOf(shop?.dockerName ?? ''))).toEqual([alphaNetwork]);
    expect(Object.keys(await networksOf(other?.dockerName ?? ''))).toEqual([betaNetwork]);
    const [made] = await engine.listNetworks({ filters: { name: [alphaNetwork] } });
    expect(made?.Labels).toMatchObject({
      [LABELS.managed]: 'true',
      [LABELS.installation]: installation,
      [LABELS.environment]: 'env-101',
      [LABELS.environmentId]: '101',
    });
    // The host (where the edge runs) reaches the containers at the addresses recorded for them.
    expect(await pageText(shop?.host ?? '', shop?.port ?? 0)).toBe('version-one');
    expect(await pageText(other?.host ?? '', other?.port ?? 0)).toBe('version-one');

    const targets = [
      `${shop?.host}:${shop?.port}`,
      `${databaseContainer?.host}:6379`,
      `${database.host}:${database.port}`,
    ];
    expect(await reachedFrom(shop?.dockerName ?? '', targets)).toEqual([...targets].sort());
    expect(await reachedFrom(other?.dockerName ?? '', targets)).toEqual([]);
  });

  it('moves what was made on the shared network at its next restart, and an app deployed meanwhile reaches the database by name', async () => {
    const ctx = context();
    const gamma = environment(103, [9002]);
    // As Berth made them before environments had networks: a database and a service of two
    // containers on the one network every container shared, without the environment's id.
    const provisioned = await runtime.provisionDatabase(ctx, redis(9002, 103), databasePlan, account, {
      kind: 'empty',
    });
    const made = await engine.getContainer(provisioned.containers[0]?.dockerName ?? '').inspect();
    if (!(await engine.listNetworks({ filters: { name: [network] } })).some(({ Name }) => Name === network))
      await engine.createNetwork({ Name: network, Driver: 'bridge', Labels: { [LABELS.managed]: 'true' } });
    const { [LABELS.environmentId]: _id, ...oldLabels } = made.Config.Labels;
    const oldDatabase = await engine.createContainer({
      name: `${made.Name.replace(/^\//, '')}-old`,
      Image: made.Config.Image,
      Env: made.Config.Env,
      Cmd: made.Config.Cmd,
      StopSignal: (made.Config as { StopSignal?: string }).StopSignal,
      Labels: oldLabels,
      HostConfig: { ...made.HostConfig, NetworkMode: network },
      NetworkingConfig: { EndpointsConfig: { [network]: { Aliases: [provisioned.host] } } },
    });
    await engine.getContainer(made.Id).remove({ force: true });
    await oldDatabase.start();
    const legacy: AppTarget = { ...gamma, appId: 3, appHandle: 'legacy' };
    const oldApp: string[] = [];
    for (const index of [1, 2]) {
      const container = await engine.createContainer({
        name: `env-103-legacy-web-${index}-${run}`,
        Image: image.dockerRef,
        Env: ['PORT=5000'],
        Labels: {
          [LABELS.managed]: 'true',
          [LABELS.installation]: installation,
          [LABELS.stack]: stackName,
          [LABELS.environment]: 'env-103',
          [LABELS.app]: appKey(legacy),
          [LABELS.service]: serviceKey(legacy, 'web'),
          [LABELS.release]: image.dockerRef,
          [LABELS.layer]: 'app',
          [LABELS.port]: '5000',
        },
        HostConfig: { NetworkMode: network, Init: true },
      });
      await container.start();
      oldApp.push(container.id);
    }
    const gammaNetwork = `${network}-${installation.slice(0, 8)}-env-103`;

    // A new app of the environment goes on its network, and reaches the database there by its name:
    // the deploy puts the database on it, on the shared one too while the old apps are there.
    const [api] = await runtime.rollOut(ctx, { ...gamma, appId: 4, appHandle: 'api' }, web(1), image, {});
    expect(Object.keys(await networksOf(api?.dockerName ?? ''))).toEqual([gammaNetwork]);
    expect(await reachedFrom(api?.dockerName ?? '', [`${provisioned.host}:6379`])).toEqual([
      `${provisioned.host}:6379`,
    ]);
    expect(Object.keys(await networksOf(oldDatabase.id)).sort()).toEqual([network, gammaNetwork].sort());

    // The old service's restart moves its containers (one at a time, each keeps its place) onto the
    // environment's network and off the shared one.
    const restarted = await runtime.restart(ctx, legacy, web(2), false, { image, env: {} });
    expect(restarted.map((spec) => spec.dockerName).sort()).toEqual(
      oldApp.map((_, index) => `env-103-legacy-web-${index + 1}-${run}`),
    );
    for (const spec of restarted) {
      expect(Object.keys(await networksOf(spec.dockerName))).toEqual([gammaNetwork]);
      expect(await pageText(spec.host, spec.port)).toBe('version-one');
    }
    expect(ctx.lines).toContain(
      `Moved container env-103-legacy-web-1-${run} onto the network of environment env-103`,
    );

    // With no app left on the shared network, the database's restart takes it off there; its name stays.
    await runtime.restartDatabase(ctx, redis(9002, 103), databasePlan, {
      recreate: false,
      diskGrowsTo: null,
    });
    const moved = await networksOf(oldDatabase.id);
    expect(Object.keys(moved)).toEqual([gammaNetwork]);
    expect(moved[gammaNetwork]?.Aliases).toContain(provisioned.host);
    expect(await reachedFrom(api?.dockerName ?? '', [`${provisioned.host}:6379`])).toEqual([
      `${provisioned.host}:6379`,
    ]);
  });

  it("removes an environment's network once it is deleted, and makes it again for a container started meanwhile", async () => {
    const ctx = context();
    const delta: AppTarget = { ...environment(104), appId: 5, appHandle: 'shop' };
    const deltaNetwork = `${network}-${installation.slice(0, 8)}-env-104`;
    await runtime.rollOut(ctx, delta, web(1), image, {});
    await runtime.removeApp(ctx, delta, { containers: [], images: [] });
    // Its containers are gone; its network stays until the environment goes.
    expect(
      (await engine.listNetworks({ filters: { name: [deltaNetwork] } })).map(({ Name }) => Name),
    ).toEqual([deltaNetwork]);
    await runtime.removeEnvironment?.({ id: 104, handle: 'env-104', stackName });
    expect(await engine.listNetworks({ filters: { name: [deltaNetwork] } })).toEqual([]);
    // Nothing to remove is no error.
    await runtime.removeEnvironment?.({ id: 104, handle: 'env-104', stackName });

    // The network goes between the check that it is there and the container's start (an environment
    // deleted at that moment): the container is made again on a new one.
    const racing = new Docker();
    const create = racing.createContainer.bind(racing);
    let removed = false;
    racing.createContainer = (async (options: Docker.ContainerCreateOptions) => {
      const container = await create(options);
      if (!removed) {
        removed = true;
        await engine.getNetwork(deltaNetwork).remove();
      }
      return container;
    }) as typeof racing.createContainer;
    const [started] = await runtimeOn(racing).rollOut(ctx, delta, web(1), image, {});
    expect(removed).toBe(true);
    expect(Object.keys(await networksOf(started?.dockerName ?? ''))).toEqual([deltaNetwork]);
    expect(await pageText(started?.host ?? '', started?.port ?? 0)).toBe('version-one');
    expect(await containersLabelled(engine, { [LABELS.app]: appKey(delta) })).toHaveLength(1);
    await runtime.removeApp(ctx, delta, { containers: [], images: [] });
  });
});
