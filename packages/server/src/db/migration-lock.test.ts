import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MIGRATION_LOCK_KEY, openDatabase } from './client.ts';

// Issue 35: `npm start` and `npm run worker` on an empty PostgreSQL database raced their migrations and
// the server crashed (`relation "__drizzle_migrations" already exists`). PostgreSQL only: PGlite belongs
// to one process.
const adminUrl = process.env.TEST_DATABASE_URL;
const onPostgres = process.env.BERTH_TEST_DB === 'postgres' && Boolean(adminUrl);

const created: string[] = [];
async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
afterAll(async () => {
  if (!onPostgres) return;
  await admin(async (client) => {
    for (const name of created) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
});

describe.runIf(onPostgres)('migrations on a fresh PostgreSQL database', () => {
  it('are applied once when several processes start on it at the same moment', async () => {
    const name = `berth_migrate_${randomBytes(6).toString('hex')}`;
    await admin((client) => client.query(`CREATE DATABASE ${name}`));
    created.push(name);
    const url = new URL(adminUrl ?? '');
    url.pathname = `/${name}`;
    // As many starts as a server and a few workers make: each opens, and so migrates, the database.
    const starts = await Promise.allSettled(
      Array.from({ length: 4 }, () => openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://' })),
    );
    for (const start of starts) if (start.status === 'fulfilled') await start.value.close();
    expect(starts.map((start) => (start.status === 'rejected' ? String(start.reason) : 'opened'))).toEqual([
      'opened',
      'opened',
      'opened',
      'opened',
    ]);
    const database = new pg.Client({ connectionString: url.toString() });
    await database.connect();
    const applied = await database
      .query('SELECT hash FROM drizzle.__drizzle_migrations')
      .finally(() => database.end());
    // Each migration once.
    const hashes = applied.rows.map((row) => String(row.hash));
    expect(hashes.length).toBeGreaterThan(0);
    expect(new Set(hashes).size).toBe(hashes.length);
  }, 60_000);

  it('says it waits while another session holds the lock, and goes on once it is let go', async () => {
    const name = `berth_migrate_${randomBytes(6).toString('hex')}`;
    await admin((client) => client.query(`CREATE DATABASE ${name}`));
    created.push(name);
    const url = new URL(adminUrl ?? '');
    url.pathname = `/${name}`;
    const holder = new pg.Client({ connectionString: url.toString() });
    await holder.connect();
    const warned: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((line: unknown) => {
      warned.push(String(line));
    });
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      let opened = false;
      const opening = openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://' }).then((database) => {
        opened = true;
        return database;
      });
      for (let tries = 0; tries < 100 && warned.length === 0; tries += 1)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(warned).toEqual(['Waiting for another Berth process to finish migrating the database…']);
      expect(opened).toBe(false);
      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      const database = await opening;
      await database.close();
      // Let go when done: the lock is free for the next process at once.
      const { rows } = await holder.query('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK_KEY]);
      expect(rows[0]?.locked).toBe(true);
    } finally {
      warn.mockRestore();
      await holder.end();
    }
  }, 60_000);
});
