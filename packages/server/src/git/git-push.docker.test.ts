import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, operations } from '../db/schema.ts';
import { LABELS } from '../runtimes/docker/engine.ts';
import { resolveCommit } from '../runtimes/docker/git-source.ts';
import {
  BASE_IMAGE,
  baseImage,
  dockerTestConfig,
  removeDockerTestResources,
  suiteEngine,
} from '../testing/docker-images.ts';
import { gitWorkTree, pushWhileDraining, type RunningPush } from '../testing/git-push.ts';
import { type TestApp, type TestUser, testApp } from '../testing/test-app.ts';

// `git push` to an app's remote on the docker runtime, as its user sees it: the build and the deploy
// stream to the client as `remote: …` lines while they run, the push ends with the app's URL, and a
// build that fails fails the push and puts the branch back. Skipped locally without an engine.

const docker = await suiteEngine();

const run = randomBytes(3).toString('hex');
const network = `berth-push-${run}`;
const environmentHandle = `push-${run}`;
const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-push-data-'));
const serving = (text: string) =>
  `FROM ${BASE_IMAGE}\nENV PATH=/bin\nRUN mkdir -p /www && echo ${text} > /www/index.html\n`;

/** The edge's answer for a hostname (the Host header: no DNS needed). */
function edgeGet(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path: '/', headers: { Host: hostname } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve(body.trim()));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe.skipIf(!docker)('git push on the docker runtime', () => {
  const engine = docker as Docker;
  let t: TestApp;
  let owner: TestUser;
  let appId: number;
  let remote: string;
  let tree: ReturnType<typeof gitWorkTree>;

  beforeAll(async () => {
    await baseImage(engine);
    tree = gitWorkTree();
    t = await testApp(await dockerTestConfig(dataDir, network));
    owner = await t.signUp();
    const org = await t.createOrganization(owner);
    const environment = await t.createEnvironment(owner, org.id, environmentHandle);
    const [app] = await t.db
      .insert(apps)
      .values({ environmentId: Number(environment.id), handle: 'site' })
      .returning();
    appId = app?.id ?? 0;
    const url = new URL(
      `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/git/${environmentHandle}/site.git`,
    );
    url.username = 'git';
    url.password = owner.token;
    remote = url.toString();
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await removeDockerTestResources(engine, { environmentHandle, network, dataDir });
    // The images this suite's pushes built (a deprovision would remove them; the app is left deployed).
    for (const image of await engine.listImages({
      filters: { label: [LABELS.app, `${LABELS.environment}=${environmentHandle}`] },
    }))
      await engine.getImage(image.Id).remove({ force: true });
    tree?.remove();
  });

  /** The test server's worker runs only when drained: it works the queue until the push ends. */
  const finished = (push: RunningPush) => pushWhileDraining(push, () => t.worker.drain());

  const deployStatus = async () =>
    (
      await t.db
        .select()
        .from(operations)
        .where(and(eq(operations.resourceType, 'app'), eq(operations.resourceId, appId)))
        .orderBy(desc(operations.id))
    )[0]?.status;

  it('streams the build and the deploy to the client as they run, and ends with the URL', async () => {
    await tree.commit(
      { Dockerfile: serving('first-push'), Procfile: 'web: exec httpd -f -p $PORT -h /www\n' },
      'First',
    );
    let push = tree.push(remote, 'main');
    let ending = finished(push);
    // The build's lines reach the client while the deploy still runs (the roll-out waits for the
    // container to answer, seconds later).
    await push.waitFor('remote: Step 1/');
    expect(await deployStatus()).toBe('running');
    let { code, output } = await ending;
    expect(code, output).toBe(0);
    expect(output).toContain('remote: Building image from Dockerfile');
    expect(output).toMatch(/remote: Image \w+ built from \w+/);
    expect(output).toContain(
      'remote: Deployed site. It has no endpoint yet: add one to open it on the web at',
    );

    // With an endpoint, a push ends with its URL, which serves the pushed code.
    const [service] = (await t.call('GET', `/api/apps/${appId}/services`, { token: owner.token })).json()
      ._embedded.services;
    const created = await t.call('POST', `/api/services/${service.id}/vhosts`, {
      token: owner.token,
      body: { type: 'http', platform: 'alb', acme: false, default: true, internal: false, ip_whitelist: [] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const provisioned = await t.operate(owner, `/api/vhosts/${created.json().id}/operations`, {
      type: 'provision',
    });
    expect(provisioned.status).toBe('succeeded');
    await tree.commit({ Dockerfile: serving('second-push') }, 'Second');
    push = tree.push(remote, 'main');
    ending = finished(push);
    ({ code, output } = await ending);
    expect(code, output).toBe(0);
    const url = /remote: Deployed site: (http:\/\/\S+)/.exec(output)?.[1];
    expect(url, output).toBeDefined();
    expect(await edgeGet(url ?? '')).toBe('second-push');
  });

  it('fails the push when the build fails, with the reason, and puts main back: a push again retries', async () => {
    const repository = path.join(dataDir, 'git', `${appId}.git`);
    const deployed = await resolveCommit(repository, 'refs/heads/main');
    await tree.commit({ Dockerfile: `FROM ${BASE_IMAGE}\nENV PATH=/bin\nRUN exit 3\n` }, 'Broken');
    for (const attempt of [1, 2]) {
      const { code, output } = await finished(tree.push(remote, 'main'));
      expect(code, `attempt ${attempt}: ${output}`).not.toBe(0);
      expect(output).toContain('remote: Deploying main');
      expect(output).toMatch(/remote: error: .*non-zero code: 3/);
      expect(output).toMatch(/ ! \[remote rejected\] main -> main \(deploy failed: .*non-zero code: 3\)/);
      expect(output).toContain(`remote: main is back at ${deployed?.slice(0, 7)}: push again to retry`);
      expect(await resolveCommit(repository, 'refs/heads/main')).toBe(deployed);
    }
  });

  it('deprovisioning an app removes its repository, and a push then makes none', async () => {
    const [app] = await t.db
      .insert(apps)
      .values({
        environmentId: (await t.db.select().from(apps).where(eq(apps.id, appId)))[0]?.environmentId ?? 0,
        handle: 'gone',
      })
      .returning();
    const gone = new URL(remote.replace('/site.git', '/gone.git'));
    // A branch that deploys nothing: the repository is made, and nothing runs.
    const { code } = await finished(tree.push(gone.toString(), 'main:feature'));
    expect(code).toBe(0);
    const repository = path.join(dataDir, 'git', `${app?.id}.git`);
    expect(fs.existsSync(path.join(repository, 'HEAD'))).toBe(true);
    const removed = await t.operate(owner, `/api/apps/${app?.id}/operations`, { type: 'deprovision' });
    expect(removed.status).toBe('succeeded');
    expect(fs.existsSync(repository)).toBe(false);
    expect(await t.operationLog(owner, removed.id)).toContain('Removed the git repository of gone');
    const again = await tree.push(gone.toString(), 'main:feature').done;
    expect(again.code).not.toBe(0);
    expect(again.output).toContain('Repository not found');
    expect(
      fs.readdirSync(path.join(dataDir, 'git')).filter((name) => name.startsWith(`${app?.id}.git`)),
    ).toEqual([]);
  });
});
