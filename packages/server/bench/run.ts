/**
 * Start-up list latency benchmark (issue 3; not a test): `npm run bench`.
 *
 * Fills one organization with 5000 apps, 5000 services, 20000 operations and 5000 databases (each with
 * its service, disk, sealed credential and two backups) (bulk inserts, 1000 rows a statement), then times the list calls the console makes at start-up (contract §7 steps 7 and 8)
 * through app.inject with a real token: median and p99 over RUNS calls after WARMUP calls.
 * Runs on in-memory PGlite, and on PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a
 * server: a throwaway database is created there and dropped afterwards.
 * Calls whose route does not exist yet are reported as "not available (404)". The metric tunnel's
 * GET /proxy/:containerId is timed too (one container's series, computed by the sim runtime).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { ensureDefaultStack } from '../src/api/stacks/stacks.service.ts';
import { buildApp } from '../src/app.ts';
import { loadSigningKey } from '../src/auth/tokens/token-keys.ts';
import { loadConfig } from '../src/config.ts';
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

const APPS = 5000;
const SERVICES_PER_APP = 1;
const OPERATIONS = 20000;
const DATABASES = 5000;
const ENVIRONMENTS = 10;
const CHUNK = 1000;
const RUNS = Number.parseInt(process.env.BENCH_RUNS ?? '30', 10);
const WARMUP = 3;
const PASSWORD = 'Bench-Password9';

interface Target {
  name: string;
  open(): Promise<Database>;
}

interface Row {
  target: string;
  call: string;
  status: string;
  items: string;
  kb: string;
  median: string;
  p99: string;
}

function targets(): Target[] {
  const list: Target[] = [{ name: 'PGlite (memory)', open: () => openDatabase({ dataDir: 'memory://' }) }];
  const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (serverUrl)
    list.push({ name: 'PostgreSQL', open: () => openThrowawayPostgres(serverUrl, 'berth_bench') });
  return list;
}

async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) await insert(rows.slice(start, start + CHUNK));
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

async function benchTarget(target: Target): Promise<Row[]> {
  const database = await target.open();
  const config = { ...loadConfig({}), publicUrl: 'http://bench.local', worker: false };
  const built = await buildApp(config, { database });
  const { app } = built;
  const { db } = database;
  const call = (method: 'GET' | 'POST', url: string, token?: string, body?: unknown) =>
    app.inject({
      method,
      url,
      headers: {
        'content-type': 'application/hal+json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  try {
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

    const seedStart = performance.now();
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
          createdAt: new Date(now - day * 86_400_000),
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
    const seedMs = performance.now() - seedStart;
    console.log(
      `${target.name}: seeded ${ENVIRONMENTS} environments, ${appIds.length} apps, ${serviceIds.length} services, ` +
        `${OPERATIONS} operations, ${databaseIds.length} databases in ${(seedMs / 1000).toFixed(1)} s`,
    );

    const calls = [
      '/api/stacks?per_page=5000',
      '/api/accounts?per_page=5000&no_embed=true&metrics[]=app_count&metrics[]=database_count',
      '/api/apps?per_page=5000&no_embed=true',
      '/api/services?per_page=5000',
      `/api/organizations/${organizationId}/operations?page=1`,
      // The rest of the start-up fan-out this server has so far (contract §7 steps 7 and 8).
      '/api/database_images',
      '/api/databases?per_page=5000&no_embed=true',
      // The /databases page asks for the disks too (the embedded list), and the backups page for 1500.
      '/api/databases?per_page=5000',
      '/api/backups?per_page=1500&page=1',
      '/api/deployments?per_page=5000',
      '/api/sources',
      `/api/costs/${organizationId}/accounts`,
      `/api/costs/${organizationId}/apps`,
      `/api/costs/${organizationId}/services`,
      `/api/costs/${organizationId}/databases`,
      // One chart series as the Metrics tab asks for it (contract §5.14), and the largest one allowed.
      `/metrics/proxy/${container?.id}?horizon=1h&metric=memory_all&requestedTicks=300`,
      `/metrics/proxy/${container?.id}?horizon=1w&metric=cpu_pct&requestedTicks=1000`,
    ];
    const rows: Row[] = [];
    for (const url of calls) {
      const label = url.replace(organizationId, ':orgId');
      const first = await call('GET', url, token);
      if (first.statusCode === 404 && first.json().message?.startsWith('No route')) {
        rows.push({
          target: target.name,
          call: label,
          status: 'not available (404)',
          items: '',
          kb: '',
          median: '',
          p99: '',
        });
        continue;
      }
      if (first.statusCode !== 200) {
        rows.push({
          target: target.name,
          call: label,
          status: `HTTP ${first.statusCode}`,
          items: '',
          kb: '',
          median: '',
          p99: '',
        });
        continue;
      }
      const body = first.json();
      // Plain JSON answers (the metric tunnel's table) have no items to count.
      const embedded = body._embedded ? (Object.values(body._embedded)[0] as unknown[]) : null;
      for (let i = 0; i < WARMUP; i += 1) await call('GET', url, token);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const start = performance.now();
        const response = await call('GET', url, token);
        times.push(performance.now() - start);
        if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
      }
      times.sort((a, b) => a - b);
      rows.push({
        target: target.name,
        call: label,
        status: '200',
        items: String(Array.isArray(embedded) ? embedded.length : ''),
        kb: (first.rawPayload.length / 1024).toFixed(0),
        median: percentile(times, 50).toFixed(1),
        p99: percentile(times, 99).toFixed(1),
      });
    }
    return rows;
  } finally {
    await built.close();
  }
}

function printTable(rows: Row[]): void {
  const header: Row = {
    target: 'database',
    call: 'call',
    status: 'status',
    items: 'items',
    kb: 'KiB',
    median: 'median ms',
    p99: 'p99 ms',
  };
  const keys = Object.keys(header) as (keyof Row)[];
  const widths = keys.map((key) => Math.max(...[header, ...rows].map((row) => row[key].length)));
  const line = (row: Row) =>
    `| ${keys
      .map((key, i) => {
        const width = widths[i] ?? 0;
        const numeric = key === 'items' || key === 'kb' || key === 'median' || key === 'p99';
        return numeric ? row[key].padStart(width) : row[key].padEnd(width);
      })
      .join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

const all: Row[] = [];
for (const target of targets()) all.push(...(await benchTarget(target)));
console.log(`\n${RUNS} timed calls each after ${WARMUP} warm-up calls, through app.inject (no network).\n`);
printTable(all);
if (!process.env.BENCH_DATABASE_URL && !process.env.TEST_DATABASE_URL) {
  console.log('\nSet BENCH_DATABASE_URL=postgres://... to run the same on PostgreSQL.');
}
