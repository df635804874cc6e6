import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitOf, freePort, spawnServer, untilRunning } from '../testing/server-process.ts';
import {
  DataDirLockedError,
  DataDirUnusableError,
  LOCK_FILE,
  lockDataDir,
  makeDataDir,
} from './data-dir-lock.ts';

// Issue 19: one server per data directory.

const dirs: string[] = [];
const fresh = () => {
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'berth-lock-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A process that lives until killed. */
function sleeper(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
}

describe('the data directory lock', () => {
  it('is taken and released, refused while a live process holds it, and recovered from a dead one', async () => {
    const dir = fresh();
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);

    const holder = sleeper();
    fs.writeFileSync(path.join(dir, LOCK_FILE), `${holder.pid}\n`);
    try {
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(
        `The data directory ${dir} is in use by another Berth process (pid ${holder.pid}); stop it first, or set BERTH_DATA_DIR to another directory.`,
      );
    } finally {
      holder.kill('SIGKILL');
    }
    await exitOf(holder);
    // Its holder is gone (killed): the next start takes it over.
    const again = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    again();
    // A half-written lock holds no process.
    fs.writeFileSync(path.join(dir, LOCK_FILE), '');
    lockDataDir(dir)();
  });

  // Issue 35: Node's recursive mkdir looped forever on /proc/x; each level is made here one at a time.
  it('is made with its missing parents, each 0700; a file or a file system without directories is refused', () => {
    const root = fresh();
    const dir = path.join(root, 'a', 'b', 'data');
    makeDataDir(dir);
    for (const level of [path.join(root, 'a'), path.join(root, 'a', 'b'), dir])
      expect(fs.statSync(level).mode & 0o777).toBe(0o700);
    // Made already: nothing to do.
    makeDataDir(dir);

    const file = path.join(root, 'file');
    fs.writeFileSync(file, '');
    expect(() => makeDataDir(file)).toThrow(
      new DataDirUnusableError(
        `The data directory ${file} is a file, not a directory. Set BERTH_DATA_DIR to a directory (it is made when missing).`,
      ),
    );
    expect(() => makeDataDir(path.join(file, 'data'))).toThrow(
      new DataDirUnusableError(
        `The data directory ${path.join(file, 'data')} is below ${file}, which is a file, not a directory. Set BERTH_DATA_DIR to a directory (it is made when missing).`,
      ),
    );
    expect(() => makeDataDir('/proc/berth-test/data')).toThrow(
      new DataDirUnusableError(
        'Berth cannot make its data directory /proc/berth-test/data: the file system there takes no new directories. Set BERTH_DATA_DIR to a directory on a disk.',
      ),
    );
  });

  it('stops a second server on the same directory with one line, and the first stops cleanly on SIGTERM', async () => {
    const dir = fresh();
    const start = async () => spawnServer({ BERTH_DATA_DIR: dir, PORT: String(await freePort()) });
    const first = await start();
    try {
      await untilRunning(first);
      expect(first.output()).toContain('Berth is running');

      const second = await start();
      expect(await exitOf(second.child)).toBe(1);
      expect(second.output().trim()).toBe(
        `The data directory ${dir} is in use by another Berth process (pid ${first.child.pid}); stop it first, or set BERTH_DATA_DIR to another directory.`,
      );
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await exitOf(first.child)).toBe(0);
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  }, 90_000);
});
