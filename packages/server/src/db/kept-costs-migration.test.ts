import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it } from 'vitest';
import { migrationsFolder, migrationsUpTo } from '../testing/migrations.ts';
import { pgliteExtensions } from './pglite-extensions.ts';

/** The whole migration history, run on a fresh embedded database: slow on a busy machine. */
const MIGRATION_HISTORY_MS = 120_000;
const ORG = '00000000-0000-4000-8000-000000000001';

describe('migration 0039: kept costs', () => {
  it(
    'fills a cost row for every app, database, service and environment that exists',
    async () => {
      const client = new PGlite({ extensions: await pgliteExtensions() });
      const db = drizzle({ client });
      const before = migrationsUpTo('0039_kept_costs');
      try {
        await migrate(db, { migrationsFolder: before });
        // Resources as an older version left them (foreign keys to organizations and stacks are beside
        // the point here). Environment 1: an app of 2 × 1 GB m5 and 1 × 0.5 GB r5 with a dedicated and a
        // shared load balancer; environment 2: a database (1 GB c5, 50 GB at 4000 IOPS, a 1.5 GB backup),
        // an endpoint not provisioned, and a 2.25 GB backup of a database that is gone.
        await client.exec(`
        SET session_replication_role = replica;
        INSERT INTO environments (id, organization_id, stack_id, handle) VALUES
          (1, '${ORG}', 1, 'a'), (2, '${ORG}', 1, 'b');
        INSERT INTO apps (id, environment_id, handle) VALUES (10, 1, 'web');
        INSERT INTO databases (id, environment_id, handle, type) VALUES (20, 2, 'db', 'postgresql');
        INSERT INTO services (id, environment_id, app_id, database_id, handle, container_count, container_memory_limit_mb, instance_class) VALUES
          (100, 1, 10, NULL, 'web', 2, 1024, 'm5'), (101, 1, 10, NULL, 'worker', 1, 512, 'r5'),
          (102, 2, NULL, 20, 'db', 1, 1024, 'c5');
        INSERT INTO vhosts (id, environment_id, service_id, external_host, shared) VALUES
          (1000, 1, 100, 'elb-1', false), (1001, 1, 100, 'elb-2', true), (1002, 2, 102, NULL, false);
        INSERT INTO disks (id, database_id, environment_id, handle, size, provisioned_iops) VALUES (1, 20, 2, 'disk', 50, 4000);
        INSERT INTO backups (id, environment_id, database_id, database_handle, database_type, kind, size_gb) VALUES
          (1, 2, 20, 'db', 'postgresql', 'manual', 1.5), (2, 2, NULL, 'gone', 'postgresql', 'manual', 2.25);
        SET session_replication_role = DEFAULT;`);
        await migrate(db, { migrationsFolder });
        const rows = await client.query(
          `SELECT owner_type, owner_id::int AS id, organization_id, environment_id,
             m_class_memory_mb::int AS m, c_class_memory_mb::int AS c, r_class_memory_mb::int AS r,
             endpoints, shared_endpoints AS shared, disk_gb::int AS disk, extra_iops::int AS iops,
             backup_gb::float8 AS backup
           FROM resource_costs ORDER BY owner_type, owner_id`,
        );
        const row = (
          owner_type: string,
          id: number,
          environment_id: number,
          parts: Record<string, number>,
        ) => ({
          owner_type,
          id,
          organization_id: ORG,
          environment_id,
          m: 0,
          c: 0,
          r: 0,
          endpoints: 0,
          shared: 0,
          disk: 0,
          iops: 0,
          backup: 0,
          ...parts,
        });
        expect(rows.rows).toEqual([
          row('app', 10, 1, { m: 2048, r: 512, endpoints: 1, shared: 1 }),
          row('database', 20, 2, { c: 1024, disk: 50, iops: 1000, backup: 1.5 }),
          row('environment', 1, 1, { m: 2048, r: 512, endpoints: 1, shared: 1 }),
          row('environment', 2, 2, { c: 1024, disk: 50, iops: 1000, backup: 3.75 }),
          row('service', 100, 1, { m: 2048 }),
          row('service', 101, 1, { r: 512 }),
          row('service', 102, 2, { c: 1024 }),
        ]);
      } finally {
        fs.rmSync(before, { recursive: true, force: true });
        await client.close();
      }
    },
    MIGRATION_HISTORY_MS,
  );
});
