import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AppTarget } from '../runtime.ts';
import { RuntimeError } from '../runtime.ts';

// The code of an app on the docker runtime: the bare repository its git remote pushes into
// (`<gitDir>/<app id>.git`), read with the `git` binary. Arguments are passed as a list,
// never through a shell, and a tenant's ref comes after `--end-of-options` (git 2.31 and later).

const run = promisify(execFile);

/** The bare repository of an app: named by id, as environment handles repeat across organizations. */
export function appRepository(gitDir: string, target: Pick<AppTarget, 'appId'>) {
  return path.join(gitDir, `${target.appId}.git`);
}

/**
 * Removes an app's repository, with what an earlier removal of it left. It is renamed away first, in one
 * step: a push still running in it (git works inside the directory it entered) ends in the renamed copy,
 * and nothing that names the repository by its path can find, and so make again, a part of it.
 */
export async function removeRepository(gitDir: string, target: Pick<AppTarget, 'appId'>): Promise<boolean> {
  const repository = appRepository(gitDir, target);
  const removedPrefix = `${path.basename(repository)}.removed-`;
  let removed = true;
  try {
    await fs.promises.rename(repository, `${repository}.removed-${randomBytes(6).toString('hex')}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    removed = false;
  }
  const entries = await fs.promises.readdir(gitDir).catch(() => [] as string[]);
  for (const entry of entries.filter((name) => name.startsWith(removedPrefix))) {
    // Retried: a push finishing in the renamed copy may still add a file as it goes.
    await fs.promises.rm(path.join(gitDir, entry), { recursive: true, force: true, maxRetries: 5 });
  }
  return removed;
}

async function git(repository: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', ['--git-dir', repository, ...args], {
    maxBuffer: 4 * 1024 * 1024,
    encoding: 'utf8',
  });
  return stdout;
}

/** The commit a ref names in the repository, or null (no repository, no such ref). */
export async function resolveCommit(repository: string, ref: string): Promise<string | null> {
  if (ref.length > 255) return null;
  try {
    // A tenant's ref, even one that starts with a dash (`--output=…`), is only ever a revision to git.
    const args = ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`];
    const sha = (await git(repository, args)).trim();
    return /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
  } catch {
    return null;
  }
}

export interface CommitInfo {
  sha: string;
  message: string;
  timestamp: Date;
}

export async function commitInfo(repository: string, sha: string): Promise<CommitInfo> {
  const [full = sha, seconds = '0', subject = ''] = (
    await git(repository, ['log', '-1', '--format=%H%x00%ct%x00%s', sha])
  )
    .trim()
    .split('\0');
  return { sha: full, message: subject.slice(0, 1000), timestamp: new Date(Number(seconds) * 1000) };
}

/** A file of the commit's tree, or null when the commit has none by that name (or it is too large). */
export async function fileAt(repository: string, sha: string, file: string): Promise<string | null> {
  try {
    const size = Number((await git(repository, ['cat-file', '-s', `${sha}:${file}`])).trim());
    if (!Number.isFinite(size) || size > 256 * 1024) return null;
    return await git(repository, ['cat-file', 'blob', `${sha}:${file}`]);
  } catch {
    return null;
  }
}

/**
 * The commit's tree as a tar file (a Docker build's context) in a private temporary directory, whole
 * before a build reads it: a stream `git archive` ended early would reach the engine as a context without
 * its Dockerfile ("Cannot locate specified Dockerfile"), hiding git's own error. `remove` deletes it.
 */
export async function archiveToFile(
  repository: string,
  sha: string,
): Promise<{ file: string; remove(): Promise<void> }> {
  if (!/^[0-9a-f]{40,64}$/.test(sha)) throw new RuntimeError(`Not a commit id: ${sha.slice(0, 80)}`);
  const dir = await fs.promises.mkdtemp(path.join(tmpdir(), 'berth-build-'));
  const file = path.join(dir, 'context.tar');
  const remove = () => fs.promises.rm(dir, { recursive: true, force: true });
  try {
    await run('git', ['--git-dir', repository, 'archive', '--format=tar', `--output=${file}`, sha], {
      encoding: 'utf8',
    });
  } catch (error) {
    await remove();
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new RuntimeError(`git archive failed: ${(stderr || (error as Error).message).slice(0, 2000)}`);
  }
  return { file, remove };
}

export interface ProcfileEntry {
  processType: string;
  command: string;
}

/**
 * A Procfile's processes (`name: command`, one per line; `#` starts a comment). Lines that are not
 * of that form are skipped, as the platforms that read Procfiles do.
 */
export function parseProcfile(text: string): ProcfileEntry[] {
  const entries: ProcfileEntry[] = [];
  for (const raw of text.split('\n').slice(0, 100)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.length > 4096) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const processType = line.slice(0, colon).trim();
    const command = line.slice(colon + 1).trim();
    if (!/^[A-Za-z0-9_-]{1,63}$/.test(processType) || command === '') continue;
    if (entries.some((entry) => entry.processType === processType)) continue;
    entries.push({ processType, command });
  }
  return entries;
}
