import { randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_IMAGE, postgresImage } from '../../testing/docker-images.ts';
import {
  engineAt,
  localSwarmCluster,
  type SwarmCluster,
  swarmSuiteRuns,
} from '../../testing/swarm-cluster.ts';
import { logLines } from '../docker/engine.ts';
import { type DatabaseAccount, type DatabaseTarget, type RuntimeContext, RuntimeError } from '../runtime.ts';
import { createSwarmDatabases, NODE_LABEL } from './swarm-databases.ts';
import { environmentNetwork, environmentNetworkName, removeEnvironmentNetwork } from './swarm-networks.ts';

// Databases on a real 3-node Swarm (npm run swarm:local): PostgreSQL (its image made on the manager
// from this machine's Debian package, pushed to the cluster's registry) runs pinned to one worker with
// its volume there; a backup is dumped in its container through that node's Engine API; a restore
// brings the data up on another node, also while the first is down; a database whose node is down
// fails its backup saying so; deprovision leaves no service, volume or secret on any node.

const runs = swarmSuiteRuns();
const installation = randomBytes(8).toString('hex');
const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-swarm-db-'));
const backupDir = path.join(dataDir, 'backups');
const environmentId = randomInt(100_000, 999_999);
const plan = { containerSizeMb: 256, instanceClass: 'm5', diskSizeGb: 1, provisionedIops: 0 };

describe.skipIf(!runs)('databases on the swarm runtime', () => {
  let cluster: SwarmCluster;
  let manager: Docker;
  const lines: string[] = [];
  const ctx: RuntimeContext = {
    log: async (line) => void lines.push(line),
    signal: new AbortController().signal,
  };
  let databases: ReturnType<typeof createSwarmDatabases>;
  /** The same runtime on a cluster with no registry: images are copied to their node from the manager. */
  let withoutRegistry: ReturnType<typeof createSwarmDatabases>;

  const target = (id: number, handle: string): DatabaseTarget => ({
    id,
    handle,
    type: 'postgresql',
    version: '15',
    dockerRepo: 'postgres',
    environmentId,
    environmentHandle: `swarm-db-${installation.slice(0, 6)}`,
    stackName: 'shared',
    region: 'local',
    internalDomain: 'internal',
  });
  const orders = target(randomInt(1, 1_000_000), 'orders');
  const copy = target(orders.id + 1, 'orders-copy');
  const rescued = target(orders.id + 2, 'orders-rescued');
  const account: DatabaseAccount = {
    username: 'shipper',
    password: `pw-${randomBytes(12).toString('hex')}`,
    name: 'orders',
  };

  beforeAll(async () => {
    cluster = await localSwarmCluster();
    manager = engineAt(cluster.managerHost);
    await postgresImage(manager);
    const make = (registry: string | null) =>
      createSwarmDatabases({
        manager,
        installation,
        backupDir,
        images: { postgresql: POSTGRES_IMAGE },
        registry,
        readyTimeoutMs: 90_000,
        stopTimeoutSeconds: 10,
        log: async (_ctx, text) => void lines.push(text),
        fail: async (_ctx, message) => {
          lines.push(message);
          throw new RuntimeError(message);
        },
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      });
    databases = make(cluster.registry);
    withoutRegistry = make(null);
  }, 300_000);

  afterAll(async () => {
    if (!runs || !manager) return;
    // Whatever a failed test left: this run's services, then its volumes on every node, and its network.
    const services = await manager.listServices({
      filters: { label: [`io.berth.installation=${installation}`] },
    });
    for (const service of services)
      await manager
        .getService(service.ID)
        .remove()
        .catch(() => undefined);
    for (const node of cluster.nodes) {
      const engine = engineAt(node.engineHost);
      for (const container of await engine
        .listContainers({ all: true, filters: { label: [`io.berth.installation=${installation}`] } })
        .catch(() => []))
        await engine
          .getContainer(container.Id)
          .remove({ force: true })
          .catch(() => undefined);
      const volumes = await engine
        .listVolumes({ filters: { label: [`io.berth.installation=${installation}`] } })
        .catch(() => ({ Volumes: [] }));
      for (const volume of volumes.Volumes ?? [])
        await engine
          .getVolume(volume.Name)
          .remove()
          .catch(() => undefined);
    }
    await removeEnvironmentNetwork(manager, installation, environmentId).catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  /** The node a database's service is pinned to, as the cluster's test handle knows it. */
  async function nodeOf(database: DatabaseTarget) {
    const [service] = await manager.listServices({
      filters: { label: [`io.berth.database=shared/${database.environmentHandle}/db-${database.id}`] },
    });
    const nodeId = service?.Spec?.Labels?.[NODE_LABEL] ?? '';
    const hostname = ((await manager.getNode(nodeId).inspect()) as { Description: { Hostname: string } })
      .Description.Hostname;
    const node = cluster.nodes.find((candidate) => candidate.hostname === hostname);
    if (!node || !service) throw new Error(`no node for ${database.handle}`);
    const engine = engineAt(node.engineHost);
    const [container] = await engine.listContainers({
      filters: { label: [`com.docker.swarm.service.id=${service.ID}`], status: ['running'] },
    });
    return { node, engine, service, container: container?.Id.slice(0, 12) };
  }

  /** Runs SQL with psql in the database's container on its node; its output lines. */
  async function sql(database: DatabaseTarget, query: string): Promise<string[]> {
    const { engine, service } = await nodeOf(database);
    const [container] = await engine.listContainers({
      filters: { label: [`com.docker.swarm.service.id=${service.ID}`], status: ['running'] },
    });
    const exec = await engine.getContainer(container?.Id ?? 'none').exec({
      Cmd: [
        'sh',
        '-c',
        `PGPASSWORD="$POSTGRES_PASSWORD" psql -v ON_ERROR_STOP=1 -qAt -h 127.0.0.1 -U "$POSTGRES_USER" -d "$POSTGRES_DB" -c "${query}"`,
      ],
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    const chunks: Buffer[] = [];
    await new Promise((resolve) =>
      stream.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', resolve),
    );
    const output = logLines(Buffer.concat(chunks)).map((entry) => entry.line);
    expect((await exec.inspect()).ExitCode, output.join('\n')).toBe(0);
    return output;
  }

  it('provisions PostgreSQL pinned to a worker, its volume there only, reached by name on the network', async () => {
    const provisioned = await databases.provisionDatabase(ctx, orders, plan, account, { kind: 'empty' });
    expect(provisioned.host).toBe(`orders-${orders.id}-${installation.slice(0, 8)}`);
    expect(provisioned.port).toBe(5432);
    const { node, service } = await nodeOf(orders);
    // Workers first: node 1 is the manager.
    expect(node.index).not.toBe(1);
    expect(provisioned.disk.host).toBe(node.hostname);
    const spec = service.Spec?.TaskTemplate as {
      Placement: { Constraints: string[] };
      ContainerSpec: { Image: string };
      Resources: { Limits: { MemoryBytes: number }; Reservations: { MemoryBytes: number } };
    };
    expect(spec.Placement.Constraints).toEqual([`node.id==${service.Spec?.Labels?.[NODE_LABEL]}`]);
    // Every node pulls the same bits from the registry.
    expect(spec.ContainerSpec.Image).toMatch(
      new RegExp(
        `^${cluster.registry.replaceAll('.', '\\.')}/berth-databases/berth-test/postgresql:15@sha256:[0-9a-f]{64}$`,
      ),
    );
    expect(spec.Resources.Limits.MemoryBytes).toBe(256 * 1024 * 1024);
    expect(spec.Resources.Reservations.MemoryBytes).toBe(256 * 1024 * 1024);
    for (const other of cluster.nodes) {
      const { Volumes } = await engineAt(other.engineHost).listVolumes({
        filters: { label: [`io.berth.installation=${installation}`] },
      });
      expect((Volumes ?? []).map((volume) => volume.Name)).toEqual(
        other.index === node.index ? [provisioned.disk.volumeId] : [],
      );
    }
    // An app's container elsewhere (here on the manager) reaches it by its name on the environment's network.
    const probe = await manager.createContainer({
      Image: POSTGRES_IMAGE,
      Entrypoint: ['sh', '-c', `pg_isready -h ${provisioned.host} -p 5432`],
      Cmd: [],
      Labels: { 'io.berth.installation': installation },
      HostConfig: { NetworkMode: environmentNetworkName(installation, environmentId) },
    });
    try {
      await probe.start();
      const { StatusCode } = (await probe.wait()) as { StatusCode: number };
      const output = logLines((await probe.logs({ stdout: true, stderr: true })) as unknown as Buffer);
      expect(StatusCode, output.map((entry) => entry.line).join('\n')).toBe(0);
    } finally {
      await probe.remove({ force: true });
    }
    await sql(
      orders,
      "CREATE TABLE shipments (item text); INSERT INTO shipments VALUES ('anchor'), ('rope')",
    );
    expect(await sql(orders, 'SELECT item FROM shipments ORDER BY item')).toEqual(['anchor', 'rope']);
  });

  it('backs up on its node through its Engine API, and restores onto another node with the data', async () => {
    const backup = await databases.backupDatabase(ctx, orders);
    const file = path.join(backupDir, backup.storageRef);
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('PGDMP');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // Without a registry: the image goes to the other node from the manager, through their Engine APIs.
    await withoutRegistry.provisionDatabase(ctx, copy, plan, account, {
      kind: 'backup',
      storageRef: backup.storageRef,
    });
    const first = await nodeOf(orders);
    const second = await nodeOf(copy);
    expect(second.node.index).not.toBe(first.node.index);
    // Named by its id there, which Swarm never tries to pull from a registry.
    expect(
      (second.service.Spec?.TaskTemplate as { ContainerSpec?: { Image: string } } | undefined)?.ContainerSpec
        ?.Image,
    ).toBe((await second.engine.getImage(POSTGRES_IMAGE).inspect()).Id);
    expect(await sql(copy, 'SELECT item FROM shipments ORDER BY item')).toEqual(['anchor', 'rope']);
    // Restarting with a new size keeps it on its node, with its data.
    const [restarted] = await withoutRegistry.restartDatabase(
      ctx,
      copy,
      { ...plan, containerSizeMb: 300 },
      {
        recreate: false,
        diskGrowsTo: null,
      },
    );
    expect(restarted?.memoryLimit).toBe(300);
    const after = await nodeOf(copy);
    expect(after.node.index).toBe(second.node.index);
    // A new task with the new size: its container on the node has the new limit.
    expect(restarted?.awsInstanceId).not.toBe(second.container);
    const [running] = await after.engine.listContainers({
      filters: { label: [`com.docker.swarm.service.id=${after.service.ID}`], status: ['running'] },
    });
    expect((await after.engine.getContainer(running?.Id ?? '').inspect()).HostConfig.Memory).toBe(
      300 * 1024 * 1024,
    );
    expect(await sql(copy, 'SELECT count(*) FROM shipments')).toEqual(['2']);
  });

  it('fails a backup of a database whose node is down, saying why; a restore brings it back elsewhere', async () => {
    const { node } = await nodeOf(orders);
    const [backup] = fs.readdirSync(backupDir);
    await cluster.stop(node.index);
    try {
      await expect(databases.backupDatabase(ctx, orders)).rejects.toThrow(
        new RegExp(
          `^Node ${node.hostname} is down \\(.+\\): the data of orders is on it; restore a backup to bring it back on another node$`,
        ),
      );
      expect(await databases.databaseNodeProblem(orders)).toMatch(
        new RegExp(`^Node ${node.hostname} is down`),
      );
      await databases.provisionDatabase(ctx, rescued, plan, account, {
        kind: 'backup',
        storageRef: backup ?? '',
      });
      expect((await nodeOf(rescued)).node.index).not.toBe(node.index);
      expect(await sql(rescued, 'SELECT item FROM shipments ORDER BY item')).toEqual(['anchor', 'rope']);
    } finally {
      await cluster.start(node.index);
    }
    expect(await databases.databaseNodeProblem(orders)).toBeNull();
  });

  it('deprovisions: no service, container, volume or secret of it is left on any node', async () => {
    for (const database of [orders, copy, rescued]) await databases.deprovisionDatabase(ctx, database);
    expect(
      await manager.listServices({ filters: { label: [`io.berth.installation=${installation}`] } }),
    ).toEqual([]);
    expect(
      await manager.listSecrets({ filters: { label: [`io.berth.installation=${installation}`] } }),
    ).toEqual([]);
    for (const node of cluster.nodes) {
      const engine = engineAt(node.engineHost);
      const { Volumes } = await engine.listVolumes({
        filters: { label: [`io.berth.installation=${installation}`] },
      });
      expect(Volumes ?? [], node.hostname).toEqual([]);
      expect(
        await engine.listContainers({
          all: true,
          filters: { label: [`io.berth.installation=${installation}`] },
        }),
        node.hostname,
      ).toEqual([]);
    }
    for (const name of fs.readdirSync(backupDir)) await databases.deleteBackup(ctx, name);
    expect(fs.readdirSync(backupDir)).toEqual([]);
  });

  it("makes an environment's overlay network once under concurrent calls, and removes it", async () => {
    const other = randomInt(1_000_000, 9_999_999);
    const names = await Promise.all(
      [1, 2, 3].map(() =>
        environmentNetwork(manager, installation, {
          environmentId: other,
          environmentHandle: 'twin',
          stackName: 'shared',
        }),
      ),
    );
    expect(new Set(names)).toEqual(new Set([environmentNetworkName(installation, other)]));
    const found = (await manager.listNetworks({ filters: { name: [names[0] ?? ''] } })).filter(
      (network) => network.Name === names[0],
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ Attachable: true, Scope: 'swarm' });
    // The manager lists a new network's driver only once it has allocated it.
    const deadline = Date.now() + 10_000;
    let driver = '';
    while (driver !== 'overlay' && Date.now() < deadline) {
      driver = (await manager.getNetwork(found[0]?.Id ?? '').inspect()).Driver;
      if (driver !== 'overlay') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(driver).toBe('overlay');
    expect(found[0]?.Labels).toMatchObject({
      'io.berth.installation': installation,
      'io.berth.environment-id': String(other),
      'io.berth.environment': 'twin',
    });
    await removeEnvironmentNetwork(manager, installation, other);
    await removeEnvironmentNetwork(manager, installation, environmentId);
    expect(
      await manager.listNetworks({ filters: { label: [`io.berth.installation=${installation}`] } }),
    ).toEqual([]);
  });
});
