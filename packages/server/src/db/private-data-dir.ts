import fs from 'node:fs';
import path from 'node:path';

// Issue 34: the data directory holds PGlite's files (the JWT signing key, the sealing key, who is a
// superuser), the apps' git repositories, the edge's keys and the backups: this user's alone. PGlite,
// git and copies of the template make files readable (or writable) by everyone unless told otherwise.

/** Group and others get nothing: files 0600 (0700 when executable), directories 0700. */
export const PRIVATE_UMASK = 0o077;

/**
 * Every file and directory this process creates from here on, and those of the processes it starts
 * (git, Caddy), is its user's alone.
 */
export function createFilesPrivately(): void {
  process.umask(PRIVATE_UMASK);
}

/** The mode an entry should have, or null when it is private already. */
function privateModeOf(stats: fs.Stats): number | null {
  const mode = stats.mode & 0o7777;
  // A directory its owner can always list and enter; group and others nothing.
  if (stats.isDirectory()) return mode === 0o700 ? null : 0o700;
  // A file keeps its owner's bits (an executable hook stays executable, git's read-only objects stay
  // read-only) and loses everyone else's, and any set-id bit.
  return mode & 0o7077 ? mode & 0o700 : null;
}

/**
 * Makes a tree private: the root (followed when it is a link the operator chose) and everything below
 * it, without following links below it, so nothing outside the tree is touched. Only entries whose mode
 * is wrong are changed. Synchronous on purpose: a data directory of 1,300 files takes some 20 ms this
 * way and four times as long through the thread pool (each call a promise and a thread hop). Returns
 * how many entries it changed; throws (EPERM) for an entry this user cannot change, such as one it does
 * not own.
 */
export function makeTreePrivate(root: string): number {
  let changed = 0;
  const visit = (entry: string, stats: fs.Stats) => {
    const mode = privateModeOf(stats);
    try {
      if (mode !== null) {
        fs.chmodSync(entry, mode);
        changed++;
      }
      if (!stats.isDirectory()) return;
      for (const name of fs.readdirSync(entry)) {
        const child = path.join(entry, name);
        const childStats = fs.lstatSync(child, { throwIfNoEntry: false });
        if (childStats && !childStats.isSymbolicLink()) visit(child, childStats);
      }
    } catch (error) {
      // Removed or renamed meanwhile by its owner (a template builder tidying up): nothing to protect.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  };
  visit(root, fs.statSync(root));
  return changed;
}

/**
 * What Berth keeps in its data directory (db, git, backups, edge, support attachments, the lock file,
 * the mailbox link): only these are walked, so a BERTH_DATA_DIR that also holds an operator's own files (a home directory, say)
 * has only Berth's made private. Named here rather than imported, so db/ depends on nothing above it.
 */
export const DATA_DIR_ENTRIES = [
  'pgdata',
  'git',
  'backups',
  'edge',
  'support',
  'berth.pid',
  'mailbox-link',
] as const;

/**
 * Makes a data directory private: itself 0700 first (from then on no other user can reach, or swap,
 * anything below it), then each of Berth's entries in it, links not followed. Returns how many entries
 * it changed; throws (EPERM) for one this user cannot change.
 */
export function makeDataDirPrivate(dir: string): number {
  let changed = 0;
  if ((fs.statSync(dir).mode & 0o7777) !== 0o700) {
    fs.chmodSync(dir, 0o700);
    changed++;
  }
  for (const name of DATA_DIR_ENTRIES) {
    const entry = path.join(dir, name);
    const stats = fs.lstatSync(entry, { throwIfNoEntry: false });
    if (stats && !stats.isSymbolicLink()) changed += makeTreePrivate(entry);
  }
  return changed;
}
