/**
 * The benchmarks' organization (not a test): one user with a real token and one organization holding
 * (at the standard size) 5000 apps, 5000 services, 20000 operations and 5000 databases (each with its
 * service, disk, sealed credential and two backups), bulk-inserted 1000 rows a statement; the large size
 * has 50,000 apps and services and 200,000 operations. Shared by `npm run bench` (the API) and
 * `npm run bench:web` (the console in Chromium).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ensureDefaultStack } from '../src/api/stacks/stacks.service.ts';
import { buildApp } from '../src/app.ts';
import { loadSigningKey } from '../src/auth/tokens/token-keys.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import {
  apps,
  backups,
  containers,
  databaseCredentials,
  databases,
  disks,
  environments,
  operations,
  releases,
  services,
  users,
} from '../src/db/schema.ts';
import { databaseCredentialsBox } from '../src/security/secret-box.ts';
import { openThrowawayPostgres } from '../src/testing/test-database.ts';
import { seedSearchable } from './search.ts';
import { type Served, startServer, stopServer } from './server.ts';

export interface BenchSize {
  label: string;
  apps: number;
  operations: number;
  databases: number;
}
/** The console's benchmark size (issue 11). */
export const STANDARD_SIZE: BenchSize = {
  label: '5,000 apps',
  apps: 5000,
  operations: 20000,
  databases: 5000,
};
/** An organization ten times larger (issue 19): the lists page, the costs and counts must not grow. */
export const LARGE_SIZE: BenchSize = {
  label: '50,000 apps',
  apps: 50000,
  operations: 200000,
  databases: 5000,
};
/**
 * The small organization seeded beside the benchmarks' one (the same handles, refs and commits, so every
 * text it searches matches thousands of the other's rows too): no tenant can delay another's work.
 */
export const SMALL_TENANT: BenchSize = {
  label: 'a small organization (50 apps) on the same installation',
  apps: 50,
  operations: 200,
  databases: 10,
};
const SERVICES_PER_APP = 1;
export const ENVIRONMENTS = 10;
const CHUNK = 1000;
export const BENCH_PASSWORD = 'Bench-Password9';
const PASSWORD = BENCH_PASSWORD;

export interface BenchOrganization {
  email: string;
  token: string;
  organizationId: string;
  /** One running container, for the metric tunnel. */
  containerId: number;
  counts: { environments: number; apps: number; services: number; operations: number; databases: number };
}

async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) await insert(rows.slice(start, start + CHUNK));
}

/** A HAL request through app.inject, as the console sends it (with a bearer token when given). */
export function benchCall(app: FastifyInstance) {
  return (method: 'GET' | 'POST', url: string, token?: string, body?: unknown) =>
    app.inject({
      method,
      url,
      headers: {
        'content-type': 'application/hal+json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
}

/** Signs a user up through the auth family, then fills its new organization directly in the database. */
export async function seedBenchOrganization(
  app: FastifyInstance,
  database: Database,
  config: Config,
  size: BenchSize = STANDARD_SIZE,
): Promise<BenchOrganization> {
  const { db } = database;
  const { apps: APPS, operations: OPERATIONS, databases: DATABASES } = size;
  const call = benchCall(app);
  // A real user, token and organization, through the auth family.
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  const signUp = await call('POST', '/auth/users', undefined, {
    name: 'Bench User',
    email,
    password: PASSWORD,
    challengeToken: '',
    origin: 'app',
  });
  if (signUp.statusCode !== 201) throw new Error(`sign-up failed: ${signUp.body}`);
  await db.update(users).set({ verified: true }).where(eq(users.email, email));
  const login = await call('POST', '/auth/tokens', undefined, {
    username: email,
    password: PASSWORD,
    otp_token: '',
    grant_type: 'password',
    scope: 'manage',
    expires_in: 43200,
  });
  if (login.statusCode !== 201) throw new Error(`login failed: ${login.body}`);
  const token: string = login.json().access_token;
  const organization = await call('POST', '/auth/organizations', token, { name: 'Bench Org' });
  if (organization.statusCode !== 201) throw new Error(`organization failed: ${organization.body}`);
  const organizationId: string = organization.json().id;
  const userId: string = signUp.json().id;

  const stack = await ensureDefaultStack(db);
  const envRows = await db
    .insert(environments)
    .values(
      Array.from({ length: ENVIRONMENTS }, (_, i) => ({
        organizationId,
        stackId: stack.id,
        handle: `env-${i}`,
        onboardingStatus: 'completed',
      })),
    )
    .returning({ id: environments.id });
  const envIds = envRows.map((row) => row.id);
  const envOf = (i: number) => envIds[i % envIds.length] as number;

  const appIds: number[] = [];
  await insertInChunks(
    Array.from({ length: APPS }, (_, i) => ({
      environmentId: envOf(i),
      handle: `app-${i}`,
      status: 'provisioned',
      deploymentMethod: 'git',
    })),
    async (chunk) => {
      const inserted = await db.insert(apps).values(chunk).returning({ id: apps.id });
      appIds.push(...inserted.map((row) => row.id));
    },
  );

  const serviceIds: number[] = [];
  await insertInChunks(
    appIds.flatMap((appId, i) =>
      Array.from({ length: SERVICES_PER_APP }, (_, s) => ({
        environmentId: envOf(i),
        appId,
        handle: s === 0 ? 'web' : `worker-${s}`,
        processType: s === 0 ? 'web' : `worker-${s}`,
        containerCount: 1 + (i % 3),
        containerMemoryLimitMb: 512 * (1 + (i % 4)),
        instanceClass: ['m5', 'r5', 'c5'][i % 3] as string,
      })),
    ),
    async (chunk) => {
      const inserted = await db.insert(services).values(chunk).returning({ id: services.id });
      serviceIds.push(...inserted.map((row) => row.id));
    },
  );

  // Four operations per app on average, spread over the last two weeks; a few still queued or failed.
  const now = Date.now();
  const appTypes = ['provision', 'deploy', 'configure', 'restart'];
  const serviceTypes = ['scale', 'restart'];
  await insertInChunks(
    Array.from({ length: OPERATIONS }, (_, i) => {
      const onService = i % 5 === 4;
      const index = Math.floor(i / 4) % APPS;
      const at = new Date(now - (OPERATIONS - i) * 60_000);
      return {
        organizationId,
        environmentId: envOf(index),
        resourceType: onService ? 'service' : 'app',
        resourceId: (onService ? serviceIds[index] : appIds[index]) as number,
        resourceHandle: onService ? 'web' : `app-${index}`,
        type: (onService ? serviceTypes[i % 2] : appTypes[i % 4]) as string,
        status: i % 97 === 0 ? 'failed' : 'succeeded',
        userId,
        userName: 'Bench User',
        userEmail: email,
        gitRef: onService ? null : 'main',
        startedAt: at,
        finishedAt: new Date(at.getTime() + 30_000),
        createdAt: at,
        updatedAt: new Date(at.getTime() + 30_000),
      };
    }),
    (chunk) => db.insert(operations).values(chunk),
  );
  // Databases as provisioning leaves them: a service, a disk and a sealed credential each, two backups.
  const secrets = databaseCredentialsBox(await loadSigningKey(db, config.jwtSecret));
  const databaseIds: number[] = [];
  await insertInChunks(
    Array.from({ length: DATABASES }, (_, i) => ({
      environmentId: envOf(i),
      handle: `db-${i}`,
      type: i % 2 ? 'redis' : 'postgresql',
      status: 'provisioned',
      provisioned: true,
      portMapping: [[5432, 5432]] as [number, number][],
    })),
    async (chunk) => {
      const inserted = await db.insert(databases).values(chunk).returning({ id: databases.id });
      databaseIds.push(...inserted.map((row) => row.id));
    },
  );
  await insertInChunks(
    databaseIds.map((databaseId, i) => ({
      environmentId: envOf(i),
      databaseId,
      handle: i % 2 ? 'redis' : 'postgresql',
      processType: 'database',
      containerMemoryLimitMb: 1024 * (1 + (i % 4)),
    })),
    (chunk) => db.insert(services).values(chunk),
  );
  await insertInChunks(
    databaseIds.map((databaseId, i) => ({
      databaseId,
      environmentId: envOf(i),
      handle: `db-${i}-data`,
      size: 10 + (i % 100),
      provisionedIops: 3000 + (i % 5) * 1000,
    })),
    (chunk) => db.insert(disks).values(chunk),
  );
  await insertInChunks(
    databaseIds.map((databaseId, i) => ({
      databaseId,
      type: i % 2 ? 'redis' : 'postgresql',
      connectionUrlSealed: secrets.seal(
        `postgresql://berth:${randomBytes(24).toString('base64url')}@db-${i}.bench:5432/db`,
      ),
    })),
    (chunk) => db.insert(databaseCredentials).values(chunk),
  );
  await insertInChunks(
    databaseIds.flatMap((databaseId, i) =>
      [1, 2].map((day) => ({
        environmentId: envOf(i),
        databaseId,
        databaseHandle: `db-${i}`,
        databaseType: 'postgresql',
        kind: day === 1 ? 'auto' : 'manual',
        sizeGb: 0.5 + (i % 10) / 10,
        // Today's automatic backup, six hours old: the organization as the daily pass leaves it, not one
        // whose 5,000 backups fall due as the timed server starts (its worker would take them meanwhile).
        createdAt: new Date(now - (day === 1 ? 6 * 3_600_000 : day * 86_400_000)),
      })),
    ),
    (chunk) => db.insert(backups).values(chunk),
  );
  // One running container (started a day ago) for the metric tunnel call.
  const [release] = await db
    .insert(releases)
    .values({ serviceId: serviceIds[0] as number })
    .returning({ id: releases.id });
  const [container] = await db
    .insert(containers)
    .values({
      releaseId: release?.id as number,
      dockerName: 'app-0-web-1-bench',
      host: 'bench-host',
      status: 'running',
      memoryLimit: 1024,
      createdAt: new Date(now - 86400_000),
    })
    .returning({ id: containers.id });
  // What global search finds besides (issue 38): a deployment per app, sources and some endpoints.
  await seedSearchable(db, { id: organizationId, appIds, webServiceIds: serviceIds, environmentOf: envOf });
  // The tables as autovacuum keeps them in an organization that grew over time: the planner's statistics
  // (timed right after a bulk insert, the first calls would otherwise be planned on an empty table's
  // estimates) and the visibility map. Left to autovacuum, the insert-triggered vacuum of 200,000
  // operations ran during the timed calls and made their tail.
  await db.execute(sql`vacuum analyze`);
  return {
    email,
    token,
    organizationId,
    containerId: container?.id as number,
    counts: {
      environments: envIds.length,
      apps: appIds.length,
      services: serviceIds.length,
      operations: OPERATIONS,
      databases: databaseIds.length,
    },
  };
}

export interface SeededServer extends BenchOrganization {
  served: Served;
  /** The other organization seeded on the same installation, when one was asked for. */
  neighbour?: BenchOrganization;
  cleanup(): Promise<void>;
}

/**
 * Seeds through a server built in this process, closes it, and serves the data from a server process of
 * its own: in a fresh PGlite data directory, or in a throwaway database of the PostgreSQL server at
 * `adminUrl` (dropped by cleanup).
 */
export async function seededServer(
  size: BenchSize,
  adminUrl?: string,
  /** More rows for one benchmark's calls (home's sources and deployments), added before it is served. */
  extra?: (db: Database['db'], organization: BenchOrganization) => Promise<void>,
  /** Another organization of this size, seeded after the first (a small tenant on a large installation). */
  neighbourSize?: BenchSize,
): Promise<SeededServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'berth-bench-'));
  let database: Database;
  let databaseUrl: string | undefined;
  if (adminUrl) {
    database = await openThrowawayPostgres(adminUrl, 'berth_bench');
    databaseUrl = database.url;
  } else {
    database = await openDatabase({ dataDir });
  }
  const config = { ...loadConfig({ BERTH_DATA_DIR: dataDir }), worker: false };
  const built = await buildApp(config, { database });
  const seedStart = performance.now();
  const seeded = await seedBenchOrganization(built.app, database, config, size);
  if (extra) await extra(database.db, seeded);
  const neighbour = neighbourSize
    ? await seedBenchOrganization(built.app, database, config, neighbourSize)
    : undefined;
  console.log(
    `seeded ${seeded.counts.apps} apps, ${seeded.counts.services} services, ${seeded.counts.databases} databases, ` +
      `${seeded.counts.operations} operations in ${((performance.now() - seedStart) / 1000).toFixed(1)} s ` +
      `(${adminUrl ? 'PostgreSQL' : 'PGlite'})`,
  );
  // The throwaway PostgreSQL database outlives this handle until cleanup drops it.
  await built.app.close();
  if (!adminUrl) await database.close();
  const served = await startServer({
    BERTH_DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    // The benchmarks sign in often from one address.
    BERTH_LOGIN_LIMIT_PER_ADDRESS: '100000',
    BERTH_LOGIN_LIMIT_PER_ACCOUNT: '100000',
  });
  return {
    ...seeded,
    served,
    ...(neighbour ? { neighbour } : {}),
    async cleanup() {
      await stopServer(served);
      if (adminUrl) await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
