import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { describe, expect, it, vi } from 'vitest';
import { ADMIN_USAGE, AdminUsageError, stopEdgeCommand } from '../../admin-commands.ts';
import { ensureDefaultStack } from '../../api/stacks/stacks.service.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { openTestDatabase } from '../../testing/test-database.ts';
import { containerEnv, registryAuthOf } from '../runtime.ts';
import { carryEdgeConfig, edgeBaseConfig } from './caddy-edge.ts';
import { edgePidFile, runningEdgePid, stopEdge, superviseEdge } from './caddy-process.ts';
import { createDockerRuntime, registryOf } from './docker-runtime.ts';
import { createDockerStatsRecorder } from './docker-stats.ts';
import { appKey, exposedPorts, isAppKey, isServiceKey, logLines, ofService, serviceKey } from './engine.ts';
import { parseProcfile } from './git-source.ts';

// The docker runtime's parts that need no engine (the rest runs in the docker suite).

/** The runtime on a stand-in engine, with settings that reach nothing real. */
function runtimeOn(docker: Docker, installation: string) {
  const stats = createDockerStatsRecorder(docker, { intervalMs: 60_000, installation: 'parts' });
  const runtime = createDockerRuntime({
    docker,
    gitDir: '/nonexistent',
    publicUrl: 'http://berth.test',
    network: 'berth',
    healthTimeoutMs: 1000,
    stopTimeoutSeconds: 1,
    stats,
    installation,
    backupDir: '/nonexistent/backups',
    databaseImages: {},
  });
  return { runtime, stats };
}

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

  it("takes an image's lowest TCP port, and names a service by its app's id and its handle", () => {
    const image = { Config: { ExposedPorts: { '8080/tcp': {}, '53/udp': {}, '3000/tcp': {} } } };
    expect(exposedPorts(image as never)).toEqual([3000, 8080]);
    expect(exposedPorts({ Config: {} } as never)).toEqual([]);
    // Handles repeat across organizations (which share the default stack); ids do not.
    expect(appKey({ appId: 12 })).toBe('app-12');
    expect(serviceKey({ appId: 12 }, 'web')).toBe('app-12/web');
    expect(isServiceKey('app-12/web')).toBe(true);
    expect(isServiceKey('shared/prod/shop/web')).toBe(false);
    expect(isAppKey('app-12')).toBe(true);
    expect(isAppKey('shared/prod/shop')).toBe(false);
  });

  it("finds a service's containers by its key, and an older Berth's handle-keyed ones only by the names Berth records", () => {
    const container = (name: string, service: string) =>
      ({ Names: [`/${name}`], Labels: { 'io.berth.layer': 'app', 'io.berth.service': service } }) as never;
    const own = container('prod-shop-web-1-aa', 'app-12/web');
    const legacyOwn = container('prod-shop-web-1-bb', 'shared/prod/shop/web');
    // Another organization's, under the very same handle key, and under its own id key.
    const legacyOther = container('prod-shop-web-1-cc', 'shared/prod/shop/web');
    const other = container('prod-shop-web-1-dd', 'app-13/web');
    const all = [own, legacyOwn, legacyOther, other];
    expect(ofService(all, 'app-12/web', ['prod-shop-web-1-bb'])).toEqual([own, legacyOwn]);
    expect(ofService(all, 'app-12/web', [])).toEqual([own]);
    // A name recorded for it that another app's id key labels is never its.
    expect(ofService(all, 'app-12/web', ['prod-shop-web-1-dd'])).toEqual([own]);
  });

  it('pulls with the registry the image names, and keeps the registry account from containers', () => {
    expect(registryOf('registry.example.com/team/app:1')).toBe('registry.example.com');
    expect(registryOf('127.0.0.1:5000/app')).toBe('127.0.0.1:5000');
    expect(registryOf('localhost/app')).toBe('localhost');
    expect(registryOf('team/app:1')).toBe('https://index.docker.io/v1/');
    expect(registryOf('nginx')).toBe('https://index.docker.io/v1/');
    const env = { A: '1', BERTH_PRIVATE_REGISTRY_USERNAME: 'robot', BERTH_PRIVATE_REGISTRY_PASSWORD: 'pw' };
    expect(registryAuthOf(env)).toEqual({ username: 'robot', password: 'pw' });
    expect(registryAuthOf({ BERTH_PRIVATE_REGISTRY_USERNAME: 'robot' })).toBeUndefined();
    expect(containerEnv(env)).toEqual({ A: '1' });
  });

  it('is chosen by BERTH_RUNTIME, whose other values stop the start', () => {
    expect(loadConfig({}).runtime).toBe('sim');
    expect(loadConfig({ BERTH_RUNTIME: 'docker' }).runtime).toBe('docker');
    expect(loadConfig({ BERTH_RUNTIME: ' Docker ' }).runtime).toBe('docker');
    expect(() => loadConfig({ BERTH_RUNTIME: 'kubernetes' })).toThrow(
      new ConfigError('BERTH_RUNTIME must be sim, docker or swarm, got "kubernetes"'),
    );
    expect(loadConfig({ BERTH_DATA_DIR: '/srv/berth' }).docker).toEqual({
      network: 'berth',
      healthTimeoutSeconds: 60,
      statsIntervalSeconds: 10,
      databaseImages: {},
      backupDir: '/srv/berth/backups',
    });
    expect(
      loadConfig({
        BERTH_DATABASE_IMAGES: 'postgresql=registry.example.com/pg:{version}, postgresql:15=pg15:latest',
      }).docker.databaseImages,
    ).toEqual({ postgresql: 'registry.example.com/pg:{version}', 'postgresql:15': 'pg15:latest' });
    for (const wrong of [
      'postgresql',
      'postgresql=',
      'Postgres=pg',
      'postgresql=pg=1',
      'postgresql=pg latest',
    ])
      expect(() => loadConfig({ BERTH_DATABASE_IMAGES: wrong })).toThrow(
        new ConfigError(
          `BERTH_DATABASE_IMAGES must be engine=image pairs separated by commas (postgresql=postgres:{version}), got "${wrong}"`,
        ),
      );
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
      // Default endpoint hostnames hang off BERTH_APPS_DOMAIN on the docker runtime.
      expect(await ensureDefaultStack(database.db, 'docker', 'apps.example.com')).toMatchObject({
        runtime: 'docker',
        defaultDomain: 'apps.example.com',
      });
      expect((await ensureDefaultStack(database.db, 'sim', 'apps.example.com')).defaultDomain).toBe(
        'on-berth.localhost',
      );
    } finally {
      await database.close();
    }
  });

  it('says plainly what it cannot run: TCP endpoints, endpoints without an edge, other engines, replicas', async () => {
    const docker = {} as Docker;
    const { runtime, stats } = runtimeOn(docker, 'parts');
    const lines: string[] = [];
    const ctx = { signal: new AbortController().signal, log: async (line: string) => void lines.push(line) };
    const endpoint = {
      id: 3,
      stackName: 'shared',
      region: 'local',
      defaultDomain: 'localhost',
      internalDomain: 'berth.internal',
      environmentHandle: 'prod',
      resourceHandle: 'shop',
      serviceHandle: 'web',
      appId: 12,
      databaseId: null,
      recordedContainers: [],
    };
    await expect(
      runtime.provisionEndpoint(ctx, endpoint, { type: 'tcp', default: true } as never),
    ).rejects.toThrow(
      'TCP endpoints are not available on the docker runtime: its edge routes HTTP by hostname',
    );
    await expect(
      runtime.provisionEndpoint(ctx, endpoint, { type: 'http_proxy_protocol', default: true } as never),
    ).rejects.toThrow(
      'HTTP endpoints with the PROXY protocol are not available on the docker runtime: choose HTTP',
    );
    await expect(
      runtime.provisionEndpoint(ctx, endpoint, { type: 'http', default: true } as never),
    ).rejects.toThrow('Endpoints need the edge, which this Berth does not run');
    await expect(
      runtime.provisionDatabase(ctx, { type: 'elasticsearch' } as never, {} as never, {} as never, {
        kind: 'empty',
      }),
    ).rejects.toThrow(
      'elasticsearch databases are not available on the docker runtime yet: it runs PostgreSQL, MySQL, Redis, MongoDB',
    );
    await expect(
      runtime.provisionDatabase(ctx, { type: 'redis', version: '3.0' } as never, {} as never, {} as never, {
        kind: 'empty',
      }),
    ).rejects.toThrow('Redis 3.0 is not available on the docker runtime: it runs Redis 6.2 and later');
    const postgres = { type: 'postgresql' } as never;
    await expect(
      runtime.provisionDatabase(ctx, postgres, {} as never, {} as never, { kind: 'replica' } as never),
    ).rejects.toThrow('Replicas are not available on the docker runtime yet');
    await expect(
      runtime.provisionDatabase(ctx, postgres, {} as never, {} as never, { kind: 'point_in_time' } as never),
    ).rejects.toThrow(
      'Point-in-time recovery is not available on the docker runtime: restore a backup instead',
    );
    expect(lines).toEqual([
      'TCP endpoints are not available on the docker runtime: its edge routes HTTP by hostname',
      'HTTP endpoints with the PROXY protocol are not available on the docker runtime: choose HTTP',
      'Endpoints need the edge, which this Berth does not run',
      'elasticsearch databases are not available on the docker runtime yet: it runs PostgreSQL, MySQL, Redis, MongoDB',
      'Redis 3.0 is not available on the docker runtime: it runs Redis 6.2 and later',
      'Replicas are not available on the docker runtime yet',
      'Point-in-time recovery is not available on the docker runtime: restore a backup instead',
    ]);
    stats.close();
  });
});

describe('a MongoDB database on the docker runtime, against a recording engine', () => {
  // No MongoDB image or package is reachable from this project's machines (no registry, and Debian ships
  // no MongoDB), so the docker suite cannot run one: this checks what Berth asks of the engine.
  it("runs the official image with the account made by the image's own variables, its data on a volume, and reaches it by a stable name", async () => {
    const listener = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => {
      listener.once('error', () => resolve()); // something answers on 27017 already
      listener.listen(27017, '127.0.0.1', resolve);
    });
    const created: Docker.ContainerCreateOptions[] = [];
    const volumes: string[] = [];
    const info = (name: string) => ({
      Id: 'c0ffee0000000000',
      Name: `/${name}`,
      State: { Running: true, Restarting: false, ExitCode: 0, Status: 'running' },
      NetworkSettings: { Networks: { 'berth-parts-in-env-3': { IPAddress: '127.0.0.1' } } },
    });
    const docker = {
      getImage: () => ({ inspect: async () => ({}) }),
      listContainers: async () => [],
      listNetworks: async () => [{ Name: 'berth-parts-in-env-3' }],
      getVolume: () => ({
        inspect: async () => {
          throw new Error('no such volume');
        },
      }),
      createVolume: async (options: { Name: string }) => void volumes.push(options.Name),
      createContainer: async (options: Docker.ContainerCreateOptions) => {
        created.push(options);
        return { id: 'c0ffee0000000000', start: async () => undefined, remove: async () => undefined };
      },
      getContainer: () => ({ inspect: async () => info(created.at(-1)?.name ?? '') }),
    } as unknown as Docker;
    const { runtime, stats } = runtimeOn(docker, 'parts-installation');
    try {
      const lines: string[] = [];
      const ctx = {
        signal: new AbortController().signal,
        log: async (line: string) => void lines.push(line),
      };
      const target = {
        id: 7,
        handle: 'catalog',
        type: 'mongodb',
        version: '7.0',
        dockerRepo: '',
        environmentId: 3,
        environmentHandle: 'prod',
        stackName: 'shared',
        region: 'local',
        internalDomain: 'berth.internal',
      };
      const plan = { containerSizeMb: 1024, instanceClass: 'm', diskSizeGb: 10, provisionedIops: 0 };
      const made = await runtime.provisionDatabase(
        ctx,
        target,
        plan,
        { username: 'berth', password: 'secret-1', name: 'db' },
        { kind: 'empty' },
      );
      const [container] = created;
      expect(container?.Image).toBe('mongo:7.0');
      expect(container?.Env).toEqual([
        'MONGO_INITDB_ROOT_USERNAME=berth',
        'MONGO_INITDB_ROOT_PASSWORD=secret-1',
        'MONGO_INITDB_DATABASE=db',
      ]);
      expect(container?.Cmd).toBeUndefined();
      expect(container?.StopSignal).toBe('SIGTERM');
      expect(container?.HostConfig?.Memory).toBe(1024 * 1024 * 1024);
      expect(container?.HostConfig?.Mounts).toEqual([
        { Type: 'volume', Source: volumes[0], Target: '/data/db' },
      ]);
      expect(made).toMatchObject({ host: 'catalog-7-parts-in', port: 27017 });
      // On its environment's network, named after this Berth and the environment's id.
      expect(container?.HostConfig?.NetworkMode).toBe('berth-parts-in-env-3');
      expect(container?.NetworkingConfig?.EndpointsConfig?.['berth-parts-in-env-3']?.Aliases).toEqual([
        made.host,
      ]);
      expect(container?.Labels?.['io.berth.environment-id']).toBe('3');
      expect(lines).toContain(
        'Database catalog is accepting connections at catalog-7-parts-in:27017 on the berth-parts-in-env-3 network',
      );
    } finally {
      stats.close();
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});

describe("the docker runtime's edge without Caddy running", () => {
  it('takes its settings from BERTH_APPS_DOMAIN, BERTH_EDGE_*_PORT, BERTH_ACME_EMAIL and BERTH_CADDY_PATH', () => {
    expect(loadConfig({ BERTH_DATA_DIR: '/srv/berth' }).edge).toEqual({
      appsDomain: 'localhost',
      httpPort: 8080,
      httpsPort: 8443,
      acmeEmail: null,
      caddyPath: 'caddy',
      dir: '/srv/berth/edge',
    });
    expect(
      loadConfig({
        BERTH_APPS_DOMAIN: 'Apps.Example.com.',
        BERTH_EDGE_HTTP_PORT: '80',
        BERTH_EDGE_HTTPS_PORT: '443',
        BERTH_ACME_EMAIL: 'ops@example.com',
        BERTH_CADDY_PATH: '/opt/caddy',
      }).edge,
    ).toMatchObject({
      appsDomain: 'apps.example.com',
      httpPort: 80,
      httpsPort: 443,
      acmeEmail: 'ops@example.com',
      caddyPath: '/opt/caddy',
    });
    expect(() => loadConfig({ BERTH_EDGE_HTTP_PORT: '70000' })).toThrow(
      new ConfigError('BERTH_EDGE_HTTP_PORT must be a port from 1 to 65535, got "70000"'),
    );
    expect(() => loadConfig({ BERTH_EDGE_HTTPS_PORT: 'https' })).toThrow(
      new ConfigError('BERTH_EDGE_HTTPS_PORT must be a port from 1 to 65535, got "https"'),
    );
    expect(() => loadConfig({ BERTH_APPS_DOMAIN: 'no_underscores.example' })).toThrow(
      new ConfigError(
        'BERTH_APPS_DOMAIN must be a domain name such as apps.example.com, got "no_underscores.example"',
      ),
    );
    // A long hostile value is refused by its length, before any pattern.
    expect(() => loadConfig({ BERTH_APPS_DOMAIN: `${'a.'.repeat(50_000)}x` })).toThrow(ConfigError);
    expect(() => loadConfig({ BERTH_ACME_EMAIL: 'not an address' })).toThrow(
      new ConfigError('BERTH_ACME_EMAIL must be an email address, got "not an address"'),
    );
  });

  it("keeps the endpoints Caddy saved across its restarts, in a base built from today's settings", () => {
    const settings = {
      adminSocket: '/data/edge/admin.sock',
      httpPort: 8080,
      httpsPort: 8443,
      acmeEmail: null,
    };
    const saved = {
      apps: {
        http: {
          servers: {
            'berth-http': {
              listen: [':9999'],
              routes: [
                { '@id': 'berth-ep-4-http', match: [{ host: ['a.localhost'] }] },
                { '@id': 'stranger' },
              ],
            },
            'berth-https': { routes: [{ '@id': 'berth-ep-5-https' }] },
          },
        },
        tls: {
          certificates: {
            load_pem: [{ '@id': 'berth-cert-5', certificate: 'PEM', key: 'KEY' }, { certificate: 'other' }],
            automate: ['managed.example.com'],
          },
        },
      },
    };
    const config = carryEdgeConfig(edgeBaseConfig(settings), saved) as {
      admin: { listen: string };
      apps: {
        http: { servers: Record<string, { listen: string[]; routes: { '@id': string }[] }> };
        tls: { certificates: { load_pem: unknown[]; automate: string[] } };
      };
    };
    expect(config.admin.listen).toBe('unix//data/edge/admin.sock');
    const servers = config.apps.http.servers;
    expect(servers['berth-http']?.listen).toEqual([':8080']);
    // The endpoints' routes first, the edge's own 404 last; nothing that is not Berth's.
    expect(servers['berth-http']?.routes.map((route) => route['@id'])).toEqual([
      'berth-ep-4-http',
      'berth-fallback-http',
    ]);
    expect(servers['berth-https']?.routes.map((route) => route['@id'])).toEqual([
      'berth-ep-5-https',
      'berth-fallback-https',
    ]);
    expect(config.apps.tls.certificates).toEqual({
      load_pem: [{ '@id': 'berth-cert-5', certificate: 'PEM', key: 'KEY' }],
      automate: ['managed.example.com'],
    });
    // A first start (nothing saved) is the bare base.
    expect(carryEdgeConfig(edgeBaseConfig(settings), null)).toEqual(edgeBaseConfig(settings));
  });

  it("never takes another process for the edge: a pid file's process must run the edge's configuration", async () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'berth-edge-'));
    try {
      expect(runningEdgePid(dir)).toBeNull();
      // The id of a process that is alive but is no Caddy of this directory (this very test process):
      // neither taken over nor stopped.
      fs.writeFileSync(edgePidFile(dir), `${process.pid}\n`);
      expect(runningEdgePid(dir)).toBeNull();
      expect(await stopEdgeCommand(dir, [])).toBe(`No edge (Caddy) runs from ${dir}.`);
      expect(fs.existsSync(edgePidFile(dir))).toBe(false);
      fs.writeFileSync(edgePidFile(dir), 'not a pid\n');
      expect(runningEdgePid(dir)).toBeNull();
      await expect(stopEdgeCommand(dir, ['--force'])).rejects.toThrow(
        new AdminUsageError(`Unknown option --force\n\n${ADMIN_USAGE}`),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("without /proc (macOS), takes a pid for the edge only when ps shows it runs this directory's configuration", async () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'berth-edge-'));
    const other = fs.mkdtempSync(path.join(tmpdir(), 'berth-edge-'));
    // A process with an edge's command line (`<caddy> run --config <dir>/caddy.json`), which it ignores.
    const standIn = spawn(
      process.execPath,
      ['-e', 'setInterval(() => {}, 1000)', 'run', '--config', path.join(dir, 'caddy.json')],
      { stdio: 'ignore' },
    );
    const existsSync = fs.existsSync;
    const noProc = vi
      .spyOn(fs, 'existsSync')
      .mockImplementation((file) => !String(file).startsWith('/proc') && existsSync(file));
    try {
      // A live process that took a dead edge's id (this very test process) is no edge: never stopped.
      fs.writeFileSync(edgePidFile(dir), `${process.pid}\n`);
      expect(runningEdgePid(dir)).toBeNull();
      expect(await stopEdge(dir)).toBeNull();
      fs.writeFileSync(edgePidFile(dir), `${standIn.pid}\n`);
      // Once it runs its own command line (not its parent's, as between fork and exec).
      await expect.poll(() => runningEdgePid(dir)).toBe(standIn.pid);
      // Another directory's edge it is not.
      fs.writeFileSync(edgePidFile(other), `${standIn.pid}\n`);
      expect(runningEdgePid(other)).toBeNull();
      expect(noProc).toHaveBeenCalledWith('/proc/self');
    } finally {
      noProc.mockRestore();
      standIn.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('says how to get Caddy when its binary is missing', async () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'berth-edge-'));
    try {
      const edge = superviseEdge({
        adminSocket: path.join(dir, 'admin.sock'),
        httpPort: 18080,
        httpsPort: 18443,
        acmeEmail: null,
        caddyPath: path.join(dir, 'no-caddy-here'),
        dir,
      });
      await expect(edge.start()).rejects.toThrow(
        /cannot start: spawn \S+no-caddy-here ENOENT\. Install Caddy \(Debian: apt-get install caddy\) or set BERTH_CADDY_PATH\./,
      );
      await edge.stop();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
