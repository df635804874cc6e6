import fs from 'node:fs';
import path from 'node:path';
import { makeDataDirPrivate } from './private-data-dir.ts';

/** The lock file in a data directory: the process holding it, by id. */
export const LOCK_FILE = 'berth.pid';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

/** A data directory that cannot be one (a file, a file system that takes no directories): its one line. */
export class DataDirUnusableError extends Error {
  override name = 'DataDirUnusableError';
}

/**
 * Makes the data directory and its missing parents, one level at a time, each 0700. Not Node's
 * recursive mkdir: it loops forever where the kernel says a parent that exists is missing (procfs,
 * BERTH_DATA_DIR=/proc/x hung the start with no output).
 */
export function makeDataDir(dir: string): void {
  const make = (level: string) => {
    let stats: fs.Stats | undefined;
    try {
      stats = fs.statSync(level, { throwIfNoEntry: false });
    } catch (error) {
      // Below a file: the level that is one says so.
      if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
    }
    if (stats?.isDirectory()) return;
    if (stats)
      throw new DataDirUnusableError(
        `The data directory ${dir} ${level === dir ? 'is' : `is below ${level}, which is`} a file, not a directory. Set BERTH_DATA_DIR to a directory (it is made when missing).`,
      );
    const parent = path.dirname(level);
    if (parent !== level) make(parent);
    try {
      fs.mkdirSync(level, { mode: 0o700 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Made by another process meanwhile.
      if (code === 'EEXIST' && fs.statSync(level).isDirectory()) return;
      if (code === 'ENOENT')
        throw new DataDirUnusableError(
          `Berth cannot make its data directory ${dir}: the file system there takes no new directories. Set BERTH_DATA_DIR to a directory on a disk.`,
        );
      throw error;
    }
  };
  make(dir);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holder(file: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Takes the data directory for this process alone (issue 19): one server (or admin command) per
 * BERTH_DATA_DIR, since two on the same embedded database files lose writes or corrupt them. The lock is
 * a file created exclusively with this process's id; one left by a process that is gone (killed) is
 * taken over. Throws DataDirLockedError naming the directory and the process that holds it. Returns the
 * release, which removes the file if it is still this process's.
 */
export function lockDataDir(dir: string): () => void {
  makeDataDir(dir);
  const file = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return () => {
        if (holder(file) === process.pid) fs.rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = holder(file);
    // This process's own id is a lock left by an earlier life of it (a container restarted, same pid).
    if (pid !== null && pid !== process.pid && alive(pid)) {
      throw new DataDirLockedError(
        `The data directory ${dir} is in use by another Berth process (pid ${pid}); stop it first, or set BERTH_DATA_DIR to another directory.`,
      );
    }
    // Left by a process that is gone (or half written): take it over. Of two starting at once, the
    // exclusive create lets one through and the other finds it alive.
    fs.rmSync(file, { force: true });
  }
  throw new DataDirLockedError(
    `The data directory ${dir} could not be locked; another process keeps taking it.`,
  );
}

/**
 * For the server and admin processes: takes the data directory, locked and private (issue 34: what an
 * earlier version, a copy or an operator left readable by others is made this user's alone before the
 * database opens). A locked directory, or one it cannot write or make private, stops the start with its
 * one line.
 */
export function lockDataDirOrExit(dir: string): () => void {
  let release: (() => void) | null = null;
  try {
    release = lockDataDir(dir);
    makeDataDirPrivate(dir);
    return release;
  } catch (error) {
    release?.();
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (error instanceof DataDirLockedError || error instanceof DataDirUnusableError)
      console.error(error.message);
    else if (!code) throw error;
    else if (release && ['EACCES', 'EPERM'].includes(code))
      console.error(
        `Berth cannot make ${(error as NodeJS.ErrnoException).path ?? dir} private (${code}): everything in its data directory must be its own. Set BERTH_DATA_DIR to a directory it owns.`,
      );
    else {
      // Where it failed, when that is not the directory itself (a parent it had to make).
      const where = (error as NodeJS.ErrnoException).path ?? dir;
      console.error(
        `Berth cannot write its data directory ${dir} (${code}${where === dir ? '' : ` at ${where}`}). Set BERTH_DATA_DIR to a directory it can write.`,
      );
    }
    process.exit(1);
  }
}
