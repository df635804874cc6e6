import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BASE_IMAGE,
  baseImage,
  builtImage,
  pageText,
  suiteEngine,
  webImage,
} from '../../testing/docker-images.ts';
import type { AppTarget, Runtime, RuntimeContext, ServicePlan } from '../runtime.ts';
import { createDockerRuntime } from './docker-runtime.ts';
import { createDockerStatsRecorder, type DockerStatsRecorder } from './docker-stats.ts';
import { containersLabelled, dockerNetworks, LABELS } from './engine.ts';

// The docker runtime against a real engine. Locally the suite says so and stops when no engine answers;
// in CI (CI=true) a missing engine fails it.

const docker = await suiteEngine();

const run = randomBytes(3).toString('hex');
const stackName = `test-${run}`;
const network = `berth-test-${run}`;
const gitDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-git-'));

function context(): RuntimeContext & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    signal: new AbortController().signal,
    async log(line) {
      lines.push(line);
    },
  };
}

const plan = (overrides: Partial<ServicePlan> = {}): ServicePlan => ({
  handle: 'cmd',
  processType: 'cmd',
  command: null,
  containerCount: 1,
  memoryLimitMb: 64,
  instanceClass: 'm5',
  recordedContainers: [],
  endpointIds: [],
  ...overrides,
});

describe.skipIf(!docker)('the docker runtime', () => {
  const engine = docker as Docker;
  let runtime: Runtime;
  let stats: DockerStatsRecorder;
  const staging = { environmentId: 1, environmentHandle: 'staging', stackName, environmentDatabaseIds: [] };
  // The environment's network, which its containers join.
  const ownNetwork = dockerNetworks(engine, network, `test-${run}`).ofEnvironment(1);
  const target: AppTarget = { ...staging, appId: 1, appHandle: 'web-app' };

  beforeAll(async () => {
    await baseImage(engine);
    await webImage(engine, 'berth-test/web:1', 'version-one');
    await webImage(engine, 'berth-test/web:2', 'version-two');
    await builtImage(engine, 'berth-test/broken:1', {
      Dockerfile: `FROM ${BASE_IMAGE}\nENV PATH=/bin\nCMD ["/bin/sh", "-c", "echo cannot start: no database >&2; exit 3"]\n`,
    });
    stats = createDockerStatsRecorder(engine, { intervalMs: 60_000, installation: `test-${run}` });
    runtime = createDockerRuntime({
      docker: engine,
      gitDir,
      publicUrl: 'http://berth.test',
      network,
      healthTimeoutMs: 8000,
      stopTimeoutSeconds: 1,
      stats,
      installation: `test-${run}`,
      backupDir: '/nonexistent/backups',
      databaseImages: {},
    });
  }, 120_000);

  afterAll(async () => {
    stats?.close();
    for (const container of await containersLabelled(engine, { [LABELS.stack]: stackName }))
      await engine.getContainer(container.Id).remove({ force: true });
    await engine
      .getNetwork(ownNetwork)
      .remove()
      .catch(() => undefined);
    fs.rmSync(gitDir, { recursive: true, force: true });
  });

  it('runs an image: its containers answer on PORT, carry their labels and memory limit', async () => {
    const ctx = context();
    const image = await runtime.buildImage(ctx, target, { gitRepo: '', dockerImage: 'berth-test/web:1' });
    expect(image.dockerRef).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(image.dockerRepo).toBe('berth-test/web');
    expect(image.processes).toEqual([{ processType: 'cmd', command: null }]);

    const started = await runtime.rollOut(ctx, target, plan({ containerCount: 2 }), image, {
      GREETING: 'hi',
    });
    expect(started).toHaveLength(2);
    for (const container of started) {
      expect(container.port).toBe(5000);
      expect(await pageText(container.host, container.port)).toBe('version-one');
      const info = await engine.getContainer(container.dockerName).inspect();
      expect(info.HostConfig.Memory).toBe(64 * 1024 * 1024);
      expect(info.HostConfig.RestartPolicy?.Name).toBe('unless-stopped');
      expect(info.Config.Env).toEqual(expect.arrayContaining(['GREETING=hi', 'PORT=5000']));
      expect(info.Config.Labels[LABELS.service]).toBe('app-1/cmd');
      expect(info.Config.Labels[LABELS.release]).toBe(image.dockerRef);
    }
    expect(ctx.lines).toContain('Service cmd is healthy');
  });

  it('deploys a new release: new containers answer first, then the old ones go', async () => {
    const ctx = context();
    const before = await containersLabelled(engine, {
      [LABELS.stack]: stackName,
      [LABELS.service]: 'app-1/cmd',
    });
    const image = await runtime.buildImage(ctx, target, { gitRepo: '', dockerImage: 'berth-test/web:2' });
    const started = await runtime.rollOut(ctx, target, plan({ containerCount: 2 }), image, {});
    const after = await containersLabelled(engine, {
      [LABELS.stack]: stackName,
      [LABELS.service]: 'app-1/cmd',
    });
    expect(after.map((c) => c.Id).sort()).not.toEqual(before.map((c) => c.Id).sort());
    expect(after).toHaveLength(2);
    for (const container of started)
      expect(await pageText(container.host, container.port)).toBe('version-two');
    expect(ctx.lines).toContain('Stopping previous containers of service cmd');
  });

  it('fails a release whose containers do not answer, quoting their output, and keeps the old ones', async () => {
    const ctx = context();
    const image = await runtime.buildImage(ctx, target, { gitRepo: '', dockerImage: 'berth-test/broken:1' });
    await expect(runtime.rollOut(ctx, target, plan({ containerCount: 1 }), image, {})).rejects.toThrow(
      /exited with code 3 before it answered/,
    );
    expect(ctx.lines.join('\n')).toContain('cannot start: no database');
    expect(ctx.lines).toContain('The previous containers of service cmd keep running');
    const serving = await containersLabelled(engine, {
      [LABELS.stack]: stackName,
      [LABELS.service]: 'app-1/cmd',
    });
    expect(serving).toHaveLength(2);
    expect(serving.every((c) => c.State === 'running')).toBe(true);
    const info = await engine.getContainer(serving[0]?.Id ?? '').inspect();
    expect(await pageText(info.NetworkSettings.Networks[ownNetwork]?.IPAddress ?? '', 5000)).toBe(
      'version-two',
    );
  });

  it('restarts in place, recreates, and records real memory in the metrics', async () => {
    const ctx = context();
    const release = {
      image: {
        dockerRepo: 'berth-test/web',
        dockerRef: (await engine.getImage('berth-test/web:2').inspect()).Id,
      },
      env: {},
    };
    const restarted = await runtime.restart(ctx, target, plan({ containerCount: 2 }), false, release);
    expect(restarted).toHaveLength(2);
    for (const container of restarted)
      expect(await pageText(container.host, container.port)).toBe('version-two');

    const recreated = await runtime.restart(ctx, target, plan({ containerCount: 2 }), true, release);
    expect(recreated.map((c) => c.dockerName)).not.toEqual(restarted.map((c) => c.dockerName));
    for (const container of recreated)
      expect(await pageText(container.host, container.port)).toBe('version-two');

    // A container removed behind Berth's back: a restart starts the service's containers again.
    await engine.getContainer(recreated[0]?.dockerName ?? '').remove({ force: true });
    const healed = await runtime.restart(ctx, target, plan({ containerCount: 2 }), false, release);
    expect(healed).toHaveLength(2);
    expect(ctx.lines).toContain(
      'Service cmd has 1 of its 2 container(s) on the engine: starting them all again',
    );
    for (const container of healed)
      expect(await pageText(container.host, container.port)).toBe('version-two');
    expect(
      await containersLabelled(engine, { [LABELS.stack]: stackName, [LABELS.service]: 'app-1/cmd' }),
    ).toHaveLength(2);

    await stats.sample();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await stats.sample();
    const now = new Date();
    const ticks = [new Date(now.getTime() - 20_000), new Date(now.getTime() - 10_000), now];
    const [usage, limit] = stats.series(
      {
        id: 1,
        dockerName: healed[0]?.dockerName ?? '',
        layer: 'app',
        instanceClass: 'm5',
        memoryLimitMb: 64,
        startedAt: new Date(now.getTime() - 60_000),
        stoppedAt: null,
      },
      'memory_all',
      ticks,
    );
    expect(usage?.values.at(-1)).toBeGreaterThan(0);
    expect(usage?.values.at(-1)).toBeLessThan(64);
    expect(limit?.values.at(-1)).toBe(64);
    // Before the recorder's first sample there is nothing to show: a gap, not a made-up value.
    expect(usage?.values[0]).toBeNull();
  });

  it('scales to zero and removes the app', async () => {
    const ctx = context();
    const [one] = await containersLabelled(engine, {
      [LABELS.stack]: stackName,
      [LABELS.service]: 'app-1/cmd',
    });
    const image = { dockerRepo: 'berth-test/web', dockerRef: one?.ImageID ?? '' };
    expect(await runtime.rollOut(ctx, target, plan({ containerCount: 0 }), image, {})).toEqual([]);
    expect(
      await containersLabelled(engine, { [LABELS.stack]: stackName, [LABELS.service]: 'app-1/cmd' }),
    ).toEqual([]);
    await runtime.rollOut(ctx, target, plan({ containerCount: 1 }), image, {});
    await runtime.removeApp(ctx, target, { containers: [], images: [] });
    expect(await containersLabelled(engine, { [LABELS.stack]: stackName, [LABELS.app]: 'app-1' })).toEqual(
      [],
    );
  });

  it("reads its containers' output, both streams, oldest first", async () => {
    const ctx = context();
    const app: AppTarget = { ...staging, appId: 3, appHandle: 'chatty' };
    const image = await runtime.buildImage(ctx, app, { gitRepo: '', dockerImage: 'berth-test/busybox:1' });
    const [started] = await runtime.rollOut(
      ctx,
      app,
      plan({
        handle: 'worker',
        processType: 'worker',
        // A second apart: the two streams reach the engine by separate pipes.
        command: 'echo ready to work; sleep 1; echo low on disk >&2; exec sleep 3600',
      }),
      image,
      {},
    );
    const container = {
      id: 1,
      dockerName: started?.dockerName ?? '',
      layer: 'app',
      processType: 'worker',
      startedAt: new Date(),
    };
    let lines = await runtime.containerLogs([container], 10);
    for (let attempt = 0; attempt < 50 && lines.length < 2; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      lines = await runtime.containerLogs([container], 10);
    }
    expect(lines.map(({ stream, line }) => ({ stream, line }))).toEqual([
      { stream: 'stdout', line: 'ready to work' },
      { stream: 'stderr', line: 'low on disk' },
    ]);
    expect(lines[0]?.time.getTime()).toBeLessThanOrEqual(lines[1]?.time.getTime() ?? 0);
    expect(lines[0]?.container).toBe(started?.dockerName);
    expect(await runtime.containerLogs([container], 1)).toHaveLength(1);
    expect(await runtime.containerLogs([{ ...container, dockerName: 'no-such-container' }], 5)).toEqual([]);
    await runtime.removeApp(ctx, app, { containers: [], images: [] });
  });

  it('builds a pushed commit from its Dockerfile, streaming the build, with the Procfile processes', async () => {
    const app: AppTarget = { ...staging, appId: 2, appHandle: 'from-git' };
    const bare = path.join(gitDir, '2.git');
    const work = fs.mkdtempSync(path.join(tmpdir(), 'berth-work-'));
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd });
    fs.mkdirSync(bare, { recursive: true });
    git(bare, 'init', '--bare', '--quiet');
    git(work, 'init', '--quiet', '-b', 'main');
    fs.writeFileSync(
      path.join(work, 'Dockerfile'),
      `FROM ${BASE_IMAGE}\nENV PATH=/bin\nRUN mkdir -p /www && echo built-from-git > /www/index.html\n`,
    );
    fs.writeFileSync(
      path.join(work, 'Procfile'),
      'web: exec httpd -f -p $PORT -h /www\nworker: exec sleep 3600\n',
    );
    git(work, 'add', '.');
    git(work, 'commit', '--quiet', '-m', 'First version');
    git(work, 'push', '--quiet', bare, 'main');
    fs.rmSync(work, { recursive: true, force: true });

    const ctx = context();
    const scan = await runtime.scanCode(ctx, app, 'main');
    expect(scan.dockerfile).toContain('built-from-git');
    expect(scan.procfile).toContain('web:');

    const image = await runtime.buildImage(ctx, app, { gitRepo: 'git@example:from-git.git', gitRef: 'main' });
    expect(ctx.lines.some((line) => /^Step 3\/\d+ : RUN mkdir/.test(line))).toBe(true);
    expect(image.commit?.message).toBe('First version');
    expect(image.gitRepo).toBe('http://berth.test/git/staging/from-git.git');
    expect(image.processes).toEqual([
      { processType: 'web', command: 'exec httpd -f -p $PORT -h /www' },
      { processType: 'worker', command: 'exec sleep 3600' },
    ]);
    const [web] = await runtime.rollOut(
      ctx,
      app,
      plan({ handle: 'web', processType: 'web', command: image.processes[0]?.command ?? null }),
      image,
      {},
    );
    expect(await pageText(web?.host ?? '', web?.port ?? 0)).toBe('built-from-git');
    const [worker] = await runtime.rollOut(
      ctx,
      app,
      plan({ handle: 'worker', processType: 'worker', command: image.processes[1]?.command ?? null }),
      image,
      {},
    );
    expect(worker?.port).toBe(0);
    expect(worker?.status).toBe('running');

    await expect(
      runtime.buildImage(context(), app, { gitRepo: '', gitRef: 'no-such-branch' }),
    ).rejects.toThrow("fatal: couldn't find remote ref no-such-branch");
    await runtime.removeApp(ctx, app, { containers: [], images: [] });
  });
});
