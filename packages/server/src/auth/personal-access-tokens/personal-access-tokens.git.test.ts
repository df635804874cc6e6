import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CI_TOKEN_VARIABLE, gitPushCommands } from '@berth/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { apps, tokens } from '../../db/schema.ts';
import { stopEdge } from '../../runtimes/docker/caddy-process.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';

// Personal access tokens on an app's git remote (issue 35): the password git sends, until revoked or
// expired; and the CI command the console shows works as written, with a real git client.

const exec = promisify(execFile);

let t: TestApp;
let owner: TestUser;
let appId = 0;
const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-pat-git-'));

beforeAll(async () => {
  const defaults = loadConfig({});
  t = await testApp({
    runtime: 'docker',
    git: { dir: path.join(dataDir, 'git'), maxPushBytes: 1024 * 1024 },
    // The edge this server starts outlives it: in a directory of the test's own, stopped at the end.
    edge: { ...defaults.edge, dir: path.join(dataDir, 'edge') },
  });
  owner = await t.signUp();
  const organization = await t.createOrganization(owner);
  const environment = await t.createEnvironment(owner, organization.id, 'production');
  const [app] = await t.db
    .insert(apps)
    .values({ environmentId: Number(environment.id), handle: 'shop' })
    .returning();
  appId = app?.id ?? 0;
});
afterAll(async () => {
  await t.close();
  await stopEdge(t.config.edge.dir);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function make(scope: 'manage' | 'read') {
  const response = await t.call('POST', `/auth/users/${owner.id}/personal_access_tokens`, {
    token: await t.elevate(owner),
    body: { name: `git ${scope}`, scope, expires_in_days: 7 },
  });
  expect(response.statusCode).toBe(201);
  return { id: response.json().id as string, accessToken: response.json().access_token as string };
}

const refs = (token: string) =>
  t.app.inject({
    method: 'GET',
    url: '/git/production/shop.git/info/refs?service=git-receive-pack',
    headers: { authorization: `Basic ${Buffer.from(`berth:${token}`).toString('base64')}` },
  });

describe('a personal access token on git', () => {
  it('is the password of a push while it lives; refused once revoked or expired', async () => {
    const revoked = await make('manage');
    const expired = await make('manage');
    expect((await refs(revoked.accessToken)).statusCode).toBe(200);
    expect((await refs(expired.accessToken)).statusCode).toBe(200);

    expect((await t.call('DELETE', `/auth/tokens/${revoked.id}`, { token: owner.token })).statusCode).toBe(
      204,
    );
    await t.db
      .update(tokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(tokens.id, expired.id));
    const afterRevoke = await refs(revoked.accessToken);
    expect(afterRevoke.statusCode).toBe(401);
    expect(afterRevoke.body).toBe('Access token has been revoked\n');
    const afterExpiry = await refs(expired.accessToken);
    expect(afterExpiry.statusCode).toBe(401);
    expect(afterExpiry.body).toBe('Access token has expired\n');
  });

  it('pushes only with scope manage', async () => {
    const reader = await make('read');
    expect((await refs(reader.accessToken)).statusCode).toBe(403);
  });

  it('works with the CI command as the console shows it, the token read from $BERTH_TOKEN', async () => {
    const token = await make('manage');
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const remote = `${address}/git/production/shop.git`;
    const work = fs.mkdtempSync(path.join(tmpdir(), 'berth-pat-push-'));
    // No global git configuration of the machine's user (a stored password, say) takes part.
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: work,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
    };
    const git = (...args: string[]) =>
      exec('git', ['-c', 'user.name=CI', '-c', 'user.email=ci@example.com', ...args], { cwd: work, env });
    try {
      await git('init', '--quiet', '-b', 'main');
      fs.writeFileSync(path.join(work, 'README'), 'pushed from CI\n');
      await git('add', 'README');
      await git('commit', '--quiet', '-m', 'From CI');
      // CI checks out a detached HEAD (GitLab always does), and the branch is new on the remote.
      await git('checkout', '--quiet', '--detach');
      // A branch that starts no deploy: this test is about signing in, not building.
      const { ciPush } = gitPushCommands(remote, 'from-ci');
      await exec('sh', ['-c', ciPush], {
        cwd: work,
        env: { ...env, [CI_TOKEN_VARIABLE]: token.accessToken },
      });
      const pushed = await exec('git', ['rev-parse', 'refs/heads/from-ci'], {
        cwd: path.join(dataDir, 'git', `${appId}.git`),
        env,
      });
      const local = await git('rev-parse', 'HEAD');
      expect(pushed.stdout.trim()).toBe(local.stdout.trim());
      // The token never reached the repository's configuration.
      expect(fs.readFileSync(path.join(work, '.git', 'config'), 'utf8')).not.toContain(token.accessToken);

      // Revoked, the same command fails.
      await t.call('DELETE', `/auth/tokens/${token.id}`, { token: owner.token });
      await expect(
        exec('sh', ['-c', ciPush], { cwd: work, env: { ...env, [CI_TOKEN_VARIABLE]: token.accessToken } }),
      ).rejects.toThrow(/Authentication failed|401/);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
