import fs from 'node:fs';
import path from 'node:path';
import { makeTreePrivate } from './private-data-dir.ts';

/** The lock file in a data directory: the process holding it, by id. */
export const LOCK_FILE = 'berth.pid';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
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
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
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
    makeTreePrivate(dir);
    return release;
  } catch (error) {
    release?.();
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (error instanceof DataDirLockedError) console.error(error.message);
    else if (!['EACCES', 'EPERM', 'EROFS'].includes(code)) throw error;
    else if (release)
      console.error(
        `Berth cannot make ${(error as NodeJS.ErrnoException).path ?? dir} private (${code}): everything in its data directory must be its own. Set BERTH_DATA_DIR to a directory it owns.`,
      );
    else
      console.error(
        `Berth cannot write its data directory ${dir} (${code}). Set BERTH_DATA_DIR to a directory it can write.`,
      );
    process.exit(1);
  }
}
