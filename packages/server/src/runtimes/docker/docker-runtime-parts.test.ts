import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { ensureDefaultStack } from '../../api/stacks/stacks.service.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { openTestDatabase } from '../../testing/test-database.ts';
import { createDockerRuntime } from './docker-runtime.ts';
import { createDockerStatsRecorder } from './docker-stats.ts';
import { exposedPorts, logLines, serviceKey } from './engine.ts';
import { parseProcfile } from './git-source.ts';

// The docker runtime's parts that need no engine (the rest runs in the docker suite).

describe('the docker runtime without an engine', () => {
  it('reads a Procfile: name and command per line, comments and malformed lines skipped', () => {
    expect(
      parseProcfile(
        '# processes\nweb: bundle exec puma -p $PORT\n\nworker:   sidekiq -c 5 \nnot a process\n: no name\nweb: duplicate\nbad name: x\n',
      ),
    ).toEqual([
      { processType: 'web', command: 'bundle exec puma -p $PORT' },
      { processType: 'worker', command: 'sidekiq -c 5' },
    ]);
    expect(parseProcfile('')).toEqual([]);
    // A very long line costs one pass, and is skipped.
    expect(parseProcfile(`web: ${'x'.repeat(100_000)}`)).toEqual([]);
  });

  it("splits the engine's framed log stream into lines per stream", () => {
    const frame = (stream: number, text: string) => {
      const header = Buffer.alloc(8);
      header[0] = stream;
      header.writeUInt32BE(Buffer.byteLength(text), 4);
      return Buffer.concat([header, Buffer.from(text)]);
    };
    const raw = Buffer.concat([
      frame(1, 'listening on 5000\nrequest 1'),
      frame(2, 'warning: slow\r\n'),
      frame(1, ' done\n'),
    ]);
    expect(logLines(raw)).toEqual([
      { stream: 'stdout', line: 'listening on 5000' },
      { stream: 'stderr', line: 'warning: slow' },
      { stream: 'stdout', line: 'request 1 done' },
    ]);
    // A frame cut short is dropped, not read past the buffer's end.
    expect(logLines(frame(1, 'whole\n').subarray(0, 10))).toEqual([]);
  });

  it("takes an image's lowest TCP port, and names a service by stack, environment, app and handle", () => {
    const image = { Config: { ExposedPorts: { '8080/tcp': {}, '53/udp': {}, '3000/tcp': {} } } };
    expect(exposedPorts(image as never)).toEqual([3000, 8080]);
    expect(exposedPorts({ Config: {} } as never)).toEqual([]);
    expect(
      serviceKey({ appId: 1, stackName: 'shared', environmentHandle: 'prod', appHandle: 'shop' }, 'web'),
    ).toBe('shared/prod/shop/web');
  });

  it('is chosen by BERTH_RUNTIME, whose other values stop the start', () => {
    expect(loadConfig({}).runtime).toBe('sim');
    expect(loadConfig({ BERTH_RUNTIME: 'docker' }).runtime).toBe('docker');
    expect(loadConfig({ BERTH_RUNTIME: ' Docker ' }).runtime).toBe('docker');
    expect(() => loadConfig({ BERTH_RUNTIME: 'kubernetes' })).toThrow(
      new ConfigError('BERTH_RUNTIME must be sim or docker, got "kubernetes"'),
    );
    expect(loadConfig({}).docker).toEqual({
      network: 'berth',
      healthTimeoutSeconds: 60,
      statsIntervalSeconds: 10,
    });
    expect(loadConfig({ BERTH_DOCKER_NETWORK: 'apps_1' }).docker.network).toBe('apps_1');
    expect(() => loadConfig({ BERTH_DOCKER_NETWORK: 'no spaces' })).toThrow(
      new ConfigError(
        'BERTH_DOCKER_NETWORK must be a Docker network name (letters, digits, _ . -), got "no spaces"',
      ),
    );
  });

  it('moves the default shared stack to the configured runtime at each start', async () => {
    const database = await openTestDatabase();
    try {
      expect((await ensureDefaultStack(database.db)).runtime).toBe('sim');
      expect((await ensureDefaultStack(database.db, 'docker')).runtime).toBe('docker');
      expect((await ensureDefaultStack(database.db, 'sim')).runtime).toBe('sim');
    } finally {
      await database.close();
    }
  });

  it('says plainly what it does not run yet: its endpoint and database operations fail with that', async () => {
    const docker = {} as Docker;
    const stats = createDockerStatsRecorder(docker, { intervalMs: 60_000, installation: 'parts' });
    const runtime = createDockerRuntime({
      docker,
      gitDir: '/nonexistent',
      publicUrl: 'http://berth.test',
      network: 'berth',
      healthTimeoutMs: 1000,
      stopTimeoutSeconds: 1,
      stats,
      installation: 'parts',
    });
    const lines: string[] = [];
    const ctx = { signal: new AbortController().signal, log: async (line: string) => void lines.push(line) };
    await expect(runtime.provisionEndpoint(ctx, {} as never, {} as never)).rejects.toThrow(
      'Endpoints are not available on the docker runtime yet',
    );
    await expect(
      runtime.provisionDatabase(ctx, {} as never, {} as never, {} as never, { kind: 'empty' }),
    ).rejects.toThrow('Databases are not available on the docker runtime yet');
    expect(lines).toEqual([
      'Endpoints are not available on the docker runtime yet',
      'Databases are not available on the docker runtime yet',
    ]);
    stats.close();
  });
});
