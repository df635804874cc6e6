import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, environments, stacks } from '../db/schema.ts';
import { addMember, grant } from '../testing/factories.ts';
import { type TestApp, type TestUser, testApp } from '../testing/test-app.ts';

// Who may use an app's git remote (the push itself, and the deploy it starts, run in the docker suite:
// src/operations/docker-operations.docker.test.ts). Only `git http-backend` runs here, no engine.

let t: TestApp;
let owner: TestUser;
let environmentId: string;
let organizationId: string;
const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-git-routes-'));

beforeAll(async () => {
  t = await testApp({
    runtime: 'docker',
    git: { dir: path.join(dataDir, 'git'), maxPushBytes: 1024 * 1024 },
  });
  owner = await t.signUp();
  const org = await t.createOrganization(owner);
  organizationId = org.id;
  const environment = await t.createEnvironment(owner, org.id, 'production');
  environmentId = environment.id;
  await t.db.insert(apps).values({ environmentId: Number(environment.id), handle: 'shop' });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const basic = (token: string) => `Basic ${Buffer.from(`git:${token}`).toString('base64')}`;
const refs = (repository: string, token?: string, service = 'git-receive-pack') =>
  t.app.inject({
    method: 'GET',
    url: `/git/${repository}/info/refs?service=${service}`,
    headers: token ? { authorization: basic(token) } : {},
  });

describe("an app's git remote", () => {
  it('asks for the API token, and refuses a wrong one', async () => {
    const anonymous = await refs('production/shop.git');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Basic realm="Berth", charset="UTF-8"');
    expect(anonymous.body).toBe('Sign in with your Berth API token as the password\n');
    const forged = await refs('production/shop.git', 'not-a-token');
    expect(forged.statusCode).toBe(401);
    expect(forged.body).toBe('Invalid access token\n');
  });

  it('is the git_repo of apps on a docker stack (simulated ones have none)', async () => {
    const [app] = await t.db.select().from(apps).where(eq(apps.handle, 'shop'));
    const response = await t.call('GET', `/api/apps/${app?.id}`, { token: owner.token });
    expect(response.json().git_repo).toBe('http://berth.test/git/production/shop.git');
  });

  it("answers the owner with the repository's refs, made on the first push", async () => {
    const response = await refs('production/shop.git', owner.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-git-receive-pack-advertisement');
    expect(response.body).toContain('# service=git-receive-pack');
    const [app] = await t.db.select().from(apps).where(eq(apps.handle, 'shop'));
    expect(fs.existsSync(path.join(dataDir, 'git', `${app?.id}.git`, 'HEAD'))).toBe(true);
    // Only the smart protocol.
    expect((await refs('production/shop.git', owner.token, 'dumb')).statusCode).toBe(403);
  });

  it('is 404 for another organization and for an unknown app, 403 without the deploy permission', async () => {
    const stranger = await t.signUp();
    const elsewhere = await refs('production/shop.git', stranger.token);
    expect(elsewhere.statusCode).toBe(404);
    expect((await refs('production/nothing.git', owner.token)).statusCode).toBe(404);
    expect((await refs('production/shop', owner.token)).statusCode).toBe(404);

    const reader = await t.signUp();
    const role = await addMember(t.db, { organizationId, userId: reader.id });
    await grant(t.db, { roleId: role.id, environmentId, scope: 'read' });
    const denied = await refs('production/shop.git', reader.token);
    expect(denied.statusCode).toBe(403);

    await grant(t.db, { roleId: role.id, environmentId, scope: 'deploy' });
    expect((await refs('production/shop.git', reader.token)).statusCode).toBe(200);
  });

  it("asks to rename when two of the caller's organizations name an environment and app alike", async () => {
    const second = await t.createOrganization(owner, 'Second Org');
    const twin = await t.createEnvironment(owner, second.id, 'production');
    await t.db.insert(apps).values({ environmentId: Number(twin.id), handle: 'twin' });
    await t.db.insert(apps).values({ environmentId: Number(environmentId), handle: 'twin' });
    const response = await refs('production/twin.git', owner.token);
    expect(response.statusCode).toBe(409);
    expect(response.body).toBe(
      'More than one of your organizations has an environment production with an app twin: rename one of the environments to push to the other\n',
    );
  });

  it('is for apps on docker stacks: a simulated stack has no code to build', async () => {
    const environment = await t.createEnvironment(owner, organizationId, 'simulated');
    const [stack] = await t.db
      .insert(stacks)
      .values({ name: 'sim-only', region: 'us-east-1', runtime: 'sim' })
      .returning();
    await t.db
      .update(environments)
      .set({ stackId: stack?.id })
      .where(eq(environments.id, Number(environment.id)));
    await t.db.insert(apps).values({ environmentId: Number(environment.id), handle: 'demo' });
    const response = await refs('simulated/demo.git', owner.token);
    expect(response.statusCode).toBe(422);
    expect(response.body).toBe(
      'simulated runs on the sim runtime: git pushes deploy apps on docker and swarm stacks\n',
    );
  });
});
