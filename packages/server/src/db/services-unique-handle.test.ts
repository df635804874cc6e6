import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { and, eq, isNull } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedApp, seedDatabase, seedService } from '../testing/factories.ts';
import { migrationsFolder, migrationsUpTo } from '../testing/migrations.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';
import { isUniqueViolation } from './errors.ts';
import { pgliteExtensions } from './pglite-extensions.ts';
import { apps, containers, releases, services } from './schema.ts';

/** The whole migration history, run on a fresh embedded database: slow on a busy machine. */
const MIGRATION_HISTORY_MS = 120_000;

describe('migration 0002: unique service handle per app', () => {
  it(
    'applies over existing duplicates, keeping the oldest service under its handle',
    async () => {
      const client = new PGlite({ extensions: await pgliteExtensions() });
      const db = drizzle({ client });
      const before = migrationsUpTo(2);
      try {
        await migrate(db, { migrationsFolder: before });
        // Rows as an older version could leave them (foreign keys are beside the point here).
        await client.exec(`
        SET session_replication_role = replica;
        INSERT INTO services (id, environment_id, app_id, database_id, handle) VALUES
          (1, 1, 7, NULL, 'web'), (2, 1, 7, NULL, 'web'), (3, 1, 7, NULL, 'worker'),
          (4, 1, 8, NULL, 'web'), (5, 1, NULL, 3, 'database'), (6, 1, NULL, 4, 'database');
        SET session_replication_role = DEFAULT;`);
        await migrate(db, { migrationsFolder });
        const rows = await client.query<{ id: number; handle: string }>(
          'SELECT id::int AS id, handle FROM services ORDER BY id',
        );
        expect(rows.rows).toEqual([
          { id: 1, handle: 'web' },
          { id: 2, handle: 'web-2' },
          { id: 3, handle: 'worker' },
          { id: 4, handle: 'web' },
          { id: 5, handle: 'database' },
          { id: 6, handle: 'database' },
        ]);
        await expect(
          client.query(`INSERT INTO services (id, environment_id, app_id, handle) VALUES (9, 1, 7, 'web')`),
        ).rejects.toThrow(/services_app_handle_unique/);
      } finally {
        fs.rmSync(before, { recursive: true, force: true });
        await client.close();
      }
    },
    MIGRATION_HISTORY_MS,
  );
});

describe('services of one app have distinct handles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(() => t.close());

  it('refuses a second service with the same handle on an app, not on another app or on databases', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner);
    const environment = await t.createEnvironment(owner, org.id, 'prod');
    const environmentId = Number(environment.id);
    const first = await seedApp(t.db, { environmentId, handle: 'first' });
    const second = await seedApp(t.db, { environmentId, handle: 'second' });
    await seedService(t.db, { environmentId, appId: first.id, handle: 'web' });
    await seedService(t.db, { environmentId, appId: second.id, handle: 'web' });
    const duplicate = await t.db
      .insert(services)
      .values({ environmentId, appId: first.id, handle: 'web' })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(isUniqueViolation(duplicate)).toBe(true);

    for (const handle of ['pg-a', 'pg-b']) {
      const database = await seedDatabase(t.db, { environmentId, handle, type: 'postgresql' });
      await seedService(t.db, { environmentId, databaseId: database.id, handle: 'database' });
    }
    const databaseServices = await t.db
      .select()
      .from(services)
      .where(and(isNull(services.appId), eq(services.environmentId, environmentId)));
    expect(databaseServices).toHaveLength(2);
  });

  it('redeploying an app rolls out onto its existing services', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner);
    const environment = await t.createEnvironment(owner, org.id, 'prod');
    const [app] = await t.db
      .insert(apps)
      .values({ environmentId: Number(environment.id), handle: 'redeployed' })
      .returning();
    if (!app) throw new Error('no app');
    for (let i = 0; i < 2; i += 1) {
      const deploy = await t.call('POST', `/api/apps/${app.id}/operations`, {
        token: owner.token,
        body: { type: 'deploy', git_ref: 'main' },
      });
      expect(deploy.statusCode).toBe(201);
      await t.worker.drain();
      const done = await t.call('GET', `/api/operations/${deploy.json().id}`, { token: owner.token });
      expect(done.json().status).toBe('succeeded');
    }
    const appServices = await t.db.select().from(services).where(eq(services.appId, app.id));
    expect(appServices.length).toBeGreaterThan(0);
    expect(new Set(appServices.map((s) => s.handle)).size).toBe(appServices.length);
    const live = await t.db
      .select({ id: containers.id })
      .from(containers)
      .innerJoin(releases, eq(containers.releaseId, releases.id))
      .where(and(eq(releases.serviceId, appServices[0]?.id ?? -1), isNull(containers.deletedAt)));
    expect(live.length).toBeGreaterThan(0);
  });
});
