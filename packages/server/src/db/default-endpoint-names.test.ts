import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it } from 'vitest';
import { migrationsFolder, migrationsUpTo } from '../testing/migrations.ts';
import { pgliteExtensions } from './pglite-extensions.ts';

/** The whole migration history, run on a fresh embedded database: slow on a busy machine. */
const MIGRATION_HISTORY_MS = 120_000;

describe('migration 0021: default endpoint names', () => {
  it(
    'keeps the hostnames of the default endpoints it finds (app-<id>) and makes names unique',
    async () => {
      const client = new PGlite({ extensions: await pgliteExtensions() });
      const db = drizzle({ client });
      const before = migrationsUpTo('0021_default_endpoint_names');
      try {
        await migrate(db, { migrationsFolder: before });
        // Endpoints as an older version left them (foreign keys are beside the point here).
        await client.exec(`
        SET session_replication_role = replica;
        INSERT INTO vhosts (id, environment_id, service_id, is_default, virtual_domain, user_domain) VALUES
          (3, 1, 1, true, 'app-3.localhost', ''), (4, 1, 1, false, 'shop.example.com', 'shop.example.com'),
          (7, 1, 2, true, 'app-7.localhost', '');
        SET session_replication_role = DEFAULT;`);
        await migrate(db, { migrationsFolder });
        const rows = await client.query<{ id: number; default_name: string | null }>(
          'SELECT id::int AS id, default_name FROM vhosts ORDER BY id',
        );
        expect(rows.rows).toEqual([
          { id: 3, default_name: 'app-3' },
          { id: 4, default_name: null },
          { id: 7, default_name: 'app-7' },
        ]);
        await expect(
          client.query(
            `INSERT INTO vhosts (id, environment_id, service_id, is_default, default_name) VALUES (9, 1, 1, true, 'app-7')`,
          ),
        ).rejects.toThrow(/vhosts_default_name_unique/);
      } finally {
        fs.rmSync(before, { recursive: true, force: true });
        await client.close();
      }
    },
    MIGRATION_HISTORY_MS,
  );
});
