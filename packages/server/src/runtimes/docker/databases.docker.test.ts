import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { and, eq, isNull } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers, databaseImages, databases, releases, services } from '../../db/schema.ts';
import {
  dockerTestConfig,
  MYSQL_IMAGE,
  mysqlImage,
  POSTGRES_IMAGE,
  postgresImage,
  REDIS_IMAGE,
  redisImage,
  removeDockerTestResources,
  suiteEngine,
} from '../../testing/docker-images.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';
import { containersLabelled, LABELS, logLines } from './engine.ts';

// Databases on the docker runtime through the API: PostgreSQL runs from its image on a volume with the
// generated account, the connection URL works, a backup is the engine's own dump kept as a file, and a
// restore is a new database holding the same rows. Skipped locally without an engine.

const docker = await suiteEngine();

const run = randomBytes(3).toString('hex');
const network = `berth-db-${run}`;
const environmentHandle = `db-${run}`;
const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-db-'));
const backupDir = path.join(dataDir, 'backups');

describe.skipIf(!docker)('databases on the docker runtime', () => {
  const engine = docker as Docker;
  let t: TestApp;
  let owner: TestUser;
  let environmentId: string;
  let imageId: number;
  const images = new Map<string, number>();

  beforeAll(async () => {
    await postgresImage(engine);
    await mysqlImage(engine);
    await redisImage(engine);
    t = await testApp(
      await dockerTestConfig(dataDir, network, {
        // Sampled every second, so the charts have figures within the test.
        statsIntervalSeconds: 1,
        databaseImages: { postgresql: POSTGRES_IMAGE, mysql: MYSQL_IMAGE, redis: REDIS_IMAGE },
      }),
    );
    owner = await t.signUp();
    const org = await t.createOrganization(owner);
    environmentId = (await t.createEnvironment(owner, org.id, environmentHandle)).id;
    const [image] = await t.db
      .select()
      .from(databaseImages)
      .where(and(eq(databaseImages.type, 'postgresql'), eq(databaseImages.version, '15')));
    imageId = image?.id ?? 0;
    for (const row of await t.db.select().from(databaseImages))
      images.set(`${row.type}:${row.version}`, row.id);
  }, 300_000);

  afterAll(async () => {
    await t?.close();
    await removeDockerTestResources(engine, { environmentHandle, network, dataDir });
    // The databases' volumes, once no container holds them.
    const { Volumes } = await engine.listVolumes({ filters: { label: [`${LABELS.managed}=true`] } });
    for (const volume of Volumes ?? [])
      if (volume.Labels?.[LABELS.database]?.includes(`/${environmentHandle}/`))
        await engine.getVolume(volume.Name).remove({ force: true } as never);
  });

  const operate = (url: string, body: Record<string, unknown>) => t.operate(owner, url, body);

  /** The environment's own network, where its apps reach its databases. */
  async function environmentNetwork(): Promise<string> {
    const [made] = await engine.listNetworks({
      filters: { label: [`${LABELS.environmentId}=${environmentId}`], name: [network] },
    });
    return made?.Name ?? 'none';
  }

  const logOf = (operationId: number | string) => t.operationLog(owner, operationId);

  /** A client for a database: its connection URL's account, at its container's address on the network. */
  async function connect(databaseId: string) {
    const credentials = await t.call('GET', `/api/databases/${databaseId}/database_credentials`, {
      token: owner.token,
    });
    const url = new URL(credentials.json()._embedded.database_credentials[0].connection_url);
    const [database] = await t.db
      .select()
      .from(databases)
      .where(eq(databases.id, Number(databaseId)));
    const [service] = await t.db
      .select()
      .from(services)
      .where(eq(services.databaseId, database?.id ?? 0));
    const [row] = await t.db
      .select()
      .from(containers)
      .innerJoin(releases, eq(containers.releaseId, releases.id))
      .where(and(eq(releases.serviceId, service?.id ?? 0), isNull(containers.deletedAt)));
    const container = row?.containers;
    const client = new pg.Client({
      host: container?.host,
      port: Number(url.port),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: url.pathname.slice(1),
    });
    await client.connect();
    return { client, url, containerId: container?.id ?? 0 };
  }

  let orders: string;

  it('provisions PostgreSQL on a volume with the generated account, reachable by its connection URL', async () => {
    const created = await t.call('POST', `/api/accounts/${environmentId}/databases`, {
      token: owner.token,
      body: { handle: 'orders', type: 'postgresql', database_image_id: String(imageId) },
    });
    expect(created.statusCode, created.body).toBe(201);
    orders = created.json().id;
    const provisioned = await operate(`/api/databases/${orders}/operations`, { type: 'provision' });
    expect(provisioned.status, await logOf(provisioned.id)).toBe('succeeded');
    const { client, url } = await connect(orders);
    expect(url.protocol).toBe('postgresql:');
    // Apps on the network reach it by a name that stays when its container is replaced.
    expect(url.hostname).toMatch(new RegExp(`^orders-${orders}-[0-9a-f]{8}$`));
    await client.query('CREATE TABLE shipments (id serial PRIMARY KEY, item text NOT NULL)');
    await client.query("INSERT INTO shipments (item) VALUES ('anchor'), ('rope')");
    await client.end();
    const [container] = await containersLabelled(engine, { [LABELS.environment]: environmentHandle });
    const info = await engine.getContainer(container?.Id ?? '').inspect();
    expect(info.Config.Image).toBe(POSTGRES_IMAGE);
    expect(info.HostConfig.Memory).toBe(1024 * 1024 * 1024);
    expect(info.Mounts.map((mount) => mount.Type)).toEqual(['volume']);
    expect(Object.keys(info.NetworkSettings.Networks)).toEqual([await environmentNetwork()]);
    // The name resolves on the network (what an app's container does with the URL).
    const exec = await engine.getContainer(container?.Id ?? '').exec({
      Cmd: ['nslookup', url.hostname],
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    await new Promise((resolve) => stream.on('end', resolve).resume());
    expect((await exec.inspect()).ExitCode).toBe(0);
  });

  it("charts the database container's memory and disk use from the engine", async () => {
    const { client, containerId } = await connect(orders);
    await client.end();
    const chart = async (metric: string) => {
      const response = await t.call(
        'GET',
        `/metrics/proxy/${containerId}?horizon=1h&metric=${metric}&requestedTicks=300&ts=1`,
        { token: owner.token },
      );
      expect(response.statusCode, response.body).toBe(200);
      const [, ...series] = response.json().columns as (string | number | null)[][];
      return series.map(([label, ...values]) => ({ label, values }));
    };
    const measured = async (metric: string) =>
      (await chart(metric)).some((series) =>
        series.values.some((value) => typeof value === 'number' && value > 0),
      );
    const deadline = Date.now() + 20_000;
    while (!((await measured('fs')) && (await measured('memory_all'))) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 500));
    const [disk] = await chart('fs');
    expect(String(disk?.label)).toMatch(/used$/);
    // An initialized PostgreSQL cluster holds some tens of MB.
    const used = disk?.values.filter((value): value is number => typeof value === 'number') ?? [];
    expect(Math.max(...used)).toBeGreaterThan(0.01);
    expect(await measured('memory_all')).toBe(true);
  });

  it('restarts and resizes on the same volume: the rows stay', async () => {
    const restarted = await operate(`/api/databases/${orders}/operations`, { type: 'restart' });
    expect(restarted.status, await logOf(restarted.id)).toBe('succeeded');
    const resized = await operate(`/api/databases/${orders}/operations`, {
      type: 'restart',
      container_size: 512,
    });
    expect(resized.status, await logOf(resized.id)).toBe('succeeded');
    const [container] = await containersLabelled(engine, { [LABELS.environment]: environmentHandle });
    expect((await engine.getContainer(container?.Id ?? '').inspect()).HostConfig.Memory).toBe(
      512 * 1024 * 1024,
    );
    const { client } = await connect(orders);
    expect((await client.query('SELECT item FROM shipments ORDER BY id')).rows).toEqual([
      { item: 'anchor' },
      { item: 'rope' },
    ]);
    await client.end();
  });

  it("backs up with the engine's own dump, and restores it into a new database", async () => {
    const backedUp = await operate(`/api/databases/${orders}/operations`, { type: 'backup' });
    expect(backedUp.status, await logOf(backedUp.id)).toBe('succeeded');
    const listed = await t.call('GET', `/api/databases/${orders}/backups`, { token: owner.token });
    const [backup] = listed.json()._embedded.backups;
    expect(fs.readdirSync(backupDir)).toHaveLength(1);
    const [file] = fs.readdirSync(backupDir);
    expect(fs.statSync(path.join(backupDir, file ?? '')).mode & 0o777).toBe(0o600);
    // A custom-format dump starts with its magic.
    expect(
      fs
        .readFileSync(path.join(backupDir, file ?? ''))
        .subarray(0, 5)
        .toString(),
    ).toBe('PGDMP');

    const restored = await operate(`/api/backups/${backup.id}/operations`, {
      type: 'restore',
      handle: 'orders-copy',
    });
    expect(restored.status, await logOf(restored.id)).toBe('succeeded');
    const list = await t.call('GET', `/api/accounts/${environmentId}/databases`, { token: owner.token });
    const copy = list.json()._embedded.databases.find((d: { handle: string }) => d.handle === 'orders-copy');
    expect(copy.status).toBe('provisioned');
    const { client, url } = await connect(copy.id);
    const original = await connect(orders);
    await original.client.end();
    expect(url.hostname).not.toBe(original.url.hostname);
    expect((await client.query('SELECT item FROM shipments ORDER BY id')).rows).toEqual([
      { item: 'anchor' },
      { item: 'rope' },
    ]);
    await client.end();
  });

  /** What a shell command run in a container prints, line by line (both streams). */
  async function outputOf(container: Docker.Container, command: string): Promise<string[]> {
    const exec = await container.exec({ Cmd: ['sh', '-c', command], AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({ hijack: true, stdin: false });
    const chunks: Buffer[] = [];
    await new Promise((resolve) =>
      stream.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', resolve),
    );
    return logLines(Buffer.concat(chunks)).map((entry) => entry.line);
  }

  /** Runs a shell script in a new container of the image on the network (as an app's container would). */
  async function onTheNetwork(image: string, script: string): Promise<string> {
    const container = await engine.createContainer({
      Image: image,
      Entrypoint: ['sh', '-c', script],
      Cmd: [],
      Labels: { [LABELS.environment]: environmentHandle },
      HostConfig: { NetworkMode: await environmentNetwork() },
    });
    try {
      await container.start();
      const { StatusCode } = (await container.wait()) as { StatusCode: number };
      const raw = (await container.logs({ stdout: true, stderr: true })) as unknown as Buffer;
      const output = logLines(raw)
        .map((entry) => entry.line)
        .join('\n');
      expect(StatusCode, output).toBe(0);
      return output;
    } finally {
      await container.remove({ force: true });
    }
  }

  async function provisionEngine(handle: string, type: string, version: string) {
    const created = await t.call('POST', `/api/accounts/${environmentId}/databases`, {
      token: owner.token,
      body: { handle, type, database_image_id: String(images.get(`${type}:${version}`)) },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const provisioned = await operate(`/api/databases/${id}/operations`, { type: 'provision' });
    expect(provisioned.status, await logOf(provisioned.id)).toBe('succeeded');
    const credentials = await t.call('GET', `/api/databases/${id}/database_credentials`, {
      token: owner.token,
    });
    return { id, url: new URL(credentials.json()._embedded.database_credentials[0].connection_url) };
  }

  async function backUpAndRestore(id: string, handle: string) {
    const backedUp = await operate(`/api/databases/${id}/operations`, { type: 'backup' });
    expect(backedUp.status, await logOf(backedUp.id)).toBe('succeeded');
    const listed = await t.call('GET', `/api/databases/${id}/backups`, { token: owner.token });
    const [backup] = listed.json()._embedded.backups;
    const restored = await operate(`/api/backups/${backup.id}/operations`, { type: 'restore', handle });
    expect(restored.status, await logOf(restored.id)).toBe('succeeded');
    const list = await t.call('GET', `/api/accounts/${environmentId}/databases`, { token: owner.token });
    const copy = list.json()._embedded.databases.find((d: { handle: string }) => d.handle === handle);
    const credentials = await t.call('GET', `/api/databases/${copy.id}/database_credentials`, {
      token: owner.token,
    });
    return new URL(credentials.json()._embedded.database_credentials[0].connection_url);
  }

  it('runs MySQL: the URL works from the network, mysqldump backs it up, a restore has the rows', async () => {
    const { id, url } = await provisionEngine('shop', 'mysql', '8.4');
    expect(url.protocol).toBe('mysql:');
    const mysql = (at: URL, sql: string) =>
      onTheNetwork(
        MYSQL_IMAGE,
        `mysql -h ${at.hostname} -P ${at.port} -u ${decodeURIComponent(at.username)} -p'${decodeURIComponent(at.password)}' ${at.pathname.slice(1)} -N -e "${sql}"`,
      );
    await mysql(url, "CREATE TABLE orders (item VARCHAR(20)); INSERT INTO orders VALUES ('lantern')");
    const copy = await backUpAndRestore(id, 'shop-copy');
    expect(await mysql(copy, 'SELECT item FROM orders')).toContain('lantern');
    // MySQL reloads its configuration in place.
    expect((await operate(`/api/databases/${id}/operations`, { type: 'reload' })).status).toBe('succeeded');
  });

  it('runs Redis with an account: the URL works from the network, a restore has the keys', async () => {
    const { id, url } = await provisionEngine('cache', 'redis', '7.2');
    expect(url.protocol).toBe('redis:');
    const redis = (at: URL, command: string) =>
      onTheNetwork(REDIS_IMAGE, `redis-cli --no-auth-warning -u '${at}' ${command}`);
    expect(await redis(url, 'SET greeting ahoy')).toContain('OK');
    // Without the account, nothing.
    expect(await onTheNetwork(REDIS_IMAGE, `redis-cli -h ${url.hostname} GET greeting`)).toContain('NOAUTH');

    // Issue 34: its password is on no command line and in no environment the engine shows; Redis reads
    // the account from a file in its volume that only its own user may read.
    const password = decodeURIComponent(url.password);
    const [container] = (
      await containersLabelled(engine, { [LABELS.environment]: environmentHandle })
    ).filter((found) => found.Labels[LABELS.database]?.endsWith(`/db-${id}`));
    const handle = engine.getContainer(container?.Id ?? '');
    const info = await handle.inspect();
    const shown = JSON.stringify([
      info.Path,
      info.Args,
      info.Config.Entrypoint,
      info.Config.Cmd,
      info.Config.Env,
    ]);
    expect(shown).not.toContain(password);
    expect(shown).toContain('--aclfile');
    const processes = JSON.stringify(await handle.top());
    expect(processes).toContain('redis-server');
    expect(processes).not.toContain(password);
    expect(await outputOf(handle, 'stat -c "%a %U %n" /data/users.acl /data/berth-password')).toEqual([
      '600 redis /data/users.acl',
      '600 redis /data/berth-password',
    ]);

    // A container made before issue 34 (its account on its command line and in its environment) is
    // replaced at its next restart by one that reads the account from its volume.
    const username = decodeURIComponent(url.username);
    const own = await environmentNetwork();
    const legacy = await engine.createContainer({
      name: `${info.Name.replace(/^\//, '')}-legacy`,
      Image: info.Config.Image,
      Env: [...(info.Config.Env ?? []), `REDIS_PASSWORD=${password}`],
      Cmd: [
        ...['redis-server', '--dir', '/data', '--save', '60', '1', '--user', 'default', 'off'],
        ...['--user', username, 'on', `>${password}`, '~*', '&*', '+@all'],
      ],
      Labels: info.Config.Labels,
      HostConfig: info.HostConfig,
      NetworkingConfig: {
        EndpointsConfig: { [own]: { Aliases: info.NetworkSettings.Networks[own]?.Aliases ?? [] } },
      },
    });
    // Stopped first, so Redis saves its keys on the way out.
    await handle.stop();
    await handle.remove({ force: true });
    await legacy.start();
    expect(JSON.stringify((await legacy.inspect()).Config.Cmd)).toContain(password);
    const restarted = await operate(`/api/databases/${id}/operations`, { type: 'restart' });
    expect(restarted.status, await logOf(restarted.id)).toBe('succeeded');
    const [renewed] = (await containersLabelled(engine, { [LABELS.environment]: environmentHandle })).filter(
      (found) => found.Labels[LABELS.database]?.endsWith(`/db-${id}`),
    );
    expect(renewed?.Id).not.toBe(legacy.id);
    const renewedInfo = await engine.getContainer(renewed?.Id ?? '').inspect();
    expect(JSON.stringify([renewedInfo.Args, renewedInfo.Config.Cmd, renewedInfo.Config.Env])).not.toContain(
      password,
    );
    expect(await redis(url, 'GET greeting')).toContain('ahoy');

    // A new container on the same volume reads the same account.
    const recreated = await operate(`/api/databases/${id}/operations`, { type: 'restart_recreate' });
    expect(recreated.status, await logOf(recreated.id)).toBe('succeeded');
    expect(await redis(url, 'GET greeting')).toContain('ahoy');
    const copy = await backUpAndRestore(id, 'cache-copy');
    expect(await redis(copy, 'GET greeting')).toContain('ahoy');
  });

  it('fails a restore whose backup file is gone, saying so, and keeps nothing of it', async () => {
    const listed = await t.call('GET', `/api/databases/${orders}/backups`, { token: owner.token });
    const [backup] = listed.json()._embedded.backups;
    const files = fs.readdirSync(backupDir);
    for (const name of files)
      fs.renameSync(path.join(backupDir, name), path.join(backupDir, `${name}.moved`));
    try {
      const restored = await operate(`/api/backups/${backup.id}/operations`, {
        type: 'restore',
        handle: 'lost',
      });
      expect(restored.status).toBe('failed');
      expect(await logOf(restored.id)).toMatch(/Backup db-\S+\.dump has no file in /);
    } finally {
      for (const name of files)
        fs.renameSync(path.join(backupDir, `${name}.moved`), path.join(backupDir, name));
    }
  });

  it('deprovisions: the containers and volumes go', async () => {
    const list = await t.call('GET', `/api/accounts/${environmentId}/databases`, { token: owner.token });
    for (const database of list.json()._embedded.databases) {
      const done = await operate(`/api/databases/${database.id}/operations`, { type: 'deprovision' });
      expect(done.status, await logOf(done.id)).toBe('succeeded');
    }
    expect(await containersLabelled(engine, { [LABELS.environment]: environmentHandle })).toEqual([]);
    const { Volumes } = await engine.listVolumes({ filters: { label: [`${LABELS.managed}=true`] } });
    expect(
      (Volumes ?? []).filter((volume) =>
        volume.Labels?.[LABELS.database]?.includes(`/${environmentHandle}/`),
      ),
    ).toEqual([]);
  });
});
