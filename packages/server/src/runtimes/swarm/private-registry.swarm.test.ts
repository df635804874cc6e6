import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_IMAGE, baseImage, builtImage, pageText } from '../../testing/docker-images.ts';
import {
  engineAt,
  localSwarmCluster,
  type SwarmCluster,
  swarmSuiteRuns,
} from '../../testing/swarm-cluster.ts';
import { pullFailure } from '../docker/image-source.ts';
import {
  type AppTarget,
  REGISTRY_PASSWORD_VARIABLE,
  REGISTRY_USERNAME_VARIABLE,
  type Runtime,
  type RuntimeContext,
  type ServicePlan,
} from '../runtime.ts';
import { createSwarmRuntime } from './swarm-runtime.ts';
import { isRunning, type SwarmTask, swarmServiceName } from './swarm-spec.ts';

// Issue 39: a docker_image app from a registry that needs a login, on the real 3-node cluster. The app's
// BERTH_PRIVATE_REGISTRY_USERNAME/_PASSWORD go to Swarm as the service's registry auth, so each node pulls
// the image itself, and never into the containers; without them the deploy fails and runs nothing.

const runs = swarmSuiteRuns();
const installation = `privreg${process.pid}`;
const dir = fs.mkdtempSync(path.join(tmpdir(), 'berth-private-registry-'));
const username = 'berth-test';
const password = `secret-${process.pid}-${Date.now().toString(36)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A busybox httpd answering its host name; wget installed, for Swarm's health check inside the task. */
const APP_DOCKERFILE = [
  `FROM ${BASE_IMAGE}`,
  'RUN ["/bin/busybox", "--install", "-s", "/bin"]',
  'ENV PATH=/bin',
  'EXPOSE 8000',
  'CMD ["/bin/sh", "-c", "mkdir -p /www && echo \\"$(hostname) private\\" > /www/index.html && exec httpd -f -p $PORT -h /www"]',
  '',
].join('\n');

const context = (): RuntimeContext & { lines: string[] } => {
  const lines: string[] = [];
  return {
    lines,
    signal: new AbortController().signal,
    async log(line) {
      lines.push(line);
    },
  };
};

const plan: ServicePlan = {
  handle: 'cmd',
  processType: 'cmd',
  command: null,
  containerCount: 3,
  memoryLimitMb: 64,
  instanceClass: 'm5',
  recordedContainers: [],
  endpointIds: [],
};

const targetOf = (appId: number): AppTarget => ({
  appId,
  appHandle: `private${appId}`,
  environmentId: 1,
  environmentHandle: 'swarm',
  stackName: 'swarm-test',
  environmentDatabaseIds: [],
});

/** Database methods are another part's (swarm-databases.ts): none is called here. */
const noDatabases = new Proxy({} as Pick<Runtime, 'provisionDatabase'>, {
  get: () => () => Promise.reject(new Error('no database here')),
}) as unknown as Parameters<typeof createSwarmRuntime>[0]['databases'];

/** A port free on `host` now (the registry's config wants a fixed one). */
async function freePort(host: string): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function eventually<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ''}`);
    await sleep(500);
  }
}

/** Debian's registry on the host's 10.NET.0.1 (the nodes reach it, plain HTTP), asking for a login. */
async function startPrivateRegistry(host: string): Promise<{ address: string; process: ChildProcess }> {
  const port = await freePort(host);
  const address = `${host}:${port}`;
  const htpasswd = path.join(dir, 'htpasswd');
  fs.writeFileSync(htpasswd, `${username}:${bcrypt.hashSync(password, 10)}\n`, { mode: 0o600 });
  const config = path.join(dir, 'registry.yml');
  fs.writeFileSync(
    config,
    [
      'version: 0.1',
      'log:',
      '  level: warn',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${path.join(dir, 'data')}`,
      'auth:',
      '  htpasswd:',
      '    realm: berth-test',
      `    path: ${htpasswd}`,
      'http:',
      `  addr: ${address}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  const log = fs.openSync(path.join(dir, 'registry.log'), 'a', 0o600);
  const child = spawn('docker-registry', ['serve', config], { stdio: ['ignore', log, log] });
  fs.closeSync(log);
  await eventually(`the private registry at ${address}`, 30_000, async () => {
    if (child.exitCode !== null) throw new Error(fs.readFileSync(path.join(dir, 'registry.log'), 'utf8'));
    const response = await fetch(`http://${address}/v2/`, { signal: AbortSignal.timeout(2000) });
    // It answers, and asks for the login.
    return response.status === 401 ? true : undefined;
  });
  return { address, process: child };
}

describe.skipIf(!runs)('a docker_image app from a private registry on a 3-node cluster', () => {
  let cluster: SwarmCluster;
  let manager: Docker;
  let runtime: ReturnType<typeof createSwarmRuntime>;
  let registry: { address: string; process: ChildProcess };
  let reference = '';
  /** The image by the digest the registry gave it. */
  let pinned = '';

  const servicesOf = async (appId: number) =>
    manager.listServices({ filters: { name: [swarmServiceName(installation, appId, 'cmd')] } });
  const runningTasks = async (appId: number) =>
    (
      (await manager.listTasks({
        filters: { service: [swarmServiceName(installation, appId, 'cmd')] },
      })) as SwarmTask[]
    ).filter(isRunning);
  /** The containers of the app's service on every node, running or not, by each node's own engine. */
  const containersOnNodes = async (appId: number) => {
    const found: { node: string; id: string }[] = [];
    for (const node of cluster.nodes) {
      const containers = await engineAt(node.engineHost).listContainers({
        all: true,
        filters: { label: [`com.docker.swarm.service.name=${swarmServiceName(installation, appId, 'cmd')}`] },
      });
      for (const container of containers) found.push({ node: node.hostname, id: container.Id });
    }
    return found;
  };

  beforeAll(async () => {
    cluster = await localSwarmCluster();
    manager = engineAt(cluster.managerHost);
    // The cluster's registry is at 10.NET.0.1:(5000+NET): this one takes another port there.
    const [host = ''] = cluster.registry.split(':');
    registry = await startPrivateRegistry(host);
    // The app's image, built on the manager and pushed with the login; then gone from the manager, so
    // that every engine has to pull it.
    await baseImage(manager);
    const local = await builtImage(manager, 'berth-test/private-app:1', { Dockerfile: APP_DOCKERFILE });
    const repository = `${registry.address}/berth-test/private-app`;
    reference = `${repository}:1`;
    await manager.getImage(local).tag({ repo: repository, tag: '1' });
    const stream = await manager
      .getImage(reference)
      .push({ authconfig: { username, password, serveraddress: registry.address } });
    const events = await new Promise<{ error?: string; aux?: { Digest?: string } }[]>((resolve, reject) =>
      manager.modem.followProgress(stream, (error: Error | null, output: { error?: string }[]) =>
        error ? reject(error) : resolve(output),
      ),
    );
    const failed = events.find((event) => event.error);
    if (failed) throw new Error(`pushing ${reference} failed: ${failed.error}`);
    const digest = events.find((event) => event.aux?.Digest)?.aux?.Digest;
    if (!digest) throw new Error(`pushing ${reference} reported no digest`);
    pinned = `${repository}@${digest}`;
    await manager.getImage(reference).remove();
    runtime = createSwarmRuntime({
      docker: manager,
      registry: cluster.registry,
      gitDir: path.join(dir, 'git'),
      publicUrl: 'http://localhost',
      installation,
      healthTimeoutMs: 10_000,
      stopTimeoutSeconds: 2,
      databases: noDatabases,
      nodeEngine: engineAt,
    });
  }, 300_000);

  afterAll(async () => {
    runtime?.close();
    for (const appId of [1, 2, 3])
      await manager
        ?.getService(swarmServiceName(installation, appId, 'cmd'))
        .remove()
        .catch(() => undefined);
    // The pulled image goes from every node (the next run pulls again).
    for (const node of cluster?.nodes ?? [])
      for (const name of [reference, pinned])
        await engineAt(node.engineHost)
          .getImage(name)
          .remove({ force: true })
          .catch(() => undefined);
    registry?.process.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an anonymous pull: without the credentials the deploy fails with pullFailure and runs nothing', async () => {
    const ctx = context();
    const failure = await runtime.buildImage(ctx, targetOf(2), { gitRepo: '', dockerImage: reference }).then(
      () => null,
      (error: Error) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    // pullFailure's message around the engine's reason, whatever the engine says.
    const [before, after] = pullFailure(reference, undefined, '\u0000').split('\u0000');
    expect(failure?.message.startsWith(before ?? '')).toBe(true);
    expect(failure?.message.endsWith(after ?? '')).toBe(true);
    expect(failure?.message).toMatch(/no basic auth credentials|unauthorized|authentication required/i);
    expect(ctx.lines).toContain(failure?.message);
    expect(await servicesOf(2)).toEqual([]);
    expect(await containersOnNodes(2)).toEqual([]);
  });

  it('with the credentials in the configuration: 3 replicas on 3 nodes, each pulled there, none with the credentials', async () => {
    const env = {
      GREETING: 'hi',
      [REGISTRY_USERNAME_VARIABLE]: username,
      [REGISTRY_PASSWORD_VARIABLE]: password,
    };
    const target = targetOf(1);
    const ctx = context();
    const image = await runtime.buildImage(ctx, target, {
      gitRepo: '',
      dockerImage: reference,
      registryAuth: { username, password },
    });
    expect(ctx.lines).toContain(`Pulling Docker image ${reference} as ${username} on ${registry.address}`);
    // Pinned by the digest the registry gave: every node runs the same bits.
    expect(image.dockerRef).toMatch(/@sha256:[0-9a-f]{64}$/);
    expect(image.dockerRef).toBe(pinned);
    expect(image.exposedPorts).toEqual([8000]);
    // Only the manager has it now: nodes 2 and 3 pull it with the service's registry auth.
    for (const node of cluster.nodes.filter((n) => n.index !== 1))
      await expect(engineAt(node.engineHost).getImage(image.dockerRef).inspect()).rejects.toThrow();

    const started = await runtime.rollOut(ctx, target, plan, image, env).catch((error) => {
      throw new Error(`${error}\n${ctx.lines.join('\n')}`);
    });
    expect(new Set(started.map((spec) => spec.host))).toEqual(new Set(cluster.nodes.map((n) => n.hostname)));

    const tasks = await runningTasks(1);
    expect(tasks).toHaveLength(3);
    const nodes = await manager.listNodes();
    const texts: string[] = [];
    for (const task of tasks) {
      const node = nodes.find((n) => n.ID === task.NodeID);
      const port = (task as { Status?: { PortStatus?: { Ports?: { PublishedPort?: number }[] } } }).Status
        ?.PortStatus?.Ports?.[0]?.PublishedPort;
      expect(port).toBeGreaterThan(0);
      texts.push(await pageText(node?.Status?.Addr ?? '', port ?? 0));
    }
    expect(texts).toHaveLength(3);
    for (const text of texts) expect(text).toMatch(/ private$/);

    // The service's spec and every task's container (each inspected on its own node) have neither variable.
    const service = await manager.getService(swarmServiceName(installation, 1, 'cmd')).inspect();
    const specEnv: string[] = service.Spec.TaskTemplate.ContainerSpec.Env;
    expect(specEnv).toContain('GREETING=hi');
    const containers = await containersOnNodes(1);
    expect(new Set(containers.map((c) => c.node)).size).toBe(3);
    for (const { node, id } of containers) {
      const engine = engineAt(cluster.nodes.find((n) => n.hostname === node)?.engineHost ?? '');
      const inspected = await engine.getContainer(id).inspect();
      const containerEnv = inspected.Config.Env ?? [];
      expect(containerEnv).toContain('GREETING=hi');
      for (const line of [...specEnv, ...containerEnv]) {
        expect(line.startsWith(`${REGISTRY_USERNAME_VARIABLE}=`)).toBe(false);
        expect(line.startsWith(`${REGISTRY_PASSWORD_VARIABLE}=`)).toBe(false);
        expect(line).not.toContain(password);
      }
      // The node pulled the image itself, from the private registry.
      const pulled = await engine.getImage(image.dockerRef).inspect();
      expect(pulled.RepoDigests).toContain(image.dockerRef);
    }

    // Removal leaves no service, task or container of the app on any node.
    await runtime.removeApp(context(), target, {
      containers: started.map((spec) => spec.dockerName),
      images: [image.dockerRef],
    });
    expect(await servicesOf(1)).toEqual([]);
    await eventually('the containers of the removed app to be gone', 30_000, async () =>
      (await containersOnNodes(1)).length === 0 ? true : undefined,
    );
    // (Swarm answers 404 to a task list filtered by a service that is gone: its tasks went with it.)
  }, 300_000);

  it('without the credentials, an image only the manager has: the nodes cannot pull it, the deploy fails with pullFailure and leaves nothing', async () => {
    // The manager kept the image app 1 pulled (it is used without pulling, as on docker); the workers not.
    for (const node of cluster.nodes.filter((n) => n.index !== 1))
      await engineAt(node.engineHost)
        .getImage(pinned)
        .remove({ force: true })
        .catch(() => undefined);
    const target = targetOf(3);
    const ctx = context();
    const image = await runtime.buildImage(ctx, target, { gitRepo: '', dockerImage: reference });
    expect(ctx.lines).toContain(`Using Docker image ${reference} found on the engine`);
    const failure = await runtime.rollOut(ctx, target, plan, image, { GREETING: 'hi' }).then(
      () => null,
      (error: Error) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    const [before, after] = pullFailure(image.dockerRef, undefined, '\u0000').split('\u0000');
    expect(failure?.message.startsWith(before ?? '')).toBe(true);
    expect(failure?.message.endsWith(after ?? '')).toBe(true);
    expect(failure?.message).toContain('could not pull it (No such image');
    expect(await servicesOf(3)).toEqual([]);
    await eventually('the containers of the failed deploy to be gone', 30_000, async () =>
      (await containersOnNodes(3)).length === 0 ? true : undefined,
    );
  }, 300_000);
});
