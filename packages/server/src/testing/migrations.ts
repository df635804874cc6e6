import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The server's migrations, as the migrator reads them. */
export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), '../db/migrations');

/**
 * A copy of the migrations folder holding only the first `count` migrations, or those before the one
 * tagged `count` (`0021_default_endpoint_names`), to test a migration over rows an older version left.
 */
export function migrationsUpTo(count: number | string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-migrations-'));
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8'));
  const entries = journal.entries as { tag: string }[];
  const end = typeof count === 'number' ? count : entries.findIndex((entry) => entry.tag === count);
  if (end < 0) throw new Error(`No migration tagged ${count}`);
  journal.entries = entries.slice(0, end);
  fs.mkdirSync(path.join(dir, 'meta'));
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal));
  for (const entry of journal.entries as { tag: string }[]) {
    fs.copyFileSync(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  }
  return dir;
}
