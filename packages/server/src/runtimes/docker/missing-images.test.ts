import type Docker from 'dockerode';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseTarget, Runtime } from '../runtime.ts';
import { createDockerRuntime } from './docker-runtime.ts';
import { createDockerStatsRecorder, type DockerStatsRecorder } from './docker-stats.ts';
import { installedVersions, localImageTag } from './local-images.ts';

// Issue 35: an image the engine has not and cannot pull (a machine with no registry) fails its operation
// with what to do about it. The engine here is a stand-in that has no image and reaches no registry, as
// the engine of an air-gapped machine answers.

const NO_REGISTRY =
  'Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io: no such host';

const airGapped = {
  getImage: () => ({
    inspect: async () => {
      throw new Error('No such image');
    },
  }),
  pull: async () => {
    throw new Error(NO_REGISTRY);
  },
} as unknown as Docker;

let stats: DockerStatsRecorder | undefined;
afterEach(() => stats?.close());

function runtime(databaseImages: Record<string, string> = {}): Runtime {
  stats = createDockerStatsRecorder(airGapped, { intervalMs: 60_000, installation: 'missing-images' });
  return createDockerRuntime({
    docker: airGapped,
    gitDir: '/nonexistent',
    publicUrl: 'http://berth.test',
    network: 'berth',
    healthTimeoutMs: 1000,
    stopTimeoutSeconds: 1,
    stats,
    installation: 'missing-images',
    backupDir: '/nonexistent/backups',
    databaseImages,
  });
}

function context() {
  const lines: string[] = [];
  return { lines, signal: new AbortController().signal, log: async (line: string) => void lines.push(line) };
}

const app = {
  appId: 1,
  appHandle: 'shop',
  environmentId: 2,
  environmentHandle: 'production',
  stackName: 'shared',
  environmentDatabaseIds: [],
};

describe("an app's image that cannot be pulled", () => {
  it('says to set the registry account, or to put the image on the engine and deploy again', async () => {
    const ctx = context();
    const message = `Unable to pull registry.example.com/shop/web:1: ${NO_REGISTRY}. If the registry is private, set BERTH_PRIVATE_REGISTRY_USERNAME and BERTH_PRIVATE_REGISTRY_PASSWORD in the app's configuration; if this machine cannot reach the registry, put the image on its Docker engine (docker load, or docker build -t registry.example.com/shop/web:1) and deploy again: an image the engine has is used without pulling`;
    await expect(
      runtime().buildImage(ctx, app, { gitRepo: '', dockerImage: 'registry.example.com/shop/web:1' }),
    ).rejects.toThrow(message);
    expect(ctx.lines.at(-1)).toBe(message);
  });

  it('with a registry account, says to check it (never its password)', async () => {
    const ctx = context();
    const attempt = runtime().buildImage(ctx, app, {
      gitRepo: '',
      dockerImage: 'registry.example.com/shop/web:1',
      registryAuth: { username: 'robot', password: 's3cret' },
    });
    await expect(attempt).rejects.toThrow(
      `Unable to pull registry.example.com/shop/web:1 as robot: ${NO_REGISTRY}. Check the app's BERTH_PRIVATE_REGISTRY_USERNAME and BERTH_PRIVATE_REGISTRY_PASSWORD; if this machine cannot reach the registry, put the image on its Docker engine (docker load, or docker build -t registry.example.com/shop/web:1) and deploy again`,
    );
    expect(ctx.lines.join('\n')).not.toContain('s3cret');
  });
});

describe("a database's image that cannot be pulled", () => {
  const database = (type: string, version: string): DatabaseTarget => ({
    id: 7,
    handle: 'orders',
    type,
    version,
    dockerRepo: '',
    environmentId: 2,
    environmentHandle: 'production',
    stackName: 'shared',
    region: 'local',
    internalDomain: 'berth.internal',
  });
  const plan = { containerSizeMb: 1024, instanceClass: 'm', diskSizeGb: 10, provisionedIops: 0 };
  const account = { username: 'berth', password: 'secret-1', name: 'db' };

  it('says which npm run images command makes the image, from the version this machine holds', async () => {
    const elsewhere =
      'put it on the engine (docker load) or set BERTH_DATABASE_IMAGES to an image the engine has';
    for (const [type, version, image] of [
      ['postgresql', '15', 'postgres:15'],
      ['mysql', '8.4', 'mysql:8.4'],
      ['redis', '7.2', 'redis:7.2'],
    ] as const) {
      // What this machine's Debian packages hold decides the advice (CI's: PostgreSQL 15, MariaDB
      // 10.11, Redis 7.0): the version itself, another one to point this version at, or none.
      const [held] = installedVersions(type);
      const advice =
        held === version
          ? `On a machine that cannot pull, make it from this machine's Debian packages: npm run images -- ${type} ${version} (or ${elsewhere})`
          : held
            ? `This machine's packages hold version ${held}, not ${version}: make that image (npm run images -- ${type} ${held}) and run this version on it with BERTH_DATABASE_IMAGES=${type}:${version}=${localImageTag(type, held)}, or ${elsewhere}`
            : `Put it on the engine (docker load) or set BERTH_DATABASE_IMAGES to an image the engine has`;
      const ctx = context();
      await expect(
        runtime().provisionDatabase(ctx, database(type, version), plan, account, { kind: 'empty' }),
      ).rejects.toThrow(`Unable to pull ${image}: ${NO_REGISTRY}. ${advice}`);
      expect(ctx.lines).toContain(`Pulling Docker image ${image}`);
    }
  });

  it('never gives a command that cannot work: a version this machine does not hold is no npm run images', async () => {
    const ctx = context();
    await expect(
      runtime().provisionDatabase(ctx, database('redis', '6.2'), plan, account, { kind: 'empty' }),
    ).rejects.toThrow(/Unable to pull redis:6\.2/);
    if (!installedVersions('redis').includes('6.2'))
      expect(ctx.lines.join('\n')).not.toContain('npm run images -- redis 6.2');
  });

  it('says to put any other image on the engine: one BERTH_DATABASE_IMAGES names, or MongoDB', async () => {
    const configured = runtime({ postgresql: 'registry.example.com/pg:{version}' });
    await expect(
      configured.provisionDatabase(context(), database('postgresql', '15'), plan, account, { kind: 'empty' }),
    ).rejects.toThrow(
      `Unable to pull registry.example.com/pg:15: ${NO_REGISTRY}. Put it on the engine (docker load) or set BERTH_DATABASE_IMAGES to an image the engine has`,
    );
    await expect(
      runtime().provisionDatabase(context(), database('mongodb', '7.0'), plan, account, { kind: 'empty' }),
    ).rejects.toThrow(
      `Unable to pull mongo:7.0: ${NO_REGISTRY}. Put it on the engine (docker load) or set BERTH_DATABASE_IMAGES to an image the engine has`,
    );
  });
});
