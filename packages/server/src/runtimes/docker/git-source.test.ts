import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveCommit } from './git-source.ts';

// Issue 34 §6: a tenant's git ref reaches `git rev-parse` only ever as a revision, never as an option.

const root = fs.mkdtempSync(path.join(tmpdir(), 'berth-git-source-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const git = (repository: string, ...args: string[]) =>
  execFileSync('git', ['--git-dir', repository, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'a',
      GIT_AUTHOR_EMAIL: 'a@b.test',
      GIT_COMMITTER_NAME: 'a',
      GIT_COMMITTER_EMAIL: 'a@b.test',
    },
  }).trim();

describe("resolving a tenant's ref", () => {
  const repository = path.join(root, '1.git');
  execFileSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', repository]);
  const tree = git(repository, 'mktree');
  const main = git(repository, 'commit-tree', tree, '-m', 'first');
  const other = git(repository, 'commit-tree', tree, '-p', main, '-m', 'second');
  git(repository, 'update-ref', 'refs/heads/main', main);
  // A push may name a branch so (git refuses such names only when making a branch locally).
  git(repository, 'update-ref', 'refs/heads/--output=/tmp/x', other);

  it('finds branches and commits, and nothing for a ref it does not have', async () => {
    expect(await resolveCommit(repository, 'main')).toBe(main);
    expect(await resolveCommit(repository, other)).toBe(other);
    expect(await resolveCommit(repository, 'missing')).toBeNull();
    expect(await resolveCommit(path.join(root, 'none.git'), 'main')).toBeNull();
    expect(await resolveCommit(repository, 'x'.repeat(256))).toBeNull();
  });

  it('reads a ref that looks like an option as a ref: a branch by that name, else none', async () => {
    expect(await resolveCommit(repository, '--output=/tmp/x')).toBe(other);
    for (const ref of ['--git-dir=/', '--branches=m*', '--all', '-h', '--'])
      expect(await resolveCommit(repository, ref)).toBeNull();
  });
});
