import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { pgliteExtensions } from './pglite-extensions.ts';
import { copyPgliteTemplate, migrationsFolder, readPgliteTemplateTarball } from './pglite-template.ts';
import { makeTreePrivate } from './private-data-dir.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** The handle a transaction callback receives. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** What a function that works inside or outside a transaction takes. */
export type DbOrTx = Db | Tx;

/** The advisory lock processes migrating one PostgreSQL database take in turn ("berth" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x6265727468;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The connection string, for PostgreSQL (other processes can join it). */
  url?: string;
  close(): Promise<void>;
}

/**
 * Opens the database and applies pending migrations.
 * `databaseUrl` postgres://... → PostgreSQL; otherwise PGlite in `dataDir` ("memory://" for a throwaway one).
 * Each database's client is imported only when it is the one used: the PostgreSQL driver and its drizzle
 * adapter hold some 5 MB of heap that a server on PGlite would keep idle for nothing.
 */
/** How long a start waits for another process's migrations before it gives up, saying why. */
const MIGRATION_LOCK_WAIT_MS = 10 * 60 * 1000;
/** When it says that it waits. */
const MIGRATION_LOCK_NOTICE_MS = 5000;

/**
 * Takes the migrations' advisory lock, polling rather than blocking in `pg_advisory_lock`, so a start
 * that waits says so (once) and gives up in the end with a line saying why, instead of hanging silent.
 */
async function takeMigrationLock(client: {
  query(text: string, values: unknown[]): Promise<{ rows: { locked: boolean }[] }>;
}): Promise<boolean> {
  const started = Date.now();
  let told = false;
  for (;;) {
    const { rows } = await client.query('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK_KEY]);
    if (rows[0]?.locked) return true;
    const waited = Date.now() - started;
    if (waited > MIGRATION_LOCK_WAIT_MS)
      throw new Error(
        `Another process has held the database migrations' lock for ${Math.round(waited / 60_000)} minutes. If no other Berth process is migrating this database, a connection pooler may be keeping it: connect Berth to PostgreSQL directly, or through a pooler in session mode.`,
      );
    if (!told && waited >= MIGRATION_LOCK_NOTICE_MS) {
      told = true;
      console.warn('Waiting for another Berth process to finish migrating the database…');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (options.databaseUrl) {
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection the server closes (restart, failover, a dropped database) is replaced on the
    // next query; without a listener node-postgres would crash the process with it.
    pool.on('error', (error) => console.warn(`PostgreSQL connection closed: ${error.message}`));
    const db = drizzlePg({ client: pool, schema });
    // Issue 35: processes starting together on an empty database (`npm start` beside `npm run worker`)
    // each applied the migrations, and one crashed on "already exists". They take turns under a lock
    // held by one connection's session; the next finds them applied.
    const migrating = await pool.connect();
    let locked = false;
    try {
      locked = await takeMigrationLock(migrating);
      await migratePg(drizzlePg({ client: migrating, schema }), { migrationsFolder });
    } finally {
      // Let go explicitly (a pooler in transaction mode would keep a session's lock on its server
      // connection), then close the session, which lets it go too should the unlock fail.
      if (locked)
        await migrating.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      migrating.release(true);
    }
    return { db: db as unknown as Db, kind: 'postgres', url: options.databaseUrl, close: () => pool.end() };
  }
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }, extensions] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
    pgliteExtensions(),
  ]);
  // PostgreSQL's shared buffers at 16 MB instead of 128 MB: they live in the WebAssembly memory, which
  // never shrinks, so the server idled 140 MB larger with the default; with the whole database in the
  // operating system's file cache (or, in memory, in PGlite's), the start-up lists of `npm run bench`
  // answered in the same time either way.
  const pgliteOptions = {
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'],
    extensions,
  };
  const inMemory = options.dataDir === 'memory://';
  if (!inMemory) fs.mkdirSync(options.dataDir, { recursive: true });
  // A new cluster starts from the migrated template when there is one (pglite-template.ts).
  let client: PGlite;
  if (inMemory) {
    client = new PGlite({ loadDataDir: readPgliteTemplateTarball(), ...pgliteOptions });
  } else {
    const pgdata = path.join(options.dataDir, 'pgdata');
    if (!fs.existsSync(pgdata)) await copyPgliteTemplate(pgdata);
    client = new PGlite(pgdata, pgliteOptions);
  }
  const db = drizzlePglite({ client, schema });
  await migratePglite(db, { migrationsFolder });
  // Issue 34: PGlite's C library sets 0644 on the relation cache files it writes as it starts, whatever
  // the umask; they are made private again once it has (its folder, 0700, already keeps others out).
  if (!inMemory) makeTreePrivate(path.join(options.dataDir, 'pgdata'));
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}
