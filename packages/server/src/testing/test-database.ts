import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../db/client.ts';

/**
 * A fresh, migrated database for one test app: in-memory PGlite by default, or a throwaway database
 * on the PostgreSQL server of TEST_DATABASE_URL when BERTH_TEST_DB=postgres.
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.BERTH_TEST_DB !== 'postgres') return openDatabase({ dataDir: 'memory://' });
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('BERTH_TEST_DB=postgres needs TEST_DATABASE_URL');
  return openThrowawayPostgres(adminUrl, 'berth_test');
}

/** A new, migrated database on the PostgreSQL server of `adminUrl`, dropped again on close. */
export async function openThrowawayPostgres(adminUrl: string, prefix: string): Promise<Database> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://' });
  return {
    ...database,
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
