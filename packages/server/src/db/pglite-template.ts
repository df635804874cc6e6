import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { serverRoot } from '../server-root.ts';
import { pgliteExtensions } from './pglite-extensions.ts';
import { makeTreePrivate } from './private-data-dir.ts';

// A new PGlite data directory starts as a copy of a fresh cluster with every migration applied, made
// once by `npm run build` (and by `npm start` and the test run when missing). Running initdb instead
// takes seconds, and leaves the process holding hundreds of MB of WebAssembly memory that it never
// gives back. The template is kept twice: as a directory, copied with the file system for a data
// directory on disk (PGlite's own tarball loading writes file by file through its emulated file
// system, several times slower), and as a tarball for in-memory databases (the tests'). Its name
// carries a hash of PGlite's version and the migrations, so a changed migration or an upgraded PGlite
// gets a new one; without a template the server runs initdb, as before.

export const migrationsFolder = path.join(serverRoot, 'src', 'db', 'migrations');
// The repository's node_modules: where npm ci puts PGlite, and gone with it.
const cacheFolder = path.join(serverRoot, '..', '..', 'node_modules', '.cache', 'berth');

/** PGlite's version and every migration file, hashed. */
function templateKey(): string {
  const hash = createHash('sha256');
  const require = createRequire(import.meta.url);
  const pgliteRoot = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..');
  hash.update(JSON.parse(fs.readFileSync(path.join(pgliteRoot, 'package.json'), 'utf8')).version);
  const files = fs.readdirSync(migrationsFolder, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    const full = path.join(migrationsFolder, file);
    if (!fs.statSync(full).isFile()) continue;
    hash.update(`\0${file}\0`);
    hash.update(fs.readFileSync(full));
  }
  return hash.digest('hex').slice(0, 16);
}

export function pgliteTemplatePath(): string {
  return path.join(cacheFolder, `pglite-template-${templateKey()}`);
}

/**
 * Fills a new data directory (`pgdata`, not there yet) from the template; false when there is none, so
 * the caller lets PGlite run initdb.
 */
export async function copyPgliteTemplate(pgdata: string): Promise<boolean> {
  const source = path.join(pgliteTemplatePath(), 'pgdata');
  if (!fs.existsSync(path.join(source, 'PG_VERSION'))) return false;
  const partial = `${pgdata}.${process.pid}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  await copyTree(source, partial);
  // A copy keeps its source's modes whatever the umask: made private before it holds any secret.
  makeTreePrivate(partial);
  // Renamed when whole, so a start stopped halfway leaves no cluster that looks complete.
  fs.renameSync(partial, pgdata);
  return true;
}

/**
 * Copies a folder's files all at once (libuv's thread pool runs them four at a time), cloned where the
 * file system can: the template's 1,250 files took 0.6 to 1.4 s through `fs.promises.cp`, which
 * copies one file after another, and take under 0.1 s this way.
 */
async function copyTree(from: string, to: string): Promise<void> {
  const files: [string, string][] = [];
  const walk = (dir: string, out: string) => {
    fs.mkdirSync(out, { recursive: true });
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const source = path.join(dir, entry.name);
      const target = path.join(out, entry.name);
      if (entry.isDirectory()) walk(source, target);
      else if (entry.isFile()) files.push([source, target]);
    }
  };
  walk(from, to);
  await Promise.all(
    files.map(([source, target]) => fs.promises.copyFile(source, target, fs.constants.COPYFILE_FICLONE)),
  );
}

/** The template as a tarball, for an in-memory database; undefined when it has not been made. */
export function readPgliteTemplateTarball(): Blob | undefined {
  try {
    return new Blob([fs.readFileSync(path.join(pgliteTemplatePath(), 'pgdata.tar'))]);
  } catch {
    return undefined;
  }
}

/**
 * Makes the template when it is missing (older ones go); returns its folder. Made in a temporary folder
 * and renamed, so a reader never sees half of one, and two builders racing both end well.
 */
export async function buildPgliteTemplate(): Promise<{ path: string; built: boolean }> {
  const target = pgliteTemplatePath();
  // Its copies become data directories: private like them (issue 34), also one made before.
  fs.mkdirSync(cacheFolder, { recursive: true, mode: 0o700 });
  fs.chmodSync(cacheFolder, 0o700);
  if (fs.existsSync(target)) {
    makeTreePrivate(target);
    return { path: target, built: false };
  }
  const partial = `${target}.${process.pid}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  // Imported here: a server on PostgreSQL reads this module (the migrations folder) but never needs PGlite.
  const [{ PGlite }, { drizzle }, { migrate }, extensions] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
    pgliteExtensions(),
  ]);
  const client = new PGlite(path.join(partial, 'pgdata'), { extensions });
  try {
    await migrate(drizzle({ client }), { migrationsFolder });
    const tarball = await client.dumpDataDir('none');
    fs.writeFileSync(path.join(partial, 'pgdata.tar'), Buffer.from(await tarball.arrayBuffer()));
  } finally {
    await client.close();
  }
  // PGlite makes its files readable and writable by everyone.
  makeTreePrivate(partial);
  try {
    fs.renameSync(partial, target);
  } catch (error) {
    // Another builder finished first: theirs is as good.
    fs.rmSync(partial, { recursive: true, force: true });
    if (!fs.existsSync(target)) throw error;
    return { path: target, built: false };
  }
  for (const name of fs.readdirSync(cacheFolder)) {
    const stale = name.startsWith('pglite-template-') && path.join(cacheFolder, name) !== target;
    if (stale && !name.endsWith('.partial'))
      fs.rmSync(path.join(cacheFolder, name), { recursive: true, force: true });
  }
  return { path: target, built: true };
}
