import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type Docker from 'dockerode';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apps, containers, releases, services } from '../db/schema.ts';
import { containersLabelled, dockerNetworks, LABELS } from '../runtimes/docker/engine.ts';
import {
  BASE_IMAGE,
  baseImage,
  builtImage,
  dockerTestConfig,
  pageText,
  removeDockerTestResources,
  suiteEngine,
  webImage,
} from '../testing/docker-images.ts';
import { type TestApp, type TestUser, testApp } from '../testing/test-app.ts';

// Operations through the API on a stack whose runtime is `docker` (BERTH_RUNTIME=docker): the worker
// runs them on real containers. Skipped locally without an engine; in CI a missing engine fails it.

const docker = await suiteEngine();

const run = randomBytes(3).toString('hex');
const exec = promisify(execFile);
const network = `berth-ops-${run}`;
const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-data-'));

describe.skipIf(!docker)('operations on the docker runtime', () => {
  const engine = docker as Docker;
  let t: TestApp;
  let owner: TestUser;
  let appId: number;
  let environmentId: number;
  /** The environment's own network: named after the suite's network, this Berth and the environment. */
  const ownNetwork = (info: Docker.ContainerInspectInfo) =>
    dockerNetworks(engine, network, info.Config.Labels[LABELS.installation] ?? '').ofEnvironment(
      environmentId,
    );

  beforeAll(async () => {
    await baseImage(engine);
    await webImage(engine, 'berth-test/web:1', 'version-one');
    await builtImage(engine, 'berth-test/broken:1', {
      Dockerfile: `FROM ${BASE_IMAGE}\nENV PATH=/bin\nCMD ["/bin/sh", "-c", "echo cannot start: no database >&2; exit 3"]\n`,
    });
    t = await testApp(await dockerTestConfig(dataDir, network));
    owner = await t.signUp();
    const org = await t.createOrganization(owner);
    const environment = await t.createEnvironment(owner, org.id, `ops-${run}`);
    environmentId = Number(environment.id);
    const [app] = await t.db
      .insert(apps)
      .values({ environmentId: Number(environment.id), handle: 'shop' })
      .returning();
    appId = app?.id ?? 0;
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await removeDockerTestResources(engine, { environmentHandle: `ops-${run}`, network, dataDir });
  });

  const operate = (url: string, body: Record<string, unknown>) => t.operate(owner, url, body);

  async function live() {
    const [service] = await t.db.select().from(services).where(eq(services.appId, appId));
    const rows = service
      ? await t.db
          .select()
          .from(containers)
          .innerJoin(releases, eq(containers.releaseId, releases.id))
          .where(and(eq(releases.serviceId, service.id), isNull(containers.deletedAt)))
      : [];
    return { service, containers: rows.map((row) => row.containers) };
  }

  it('deploys an image: the recorded containers are the real ones, and they answer', async () => {
    const op = await operate(`/api/apps/${appId}/operations`, {
      type: 'deploy',
      docker_image: 'berth-test/web:1',
    });
    expect(op.status).toBe('succeeded');
    const app = await t.call('GET', `/api/apps/${appId}`, { token: owner.token });
    expect(app.json().status).toBe('provisioned');
    const { containers: rows } = await live();
    expect(rows).toHaveLength(1);
    for (const row of rows) {
      const info = await engine.getContainer(row.dockerName).inspect();
      expect(info.State.Running).toBe(true);
      // On its environment's network only, where the host (the edge) reaches it.
      expect(Object.keys(info.NetworkSettings.Networks)).toEqual([ownNetwork(info)]);
      expect(row.host).toBe(info.NetworkSettings.Networks[ownNetwork(info)]?.IPAddress);
      expect(await pageText(row.host, row.port)).toBe('version-one');
    }
  });

  it("pulls a private image with the app's registry account, which its containers never see", async () => {
    // A registry that asks for Basic credentials and then has no such image: what the engine sent is the test.
    const seen: string[] = [];
    const registry = createServer((request, response) => {
      seen.push(request.headers.authorization ?? '');
      if (!request.headers.authorization) {
        response.writeHead(401, {
          'WWW-Authenticate': 'Basic realm="berth-test"',
          'Content-Type': 'application/json',
        });
        response.end('{"errors":[{"code":"UNAUTHORIZED"}]}');
        return;
      }
      response.writeHead(request.url === '/v2/' ? 200 : 404, { 'Content-Type': 'application/json' });
      response.end(request.url === '/v2/' ? '{}' : '{"errors":[{"code":"MANIFEST_UNKNOWN"}]}');
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const { port } = registry.address() as AddressInfo;
    try {
      await operate(`/api/apps/${appId}/operations`, {
        type: 'configure',
        env: { BERTH_PRIVATE_REGISTRY_USERNAME: 'robot', BERTH_PRIVATE_REGISTRY_PASSWORD: 's3cret' },
      });
      const env = (await engine.getContainer((await live()).containers[0]?.dockerName ?? '').inspect()).Config
        .Env;
      expect(env.some((variable) => variable.startsWith('BERTH_PRIVATE_REGISTRY'))).toBe(false);
      const pulled = await operate(`/api/apps/${appId}/operations`, {
        type: 'deploy',
        docker_image: `127.0.0.1:${port}/private/app:1`,
      });
      expect(pulled.status).toBe('failed');
      const pointer = await t.call('GET', `/api/operations/${pulled.id}/logs`, { token: owner.token });
      const url = new URL(pointer.body);
      const log = (await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).body;
      expect(log).toContain(
        `Pulling Docker image 127.0.0.1:${port}/private/app:1 as robot on 127.0.0.1:${port}`,
      );
      expect(seen).toContain(`Basic ${Buffer.from('robot:s3cret').toString('base64')}`);
      for (const row of (await live()).containers)
        expect(await pageText(row.host, row.port)).toBe('version-one');
    } finally {
      registry.close();
      await operate(`/api/apps/${appId}/operations`, {
        type: 'configure',
        env: { BERTH_PRIVATE_REGISTRY_USERNAME: '', BERTH_PRIVATE_REGISTRY_PASSWORD: '' },
      });
    }
  });

  it('configures, scales and restarts the real containers', async () => {
    const configured = await operate(`/api/apps/${appId}/operations`, {
      type: 'configure',
      env: { GREETING: 'hello' },
    });
    expect(configured.status).toBe('succeeded');
    let { service, containers: rows } = await live();
    const env = (await engine.getContainer(rows[0]?.dockerName ?? '').inspect()).Config.Env;
    expect(env).toContain('GREETING=hello');

    const scaled = await operate(`/api/services/${service?.id}/operations`, {
      type: 'scale',
      container_count: 2,
      container_size: 1024,
    });
    expect(scaled.status).toBe('succeeded');
    ({ service, containers: rows } = await live());
    expect(rows).toHaveLength(2);
    expect(await containersLabelled(engine, { [LABELS.environment]: `ops-${run}` })).toHaveLength(2);
    for (const row of rows) {
      const info = await engine.getContainer(row.dockerName).inspect();
      expect(info.HostConfig.Memory).toBe(1024 * 1024 * 1024);
      expect(await pageText(row.host, row.port)).toBe('version-one');
    }

    const restarted = await operate(`/api/services/${service?.id}/operations`, { type: 'restart' });
    expect(restarted.status).toBe('succeeded');
    for (const row of (await live()).containers)
      expect(await pageText(row.host, row.port)).toBe('version-one');
  });

  it('starts again a container removed behind its back: an automated restart says what was missing', async () => {
    const before = (await live()).containers;
    expect(before).toHaveLength(2);
    // Nothing is missing: nothing to do.
    expect(await t.reconciler.reconcileOnce()).toBe(0);
    await engine.getContainer(before[0]?.dockerName ?? '').remove({ force: true });
    expect(await t.reconciler.reconcileOnce()).toBe(1);
    // Queued once: a second pass while it waits adds nothing.
    expect(await t.reconciler.reconcileOnce()).toBe(0);
    const { service } = await live();
    const listed = await t.call('GET', `/api/services/${service?.id}/operations`, { token: owner.token });
    const [restart] = listed.json()._embedded.operations;
    expect(restart).toMatchObject({ type: 'restart', status: 'queued', automated: true });
    await t.worker.drain();
    const done = await t.call('GET', `/api/operations/${restart.id}`, { token: owner.token });
    expect(done.json().status).toBe('succeeded');
    const pointer = await t.call('GET', `/api/operations/${restart.id}/logs`, { token: owner.token });
    const url = new URL(pointer.body);
    const log = (await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).body;
    expect(log).toContain('has 1 of its 2 container(s) on the engine: starting them all again');
    const after = (await live()).containers;
    expect(after).toHaveLength(2);
    for (const row of after) expect(await pageText(row.host, row.port)).toBe('version-one');
    expect(await containersLabelled(engine, { [LABELS.environment]: `ops-${run}` })).toHaveLength(2);
    expect(await t.reconciler.reconcileOnce()).toBe(0);
  });

  it("removes this Berth's running containers that it records nowhere, and no other Berth's", async () => {
    const [recorded] = (await live()).containers;
    const info = await engine.getContainer(recorded?.dockerName ?? '').inspect();
    const copy = async (name: string, labels: Record<string, string>) => {
      const container = await engine.createContainer({
        name,
        Image: info.Image,
        Env: info.Config.Env,
        Labels: labels,
        HostConfig: { NetworkMode: ownNetwork(info), Init: true },
      });
      await container.start();
    };
    const orphan = `orphan-${run}`;
    const foreign = `foreign-${run}`;
    await copy(orphan, info.Config.Labels);
    await copy(foreign, { ...info.Config.Labels, [LABELS.installation]: 'another-berth' });
    // Young containers may be a roll-out's, not recorded yet: kept.
    await t.reconciler.reconcileOnce();
    expect((await engine.getContainer(orphan).inspect()).State.Running).toBe(true);
    expect(await t.reconciler.reconcileOnce({ orphanAgeMs: 0 })).toBe(0);
    await expect(engine.getContainer(orphan).inspect()).rejects.toThrow();
    expect((await engine.getContainer(foreign).inspect()).State.Running).toBe(true);
    for (const row of (await live()).containers)
      expect(await pageText(row.host, row.port)).toBe('version-one');
    await engine.getContainer(foreign).remove({ force: true });
  });

  it('fails a deploy that does not start, with the container output in its log, and keeps serving', async () => {
    const before = (await live()).containers.map((row) => row.dockerName).sort();
    const op = await operate(`/api/apps/${appId}/operations`, {
      type: 'deploy',
      docker_image: 'berth-test/broken:1',
    });
    expect(op.status).toBe('failed');
    const pointer = await t.call('GET', `/api/operations/${op.id}/logs`, { token: owner.token });
    const url = new URL(pointer.body);
    const log = (await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).body;
    expect(log).toMatch(/ERROR -- : Container \S+ exited with code 3 before it answered/);
    expect(log).toContain('cannot start: no database');
    const after = (await live()).containers;
    expect(after.map((row) => row.dockerName).sort()).toEqual(before);
    for (const row of after) expect(await pageText(row.host, row.port)).toBe('version-one');
  });

  it("builds and deploys what `git push` sends to the app's remote over HTTP", async () => {
    const [pushed] = await t.db
      .insert(apps)
      .values({
        environmentId: Number((await t.db.select().from(apps).where(eq(apps.id, appId)))[0]?.environmentId),
        handle: 'pushed',
      })
      .returning();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const work = fs.mkdtempSync(path.join(tmpdir(), 'berth-push-'));
    // Asynchronous: the server answering the push runs in this very process.
    const git = (...args: string[]) =>
      exec('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
        cwd: work,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      });
    await git('init', '--quiet', '-b', 'main');
    fs.writeFileSync(
      path.join(work, 'Dockerfile'),
      `FROM ${BASE_IMAGE}\nENV PATH=/bin\nRUN mkdir -p /www && echo pushed-over-http > /www/index.html\n`,
    );
    fs.writeFileSync(path.join(work, 'Procfile'), 'web: exec httpd -f -p $PORT -h /www\n');
    await git('add', '.');
    await git('commit', '--quiet', '-m', 'Ship it');
    const remote = new URL(`${address}/git/ops-${run}/pushed.git`);
    // A wrong token is refused, and nothing is stored or deployed.
    remote.username = 'git';
    remote.password = 'wrong';
    await expect(git('push', '--quiet', remote.toString(), 'main')).rejects.toThrow(
      /Authentication failed|401/,
    );
    remote.password = owner.token;
    // The push answers once the deploy it starts has ended: the worker runs meanwhile.
    let pushing = true;
    const push = git('push', '--quiet', remote.toString(), 'main').finally(() => {
      pushing = false;
    });
    while (pushing) {
      await t.worker.drain();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await push;
    const commit = (await git('rev-parse', 'HEAD')).stdout.trim();
    fs.rmSync(work, { recursive: true, force: true });
    const listed = await t.call('GET', `/api/apps/${pushed?.id}/operations`, { token: owner.token });
    const [deploy] = listed.json()._embedded.operations;
    // The pushed commit deploys, not whatever main is by the time the build runs.
    expect(deploy).toMatchObject({ type: 'deploy', status: 'succeeded', git_ref: commit });
    const [web] = await t.db
      .select()
      .from(services)
      .where(and(eq(services.appId, pushed?.id ?? 0), eq(services.handle, 'web')));
    const rows = await t.db
      .select()
      .from(containers)
      .innerJoin(releases, eq(containers.releaseId, releases.id))
      .where(and(eq(releases.serviceId, web?.id ?? 0), isNull(containers.deletedAt)));
    expect(rows).toHaveLength(1);
    const row = rows[0]?.containers;
    expect(await pageText(row?.host ?? '', row?.port ?? 0)).toBe('pushed-over-http');
    const deployment = await t.call('GET', `/api/apps/${pushed?.id}/deployments`, { token: owner.token });
    expect(deployment.json()._embedded.deployments[0]).toMatchObject({
      git_commit_message: 'Ship it',
      git_repository_url: `http://berth.test/git/ops-${run}/pushed.git`,
    });
    const builtFor = async () =>
      // Labelled with the app's id, and its environment's handle (the ids repeat across test servers).
      await engine.listImages({
        filters: { label: [`${LABELS.app}=app-${pushed?.id}`, `${LABELS.environment}=ops-${run}`] },
      });
    expect(await builtFor()).toHaveLength(1);
    const removed = await operate(`/api/apps/${pushed?.id}/operations`, { type: 'deprovision' });
    expect(removed.status).toBe('succeeded');
    // What its deploys built goes with the app.
    expect(await builtFor()).toEqual([]);
  });

  it('scales to zero and deprovisions: nothing of the app is left on the engine', async () => {
    const { service } = await live();
    const scaled = await operate(`/api/services/${service?.id}/operations`, {
      type: 'scale',
      container_count: 0,
    });
    expect(scaled.status).toBe('succeeded');
    expect(await containersLabelled(engine, { [LABELS.environment]: `ops-${run}` })).toEqual([]);
    await operate(`/api/services/${service?.id}/operations`, { type: 'scale', container_count: 1 });
    expect(await containersLabelled(engine, { [LABELS.environment]: `ops-${run}` })).toHaveLength(1);
    const removed = await operate(`/api/apps/${appId}/operations`, { type: 'deprovision' });
    expect(removed.status).toBe('succeeded');
    expect(await containersLabelled(engine, { [LABELS.environment]: `ops-${run}` })).toEqual([]);
  });

  let installation = '';

  it("deletes an empty environment's network with it", async () => {
    const [made] = await engine.listNetworks({
      filters: { label: [`${LABELS.environmentId}=${environmentId}`], name: [network] },
    });
    installation = made?.Labels?.[LABELS.installation] ?? '';
    expect(made?.Name).toBe(dockerNetworks(engine, network, installation).ofEnvironment(environmentId));
    expect(made?.Labels).toMatchObject({
      [LABELS.managed]: 'true',
      [LABELS.environment]: `ops-${run}`,
      [LABELS.environmentId]: String(environmentId),
    });
    // Refused deletes leave it: a stranger's, and one without a token.
    const stranger = await t.signUp();
    const url = `/api/accounts/${environmentId}`;
    expect((await t.call('DELETE', url, { token: stranger.token })).statusCode).toBe(404);
    expect((await t.call('DELETE', url)).statusCode).toBe(401);
    expect((await engine.getNetwork(made?.Id ?? '').inspect()).Name).toBe(made?.Name);
    const deleted = await t.call('DELETE', url, { token: owner.token });
    expect(deleted.statusCode, deleted.body).toBe(204);
    await expect(engine.getNetwork(made?.Id ?? '').inspect()).rejects.toMatchObject({ statusCode: 404 });
  });

  it('deletes an environment whose network something still uses, leaving the network and saying so', async () => {
    const org = await t.createOrganization(owner);
    const environment = await t.createEnvironment(owner, org.id, `ops-${run}-left`);
    // What a roll-out that died before it was recorded leaves: a container on the environment's network.
    const name = dockerNetworks(engine, network, installation).ofEnvironment(Number(environment.id));
    await engine.createNetwork({ Name: name, Driver: 'bridge', Labels: { [LABELS.managed]: 'true' } });
    const leftover = await engine.createContainer({
      name: `leftover-${run}`,
      Image: BASE_IMAGE,
      Cmd: ['/bin/busybox', 'sleep', '600'],
      Labels: { [LABELS.environment]: `ops-${run}` },
      HostConfig: { NetworkMode: name },
    });
    await leftover.start();
    const warn = vi.spyOn(console, 'warn');
    try {
      const deleted = await t.call('DELETE', `/api/accounts/${environment.id}`, { token: owner.token });
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect(warn).toHaveBeenCalledWith(
        `The network ${name} of deleted environment ops-${run}-left is left on the engine: container(s) leftover-${run} still use it`,
      );
      expect((await engine.getNetwork(name).inspect()).Name).toBe(name);
    } finally {
      warn.mockRestore();
      await leftover.remove({ force: true });
    }
  });
});
