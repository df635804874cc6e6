import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { seedApp, seedContainer, seedDatabase, seedRelease, seedService } from '../../testing/factories.ts';

const { t, f } = await environmentSuite();
let web: Awaited<ReturnType<typeof seedContainer>>;
let stopped: Awaited<ReturnType<typeof seedContainer>>;
let postgres: Awaited<ReturnType<typeof seedContainer>>;
let strangerContainer: Awaited<ReturnType<typeof seedContainer>>;

const MINUTE = 60_000;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
type Columns = (string | number | null)[][];

const proxy = (id: number | string, query = 'horizon=1h&metric=memory_all&requestedTicks=300&ts=1') =>
  `/metrics/proxy/${id}?${query}`;

async function columnsOf(url: string, token = f.viewer.token): Promise<Columns> {
  const response = await t.call('GET', url, { token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().columns;
}

const values = (column: (string | number | null)[] | undefined) => (column ?? []).slice(1);

/** A container of the first release of a new service (of an app or a database). */
async function seedServiceContainer(
  service: Parameters<typeof seedService>[1],
  container: Omit<Parameters<typeof seedContainer>[1], 'releaseId'>,
) {
  const release = await seedRelease(t.db, { serviceId: (await seedService(t.db, service)).id });
  return seedContainer(t.db, { releaseId: release.id, ...container });
}

beforeAll(async () => {
  const now = Date.now();
  const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop' });
  const service = await seedService(t.db, { environmentId: f.environment.id, appId: app.id, handle: 'web' });
  const release = await seedRelease(t.db, { serviceId: service.id });
  web = await seedContainer(t.db, {
    releaseId: release.id,
    dockerName: 'shop-web-1-0a1b2c3d',
    status: 'running',
    memoryLimit: 1024,
    createdAt: new Date(now - 30 * MINUTE),
  });
  stopped = await seedContainer(t.db, {
    releaseId: release.id,
    dockerName: 'shop-web-1-99887766',
    status: 'stopped',
    createdAt: new Date(now - 50 * MINUTE),
    deletedAt: new Date(now - 20 * MINUTE),
  });
  const database = await seedDatabase(t.db, {
    environmentId: f.environment.id,
    handle: 'db',
    type: 'postgresql',
  });
  postgres = await seedServiceContainer(
    { environmentId: f.environment.id, databaseId: database.id, handle: 'postgresql' },
    {
      dockerName: 'db-postgresql-1',
      layer: 'database',
      status: 'running',
      memoryLimit: 1024,
      createdAt: new Date(now - 2 * 86400_000),
    },
  );
  const strangerApp = await seedApp(t.db, { environmentId: f.strangerEnvironment.id, handle: 'theirs' });
  strangerContainer = await seedServiceContainer(
    { environmentId: f.strangerEnvironment.id, appId: strangerApp.id, handle: 'web' },
    { status: 'running' },
  );
});
afterEach(() => {
  vi.useRealTimers();
});

describe('GET /metrics/proxy/:containerId (contract §4.4, §5.14)', () => {
  it('answers a column-major table: time_0 with the requested ticks across the horizon, then labelled series', async () => {
    const before = Date.now();
    const columns = await columnsOf(proxy(web.id));
    const after = Date.now();
    expect(columns.map((column) => column[0])).toEqual([
      'time_0',
      'shop-web-1-0a1b2c3d usage',
      'shop-web-1-0a1b2c3d limit',
    ]);
    for (const column of columns) expect(column).toHaveLength(301);
    const ticks = values(columns[0]).map((tick) => {
      expect(tick).toMatch(ISO);
      return Date.parse(String(tick));
    });
    const last = ticks.at(-1) ?? 0;
    expect(last).toBeGreaterThanOrEqual(before);
    expect(last).toBeLessThanOrEqual(after);
    expect(last - (ticks[0] ?? 0)).toBe(3600_000);
    // 300 ticks evenly spaced over an hour: 299 steps of about 12 s.
    expect(Math.abs((ticks[1] ?? 0) - (ticks[0] ?? 0) - 3600_000 / 299)).toBeLessThanOrEqual(1);
  });

  it('has gaps (null) before the container started, and memory under its limit after', async () => {
    const columns = await columnsOf(proxy(web.id));
    const ticks = values(columns[0]).map((tick) => Date.parse(String(tick)));
    const usage = values(columns[1]);
    const limit = values(columns[2]);
    const started = web.createdAt.getTime();
    ticks.forEach((tick, index) => {
      if (tick < started) {
        expect(usage[index]).toBeNull();
        expect(limit[index]).toBeNull();
      } else {
        expect(limit[index]).toBe(1024);
        expect(usage[index]).toEqual(expect.any(Number));
        expect(usage[index] as number).toBeGreaterThan(0);
        expect(usage[index] as number).toBeLessThan(1024);
      }
    });
    // Started half an hour into the hour: about half the ticks are gaps.
    const gaps = usage.filter((value) => value === null).length;
    expect(gaps).toBeGreaterThan(140);
    expect(gaps).toBeLessThan(160);
  });

  it('has gaps after a container stopped', async () => {
    const columns = await columnsOf(proxy(stopped.id, 'metric=cpu_pct'));
    expect(columns.map((column) => column[0])).toEqual(['time_0', 'shop-web-1-99887766']);
    const ticks = values(columns[0]).map((tick) => Date.parse(String(tick)));
    const cpu = values(columns[1]);
    const deleted = stopped.deletedAt?.getTime() ?? 0;
    ticks.forEach((tick, index) => {
      const running = tick >= stopped.createdAt.getTime() && tick <= deleted;
      if (running) {
        expect(cpu[index] as number).toBeGreaterThanOrEqual(0);
        expect(cpu[index] as number).toBeLessThanOrEqual(100);
      } else expect(cpu[index]).toBeNull();
    });
    expect(cpu.filter((value) => value !== null).length).toBeGreaterThan(140);
  });

  it('defaults to 1h and 300 ticks, and spans a day or a week on request', async () => {
    const hour = await columnsOf(proxy(web.id, 'metric=la'));
    expect(hour[0]).toHaveLength(301);
    const span = (columns: Columns) =>
      Date.parse(String(columns[0]?.at(-1))) - Date.parse(String(columns[0]?.[1]));
    expect(span(hour)).toBe(3600_000);
    const day = await columnsOf(proxy(postgres.id, 'horizon=1d&metric=la&requestedTicks=24'));
    expect(day[0]).toHaveLength(25);
    expect(span(day)).toBe(86400_000);
    const week = await columnsOf(proxy(postgres.id, 'horizon=1w&metric=memory_all&requestedTicks=7'));
    expect(span(week)).toBe(604800_000);
    // Started two days ago: the first days of the week are gaps.
    expect(values(week[1]).slice(0, 5)).toEqual([null, null, null, null, null]);
    expect(
      values(week[1])
        .slice(5)
        .every((value) => typeof value === 'number'),
    ).toBe(true);
  });

  it('serves disk metrics for database containers, and no series for app containers', async () => {
    const fs = await columnsOf(proxy(postgres.id, 'metric=fs&requestedTicks=10'));
    expect(fs.map((column) => column[0])).toEqual(['time_0', 'db-postgresql-1 used']);
    for (const value of values(fs[1])) expect(value as number).toBeGreaterThan(0);
    const iops = await columnsOf(proxy(postgres.id, 'metric=iops&requestedTicks=10'));
    expect(iops.map((column) => column[0])).toEqual([
      'time_0',
      'db-postgresql-1 read',
      'db-postgresql-1 write',
    ]);
    const appFs = await columnsOf(proxy(web.id, 'metric=fs&requestedTicks=10'));
    expect(appFs.map((column) => column[0])).toEqual(['time_0']);
    expect(appFs[0]).toHaveLength(11);
  });

  it('is deterministic: a reload agrees, and the chart moves forward with time', async () => {
    const now = new Date();
    vi.useFakeTimers({ toFake: ['Date'], now });
    const url = proxy(web.id, 'horizon=1h&metric=cpu_pct&requestedTicks=301');
    const first = await columnsOf(url);
    expect(await columnsOf(url)).toEqual(first);
    // One tick (12 s) later every point moves one place left and a new one arrives.
    vi.setSystemTime(now.getTime() + 12_000);
    const later = await columnsOf(url);
    expect(values(later[0]).slice(0, -1)).toEqual(values(first[0]).slice(1));
    expect(values(later[1]).slice(0, -1)).toEqual(values(first[1]).slice(1));
  });

  it('needs a token, the caller’s organization and read access to the environment', async () => {
    await expectAccess(
      t,
      { method: 'GET', url: proxy(web.id), scope: 'read', environmentId: f.environment.id },
      [
        [f.owner, 200],
        [f.viewer, 200],
        [null, 401],
        [f.reader, 403],
        // deploy does not imply read (spec 1 §6).
        [f.deployer, 403],
        [f.outsider, 404],
        [f.stranger, 404],
      ],
    );
    await expectAccess(t, { method: 'GET', url: proxy(strangerContainer.id) }, [
      [f.owner, 404],
      [f.stranger, 200],
    ]);
    for (const id of ['999999', 'abc', '-1']) {
      const response = await t.call('GET', proxy(id), { token: f.owner.token });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Container not found');
    }
  });

  it.each([
    ['horizon=2h&metric=cpu_pct', 'horizon', 'Horizon must be one of: 1h, 1d, 1w'],
    ['horizon=1h', 'metric', 'Metric must be one of: memory_all, cpu_pct, la, fs, iops'],
    ['metric=disk', 'metric', 'Metric must be one of: memory_all, cpu_pct, la, fs, iops'],
    [
      'metric=la&requestedTicks=0',
      'requestedTicks',
      'Requested ticks must be a whole number between 1 and 1000',
    ],
    [
      'metric=la&requestedTicks=1001',
      'requestedTicks',
      'Requested ticks must be a whole number between 1 and 1000',
    ],
    [
      'metric=la&requestedTicks=many',
      'requestedTicks',
      'Requested ticks must be a whole number between 1 and 1000',
    ],
  ])('answers 422 for %s', async (query, field, message) => {
    const response = await t.call('GET', proxy(web.id, query), { token: f.viewer.token });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 422, message, details: { [field]: [message] } });
    // Without a token the caller learns nothing about the query either.
    expect((await t.call('GET', proxy(web.id, query))).statusCode).toBe(401);
  });
});
