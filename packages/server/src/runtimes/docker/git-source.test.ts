import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { archiveToFile, removeLeftContexts, resolveCommit } from './git-source.ts';

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

describe('a build context', () => {
  const repository = path.join(root, '2.git');
  execFileSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', repository]);
  const blob = execFileSync('git', ['--git-dir', repository, 'hash-object', '-w', '--stdin'], {
    input: 'FROM scratch\n',
    encoding: 'utf8',
  }).trim();
  const tree = execFileSync('git', ['--git-dir', repository, 'mktree'], {
    input: `100644 blob ${blob}\tDockerfile\n`,
    encoding: 'utf8',
  }).trim();
  const commit = git(repository, 'commit-tree', tree, '-m', 'first');
  const contexts = path.join(root, 'contexts');
  const left = () => (fs.existsSync(contexts) ? fs.readdirSync(contexts) : []);

  it('is the whole commit as a tar file in a private folder, gone once removed', async () => {
    const context = await archiveToFile(repository, commit, contexts);
    expect((fs.statSync(contexts).mode & 0o777).toString(8)).toBe('700');
    expect((fs.statSync(path.dirname(context.file)).mode & 0o777).toString(8)).toBe('700');
    const listing = execFileSync('tar', ['-tf', context.file], { encoding: 'utf8' });
    expect(listing.split('\n')).toContain('Dockerfile');
    await context.remove();
    await context.remove();
    expect(left()).toEqual([]);
  });

  it("says git's reason, and leaves nothing, when git cannot make it; refuses what is no commit id", async () => {
    const missing = 'f'.repeat(40);
    await expect(archiveToFile(repository, missing, contexts)).rejects.toThrow(
      /^git archive failed: fatal: not a tree object/,
    );
    await expect(archiveToFile(repository, '--output=/tmp/x', contexts)).rejects.toThrow(
      'Not a commit id: --output=/tmp/x',
    );
    expect(left()).toEqual([]);
  });

  it('stops git on an abort, as an interrupted operation, and leaves nothing', async () => {
    const aborted = new AbortController();
    aborted.abort();
    await expect(archiveToFile(repository, commit, contexts, aborted.signal)).rejects.toThrow(
      'Operation interrupted',
    );
    expect(left()).toEqual([]);
  });

  it('removes the contexts a process that died left, once older than any build', async () => {
    const old = path.join(contexts, 'context-old');
    const fresh = path.join(contexts, 'context-fresh');
    for (const dir of [old, fresh]) fs.mkdirSync(dir, { recursive: true });
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);
    fs.utimesSync(old, hoursAgo(7), hoursAgo(7));
    expect(await removeLeftContexts(contexts)).toEqual(['context-old']);
    expect(left()).toEqual(['context-fresh']);
    expect(await removeLeftContexts(path.join(root, 'no-such-dir'))).toEqual([]);
  });
});
