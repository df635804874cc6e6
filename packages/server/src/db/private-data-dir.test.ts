import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitOf, freePort, spawnServer, untilRunning } from '../testing/server-process.ts';
import { LOCK_FILE } from './data-dir-lock.ts';
import { makeDataDirPrivate, makeTreePrivate } from './private-data-dir.ts';

// Issue 34: the data directory and everything in it are the server's user's alone (0700 directories,
// 0600 files, 0700 executables), from a first start on and on a directory an earlier version left open.

const dirs: string[] = [];
const fresh = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const modeOf = (file: string) => fs.lstatSync(file).mode & 0o7777;

/** Every entry below a directory (itself included), links not followed: path → mode. */
function modesBelow(root: string): Map<string, number> {
  const modes = new Map<string, number>([[root, modeOf(root)]]);
  for (const name of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    modes.set(path.join(root, name), modeOf(path.join(root, name)));
  }
  return modes;
}

/** What an earlier version left: readable (or writable) by everyone, as PGlite and git make files. */
function writeOpenFile(file: string, mode: number) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'x');
  fs.chmodSync(file, mode);
}

describe('a private data directory', () => {
  it('makes a tree private: group and others lose every bit, owners keep theirs, links are not followed', () => {
    const root = fresh('berth-private-');
    const outside = fresh('berth-outside-');
    writeOpenFile(path.join(root, 'pgdata', 'base', '1', '1259'), 0o666);
    writeOpenFile(path.join(root, 'git', '1.git', 'hooks', 'update.sample'), 0o755);
    writeOpenFile(path.join(root, 'git', '1.git', 'objects', 'ab', 'cdef'), 0o444);
    writeOpenFile(path.join(root, 'set-id'), 0o6755);
    writeOpenFile(path.join(root, 'private'), 0o600);
    for (const folder of [
      'pgdata/base',
      'pgdata/base/1',
      'git',
      'git/1.git',
      'git/1.git/hooks',
      'git/1.git/objects',
      'git/1.git/objects/ab',
    ])
      fs.chmodSync(path.join(root, folder), 0o755);
    fs.chmodSync(path.join(root, 'pgdata'), 0o777);
    fs.chmodSync(root, 0o755);
    // Links to a file and a folder outside: neither they nor what is in them change.
    writeOpenFile(path.join(outside, 'shared'), 0o644);
    fs.chmodSync(outside, 0o755);
    fs.symlinkSync(path.join(outside, 'shared'), path.join(root, 'to-file'));
    fs.symlinkSync(outside, path.join(root, 'to-folder'));

    // Its nine folders and four of its files: all but "private", and not the links.
    expect(makeTreePrivate(root)).toBe(13);
    expect(modeOf(root)).toBe(0o700);
    expect(modeOf(path.join(root, 'pgdata'))).toBe(0o700);
    expect(modeOf(path.join(root, 'pgdata', 'base', '1', '1259'))).toBe(0o600);
    expect(modeOf(path.join(root, 'git', '1.git', 'hooks', 'update.sample'))).toBe(0o700);
    expect(modeOf(path.join(root, 'git', '1.git', 'objects', 'ab', 'cdef'))).toBe(0o400);
    expect(modeOf(path.join(root, 'set-id'))).toBe(0o700);
    expect(modeOf(path.join(root, 'private'))).toBe(0o600);
    expect(modeOf(outside)).toBe(0o755);
    expect(modeOf(path.join(outside, 'shared'))).toBe(0o644);
    // A second pass finds nothing to change.
    expect(makeTreePrivate(root)).toBe(0);
  });

  it("makes a data directory private, and only Berth's entries in it: an operator's own files stay as they are", () => {
    const root = fresh('berth-data-dir-');
    writeOpenFile(path.join(root, 'pgdata', 'PG_VERSION'), 0o644);
    writeOpenFile(path.join(root, 'git', '1.git', 'HEAD'), 0o644);
    writeOpenFile(path.join(root, 'edge', 'caddy.json'), 0o644);
    writeOpenFile(path.join(root, 'berth.pid'), 0o644);
    writeOpenFile(path.join(root, 'notes', 'todo.txt'), 0o644);
    writeOpenFile(path.join(root, '.bashrc'), 0o644);
    fs.chmodSync(path.join(root, 'notes'), 0o755);
    fs.chmodSync(root, 0o755);

    makeDataDirPrivate(root);
    expect(modeOf(root)).toBe(0o700);
    for (const file of ['pgdata/PG_VERSION', 'git/1.git/HEAD', 'edge/caddy.json', 'berth.pid'])
      expect(modeOf(path.join(root, file)), file).toBe(0o600);
    expect(modeOf(path.join(root, 'notes'))).toBe(0o755);
    expect(modeOf(path.join(root, 'notes', 'todo.txt'))).toBe(0o644);
    expect(modeOf(path.join(root, '.bashrc'))).toBe(0o644);
  });

  // A server started from its sources: a busy machine takes a while.
  it('after a first start on a directory an earlier version left open, every file in it is private', async () => {
    const dataDir = fresh('berth-private-start-');
    // Left by an earlier version: an app's repository made by git under a 022 umask (its hooks 0755,
    // objects 0444, the rest 0644), a backup and the directory itself readable by everyone.
    const repository = path.join(dataDir, 'git', '1.git');
    execFileSync('sh', ['-c', 'umask 022 && git init --bare --quiet "$1"', 'sh', repository]);
    execFileSync('sh', [
      '-c',
      'umask 022 && echo code | git --git-dir="$1" hash-object -w --stdin',
      'sh',
      repository,
    ]);
    writeOpenFile(path.join(dataDir, 'backups', 'db-1-20260101t000000z-0badcafe.dump'), 0o644);
    fs.chmodSync(path.join(dataDir, 'backups'), 0o755);
    fs.chmodSync(dataDir, 0o755);
    const outside = fresh('berth-outside-');
    writeOpenFile(path.join(outside, 'shared'), 0o644);
    fs.symlinkSync(path.join(outside, 'shared'), path.join(dataDir, 'to-outside'));

    const port = await freePort();
    const server = await untilRunning(spawnServer({ BERTH_DATA_DIR: dataDir, PORT: String(port) }));
    let umask = '';
    let exitCode: number | null = null;
    try {
      // What it and its children (git, Caddy) create is private too (checked last).
      umask =
        /^Umask:\s*(\d+)$/m.exec(fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? '';
      expect(modeOf(path.join(dataDir, LOCK_FILE))).toBe(0o600);
      // What it writes while it runs (a sign-up's rows) leaves nothing open either.
      const signUp = await fetch(`http://127.0.0.1:${port}/auth/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/hal+json' },
        body: JSON.stringify({
          name: 'Private',
          email: 'private@example.com',
          password: 'Correct-Horse9',
          challengeToken: '',
          origin: 'app',
        }),
      });
      expect(signUp.status).toBe(201);
    } finally {
      server.child.kill('SIGTERM');
      exitCode = await exitOf(server.child);
    }
    expect(exitCode).toBe(0);
    const modes = modesBelow(dataDir);
    const open = [...modes].filter(([file, mode]) => {
      if (fs.lstatSync(file).isSymbolicLink()) return false;
      if (fs.lstatSync(file).isDirectory()) return mode !== 0o700;
      return ![0o600, 0o700, 0o400].includes(mode);
    });
    expect(open.map(([file, mode]) => `${mode.toString(8)} ${path.relative(dataDir, file)}`)).toEqual([]);
    // The database's files (a copy of the template, then PGlite's own) are among them.
    const database = [...modes].filter(([file]) => file.startsWith(`${path.join(dataDir, 'pgdata')}/`));
    expect(database.length).toBeGreaterThan(1000);
    expect(modeOf(path.join(repository, 'hooks', 'update.sample'))).toBe(0o700);
    expect(modeOf(path.join(repository, 'config'))).toBe(0o600);
    expect(modeOf(path.join(outside, 'shared'))).toBe(0o644);
    expect(umask).toBe('0077');
  }, 90_000);
});
