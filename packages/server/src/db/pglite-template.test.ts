import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';
import { pgliteExtensions } from './pglite-extensions.ts';
import {
  buildPgliteTemplate,
  copyPgliteTemplate,
  pgliteTemplatePath,
  readPgliteTemplateTarball,
} from './pglite-template.ts';

const systemIdentifier = async (client: PGlite) =>
  String(
    (await client.query<{ id: string }>('select system_identifier::text as id from pg_control_system()'))
      .rows[0]?.id,
  );

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Entries below a folder (itself included) that group or others may use. */
function openTo(folder: string): string[] {
  const names = ['', ...fs.readdirSync(folder, { recursive: true, encoding: 'utf8' })];
  return names.filter((name) => fs.lstatSync(path.join(folder, name)).mode & 0o077);
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the PGlite template', () => {
  it('is made once per set of migrations (the test run made it) and is a whole tarball', async () => {
    expect(await buildPgliteTemplate()).toEqual({ path: pgliteTemplatePath(), built: false });
    expect(path.basename(pgliteTemplatePath())).toMatch(/^pglite-template-[0-9a-f]{16}$/);
    const siblings = fs.readdirSync(path.dirname(pgliteTemplatePath()));
    expect(
      siblings.filter((name) => name.startsWith('pglite-template-') && !name.endsWith('.partial')),
    ).toEqual([path.basename(pgliteTemplatePath())]);
  });

  it('is private, and so is a data directory copied from it (issue 34)', async () => {
    await buildPgliteTemplate();
    expect(fs.statSync(path.dirname(pgliteTemplatePath())).mode & 0o777).toBe(0o700);
    expect(openTo(pgliteTemplatePath()).slice(0, 5)).toEqual([]);
    const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-template-'));
    dirs.push(dataDir);
    expect(await copyPgliteTemplate(path.join(dataDir, 'pgdata'))).toBe(true);
    expect(openTo(path.join(dataDir, 'pgdata')).slice(0, 5)).toEqual([]);
  });

  it('is where a new data directory starts from: no initdb, every migration already applied', async () => {
    const template = readPgliteTemplateTarball();
    if (!template) throw new Error('the global setup makes the template');
    const fromTemplate = new PGlite({ loadDataDir: template, extensions: await pgliteExtensions() });
    const templateId = await systemIdentifier(fromTemplate);
    await fromTemplate.close();

    const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-template-'));
    dirs.push(dataDir);
    // A copy a stopped start left halfway is cleared, and the finished one is renamed into place.
    fs.mkdirSync(path.join(dataDir, `pgdata.${process.pid}.partial`, 'base'), { recursive: true });
    const database = await openDatabase({ dataDir });
    expect(fs.readdirSync(dataDir)).toEqual(['pgdata']);
    const [row] = rowsOf<{ id: string }>(
      await database.db.execute(sql`select system_identifier::text as id from pg_control_system()`),
    );
    // initdb would have made a cluster of its own, with a new identifier.
    expect(row?.id).toBe(templateId);
    const [migrations] = rowsOf<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
    );
    const journal = JSON.parse(
      fs.readFileSync(path.join(__dirname, 'migrations', 'meta', '_journal.json'), 'utf8'),
    );
    expect(migrations?.n).toBe(journal.entries.length);
    // Small shared buffers: they stay in PGlite's WebAssembly memory for good (client.ts).
    const [setting] = rowsOf<{ value: string }>(
      await database.db.execute(sql`select current_setting('shared_buffers') as value`),
    );
    expect(setting?.value).toBe('16MB');
    await database.close();

    // Reopened, the directory is resumed as it is (a template is only for a new one).
    const again = await openDatabase({ dataDir });
    const [same] = rowsOf<{ id: string }>(
      await again.db.execute(sql`select system_identifier::text as id from pg_control_system()`),
    );
    expect(same?.id).toBe(templateId);
    await again.close();

    // An in-memory database (the tests') starts from the tarball of the same cluster.
    const inMemory = await openDatabase({ dataDir: 'memory://' });
    const [memoryRow] = rowsOf<{ id: string }>(
      await inMemory.db.execute(sql`select system_identifier::text as id from pg_control_system()`),
    );
    expect(memoryRow?.id).toBe(templateId);
    await inMemory.close();
  });
});
