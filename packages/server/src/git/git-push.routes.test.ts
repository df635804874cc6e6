import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, environments, operations, services, stacks, vhosts } from '../db/schema.ts';
import type { OperationRow } from '../operations/operations.hal.ts';
import { operationLimitMessages } from '../operations/operations.service.ts';
import { appendLeasedLog, claimNext, finish, leaseOf, logLine } from '../operations/queue.ts';
import { removeRepository, resolveCommit } from '../runtimes/docker/git-source.ts';
import { gitWorkTree } from '../testing/git-push.ts';
import { type TestApp, type TestUser, testApp } from '../testing/test-app.ts';
import { FLUSH, packet } from './pkt-line.ts';
import { parseReport } from './receive-pack-stream.ts';

// What the pushing client sees of the deploy its push started: a real `git push` over HTTP to the
// server, while the test runs the deploy as a worker in another process would (the queue's own claim,
// fenced log lines and end), so it is followed through the database. The docker suite runs the same
// with real builds (git-push.docker.test.ts).

const QUEUE_CAP = 2;
const WORKER = 'test-worker';
let t: TestApp;
let owner: TestUser;
let environmentId: number;
let address: string;
const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-git-push-'));
const gitDir = path.join(dataDir, 'git');
const trees: ReturnType<typeof gitWorkTree>[] = [];

beforeAll(async () => {
  t = await testApp({
    git: { dir: gitDir, maxPushBytes: 16 * 1024 * 1024 },
    operationLimits: { queuedPerOrganization: QUEUE_CAP, perUserPerMinute: 1000 },
  });
  owner = await t.signUp();
  const org = await t.createOrganization(owner);
  environmentId = await dockerEnvironment(t, owner, org.id);
  address = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  for (const tree of trees) tree.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * An environment on a stack whose runtime is `docker`, the runtime pushes deploy on. The server itself
 * runs `sim` (no engine, no edge): the test is the worker that runs the deploys.
 */
async function dockerEnvironment(app: TestApp, user: TestUser, organizationId: string): Promise<number> {
  const environment = await app.createEnvironment(user, organizationId, 'production');
  const [stack] = await app.db
    .insert(stacks)
    .values({ name: `docker-${organizationId.slice(0, 8)}`, region: 'us-east-1', runtime: 'docker' })
    .returning();
  await app.db
    .update(environments)
    .set({ stackId: stack?.id })
    .where(eq(environments.id, Number(environment.id)));
  return Number(environment.id);
}

async function newApp(handle: string) {
  const [app] = await t.db.insert(apps).values({ environmentId, handle }).returning();
  if (!app) throw new Error('no app');
  const tree = gitWorkTree();
  trees.push(tree);
  const remote = new URL(`${address}/git/production/${handle}.git`);
  remote.username = 'git';
  remote.password = owner.token;
  return { app, tree, remote: remote.toString(), repository: path.join(gitDir, `${app.id}.git`) };
}

/** The next queued operation, claimed as a worker process claims it, once a push has queued it. */
async function claim(): Promise<OperationRow> {
  for (let tries = 0; tries < 600; tries += 1) {
    const op = await claimNext(t.db, WORKER, 60_000);
    if (op) return op;
    await sleep(50);
  }
  throw new Error('No operation was queued');
}
const log = (op: OperationRow, message: string, level: 'INFO' | 'WARN' | 'ERROR' = 'INFO') =>
  appendLeasedLog(t.db, leaseOf(op, WORKER), [logLine(level, message)]);
const end = (op: OperationRow, status: 'succeeded' | 'failed') =>
  finish(t.db, leaseOf(op, WORKER), status, async () => undefined);
/** Fails an operation as the worker does: the reason logged last. */
async function fail(op: OperationRow, reason: string) {
  await log(op, reason, 'ERROR');
  await log(op, `Operation ${op.id} failed: ${reason}`, 'ERROR');
  await end(op, 'failed');
}
const queued = async (appId: number) =>
  t.db
    .select()
    .from(operations)
    .where(and(eq(operations.resourceId, appId), eq(operations.resourceType, 'app')));

describe('a push to a deploy branch', () => {
  it("tells the client of its deploy as it runs, and ends with the app's URL", async () => {
    const { app, tree, remote } = await newApp('told');
    const sha = await tree.commit({ Dockerfile: 'FROM busybox\n' }, 'Ship it');
    const [service] = await t.db
      .insert(services)
      .values({ environmentId, appId: app.id, handle: 'web', processType: 'web' })
      .returning();
    await t.db.insert(vhosts).values({
      environmentId,
      serviceId: service?.id ?? 0,
      status: 'provisioned',
      virtualDomain: 'told-production.apps.test',
      externalHost: 'berth.test',
      externalPorts: { http: 8080, https: null },
    });
    const push = tree.push(remote, 'main');
    const op = await claim();
    await push.waitFor(
      `remote: Deploying main (${sha.slice(0, 7)}) to production/told: http://berth.test/operations/${op.id}`,
    );
    await log(op, 'Step 1/2 : FROM busybox');
    // Each line reaches the client while the deploy still runs.
    await push.waitFor('remote: Step 1/2 : FROM busybox');
    await log(op, 'The edge is slow to answer', 'WARN');
    await push.waitFor('remote: warning: The edge is slow to answer');
    await end(op, 'succeeded');
    const { code, output } = await push.done;
    expect(code).toBe(0);
    expect(output).toContain('remote: Deployed told: http://told-production.apps.test:8080');
    expect(output).toContain('* [new branch]      main -> main');
    // The pushed commit is what deploys: a later push cannot be built in its place.
    expect(op).toMatchObject({ type: 'deploy', gitRef: sha });
  });

  it('says how to add an endpoint when the app has none', async () => {
    const { app, tree, remote } = await newApp('bare');
    await tree.commit({ Dockerfile: 'FROM busybox\n' });
    const push = tree.push(remote, 'main');
    await end(await claim(), 'succeeded');
    const { code, output } = await push.done;
    expect(code).toBe(0);
    expect(output).toContain(
      `remote: Deployed bare. It has no endpoint yet: add one to open it on the web at http://berth.test/apps/${app.id}/endpoints/create`,
    );
  });

  it('fails when its deploy fails, and puts the branch back: pushing the same commit again retries', async () => {
    const { tree, remote, repository } = await newApp('failing');
    const first = await tree.commit({ Dockerfile: 'FROM busybox\n' }, 'First');
    let push = tree.push(remote, 'main');
    await fail(await claim(), "The command '/bin/sh -c exit 3' returned a non-zero code: 3");
    let result = await push.done;
    expect(result.code).not.toBe(0);
    expect(result.output).toContain(
      "remote: error: The command '/bin/sh -c exit 3' returned a non-zero code: 3",
    );
    expect(result.output).toContain(
      " ! [remote rejected] main -> main (deploy failed: The command '/bin/sh -c exit 3' returned a non-zero code: 3)",
    );
    // A branch the push made is not kept.
    expect(result.output).toContain('remote: main was not kept: push again to retry');
    expect(await resolveCommit(repository, 'refs/heads/main')).toBeNull();

    // The same commit again: pushed again (not "Everything up-to-date") and deployed.
    push = tree.push(remote, 'main');
    await end(await claim(), 'succeeded');
    result = await push.done;
    expect(result.code).toBe(0);
    expect(result.output).not.toContain('Everything up-to-date');
    expect(await resolveCommit(repository, 'refs/heads/main')).toBe(first);

    // A later commit whose deploy fails: main goes back to the one deployed.
    await tree.commit({ Dockerfile: 'FROM busybox\nRUN exit 3\n' }, 'Second');
    push = tree.push(remote, 'main');
    await fail(await claim(), 'exit code 3');
    result = await push.done;
    expect(result.code).not.toBe(0);
    expect(result.output).toContain(`remote: main is back at ${first.slice(0, 7)}: push again to retry`);
    expect(await resolveCommit(repository, 'refs/heads/main')).toBe(first);
  });

  it('refuses only main when a push that also made another branch fails its deploy', async () => {
    const { tree, remote, repository } = await newApp('twofold');
    const sha = await tree.commit({ Dockerfile: 'FROM busybox\n' });
    await tree.git('branch', 'feature');
    const push = tree.push(remote, 'main', 'feature');
    await fail(await claim(), 'exit code 3');
    const { code, output } = await push.done;
    expect(code).not.toBe(0);
    expect(output).toContain(' ! [remote rejected] main -> main (deploy failed: exit code 3)');
    expect(output).toContain(' * [new branch]      feature -> feature');
    expect(await resolveCommit(repository, 'refs/heads/feature')).toBe(sha);
    expect(await resolveCommit(repository, 'refs/heads/main')).toBeNull();
  });

  it('fails with the reason when its deploy cannot start (the queue is full), and keeps nothing', async () => {
    const { app, tree, remote, repository } = await newApp('crowded');
    // The organization's queue is full: the push's deploy would be refused with 429 by the API too.
    for (let slot = 0; slot < QUEUE_CAP; slot += 1) {
      const response = await t.call('POST', `/api/apps/${app.id}/operations`, {
        token: owner.token,
        body: { type: 'deploy', docker_image: 'busybox:1' },
      });
      expect(response.statusCode).toBe(201);
    }
    await tree.commit({ Dockerfile: 'FROM busybox\n' });
    const { code, output } = await tree.push(remote, 'main').done;
    expect(code).not.toBe(0);
    expect(output).toContain(
      ` ! [remote rejected] main -> main (deploy not started: ${operationLimitMessages.queueFull(QUEUE_CAP)})`,
    );
    expect(await resolveCommit(repository, 'refs/heads/main')).toBeNull();
    for (let slot = 0; slot < QUEUE_CAP; slot += 1) await end(await claim(), 'failed');
    expect((await queued(app.id)).map((op) => op.status)).toEqual(['failed', 'failed']);
  });
});

describe('a push that deploys nothing', () => {
  it('to another branch, or deleting one, answers as git did and queues nothing', async () => {
    const { app, tree, remote, repository } = await newApp('branches');
    const sha = await tree.commit({ 'README.md': 'hello\n' });
    await tree.git('branch', 'feature');
    let result = await tree.push(remote, 'feature').done;
    expect(result.code).toBe(0);
    expect(result.output).not.toContain('remote:');
    expect(await resolveCommit(repository, 'refs/heads/feature')).toBe(sha);
    result = await tree.push(remote, ':feature').done;
    expect(result.code).toBe(0);
    expect(result.output).toContain(' - [deleted]         feature');
    expect(await queued(app.id)).toEqual([]);
  });
});

/** Posts a receive-pack request as a client of its own (not git) would, and answers the raw answer. */
function receivePack(handle: string, body: Buffer, headers: Record<string, string> = {}) {
  const url = new URL(`${address}/git/production/${handle}.git/git-receive-pack`);
  return new Promise<Buffer>((resolve, reject) => {
    const sent = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`git:${owner.token}`).toString('base64')}`,
          'content-type': 'application/x-git-receive-pack-request',
          'content-length': String(body.length),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks)));
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('clients of other kinds', () => {
  it('without side-band (and with a gzipped request) get no progress, only the report, refused', async () => {
    const { tree, repository } = await newApp('plain');
    const sha = await tree.commit({ Dockerfile: 'FROM busybox\n' });
    // Make the repository (a client's first contact does), then send the commit's pack by hand.
    const refs = await t.app.inject({
      method: 'GET',
      url: '/git/production/plain.git/info/refs?service=git-receive-pack',
      headers: { authorization: `Basic ${Buffer.from(`git:${owner.token}`).toString('base64')}` },
    });
    expect(refs.statusCode).toBe(200);
    const pack = await packOf(tree.dir, sha);
    const zero = '0'.repeat(40);
    const body = gzipSync(
      Buffer.concat([packet(`${zero} ${sha} refs/heads/main\0 report-status agent=test/1`), FLUSH, pack]),
    );
    const answering = receivePack('plain', body, { 'content-encoding': 'gzip' });
    await fail(await claim(), 'exit code 3');
    const answer = await answering;
    // No band byte: the plain report, with main refused.
    expect(parseReport(answer)).toEqual({
      unpack: 'ok',
      refs: [{ ref: 'refs/heads/main', ok: false, reason: 'deploy failed: exit code 3', options: [] }],
    });
    expect(await resolveCommit(repository, 'refs/heads/main')).toBeNull();
  });

  it('start nothing for a branch git refused, though it is at the pushed commit (a race of two pushes)', async () => {
    const { app, tree, repository } = await newApp('raced-twice');
    const before = await tree.commit({ Dockerfile: 'FROM busybox\n' }, 'One');
    const sha = await tree.commit({ Dockerfile: 'FROM busybox\n' }, 'Two');
    const refs = await t.app.inject({
      method: 'GET',
      url: '/git/production/raced-twice.git/info/refs?service=git-receive-pack',
      headers: { authorization: `Basic ${Buffer.from(`git:${owner.token}`).toString('base64')}` },
    });
    expect(refs.statusCode).toBe(200);
    // The other push won: main is at the commit already. This one still names the commit before as
    // main's old value, so git refuses it (the ref moved), with main at the commit it pushed all the same.
    const pack = await packOf(tree.dir, sha);
    await receivePack(
      'raced-twice',
      Buffer.concat([packet(`${'0'.repeat(40)} ${sha} refs/heads/other\0 report-status`), FLUSH, pack]),
    );
    const gitDirOf = ['--git-dir', repository];
    await new Promise<void>((resolve, reject) =>
      spawn('git', [...gitDirOf, 'update-ref', 'refs/heads/main', sha]).on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`update-ref: ${code}`)),
      ),
    );
    const answer = await receivePack(
      'raced-twice',
      Buffer.concat([packet(`${before} ${sha} refs/heads/main\0 report-status`), FLUSH, pack]),
    );
    expect(parseReport(answer)?.refs).toMatchObject([{ ref: 'refs/heads/main', ok: false }]);
    expect(await resolveCommit(repository, 'refs/heads/main')).toBe(sha);
    // The push git refused started no deploy: the one that won deploys it.
    await sleep(300);
    expect(await queued(app.id)).toEqual([]);
  });

  it('that go away mid-upload leave no git process behind', async () => {
    const { tree } = await newApp('half-sent');
    const sha = await tree.commit({ Dockerfile: 'FROM busybox\n' });
    const authorization = `Basic ${Buffer.from(`git:${owner.token}`).toString('base64')}`;
    const refs = await t.app.inject({
      method: 'GET',
      url: '/git/production/half-sent.git/info/refs?service=git-receive-pack',
      headers: { authorization },
    });
    expect(refs.statusCode).toBe(200);
    const pack = await packOf(tree.dir, sha);
    const body = Buffer.concat([
      packet(`${'0'.repeat(40)} ${sha} refs/heads/main\0 report-status`),
      FLUSH,
      pack,
    ]);
    const backends = () =>
      execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.includes('http-backend'));
    const url = new URL(address);
    const socket = connect(Number(url.port), url.hostname);
    socket.on('error', () => undefined);
    socket.write(
      [
        'POST /git/production/half-sent.git/git-receive-pack HTTP/1.1',
        `Host: ${url.host}`,
        `Authorization: ${authorization}`,
        'Content-Type: application/x-git-receive-pack-request',
        `Content-Length: ${body.length}`,
        '',
        '',
      ].join('\r\n'),
    );
    socket.write(body.subarray(0, Math.floor(body.length / 2)));
    for (let tries = 0; tries < 100 && backends().length === 0; tries += 1) await sleep(50);
    expect(backends()).toHaveLength(1);
    // The client goes away with half its pack sent: git is not left waiting for the rest.
    socket.destroy();
    for (let tries = 0; tries < 100 && backends().length > 0; tries += 1) await sleep(50);
    expect(backends()).toEqual([]);
  });

  it('that leave mid-deploy change nothing: the deploy goes on, and a failed one is still rolled back', async () => {
    const { app, tree, remote, repository } = await newApp('leaving');
    await tree.commit({ Dockerfile: 'FROM busybox\n' });
    const push = tree.push(remote, 'main');
    const op = await claim();
    await push.waitFor('remote: Deploying main');
    push.kill();
    await push.done;
    await log(op, 'Step 1/2 : FROM busybox');
    await fail(op, 'exit code 3');
    for (let tries = 0; tries < 100 && (await resolveCommit(repository, 'refs/heads/main')); tries += 1)
      await sleep(50);
    expect(await resolveCommit(repository, 'refs/heads/main')).toBeNull();
    expect((await queued(app.id)).map((row) => row.status)).toEqual(['failed']);
    // The server goes on answering.
    const refs = await t.app.inject({
      method: 'GET',
      url: '/git/production/leaving.git/info/refs?service=git-receive-pack',
      headers: { authorization: `Basic ${Buffer.from(`git:${owner.token}`).toString('base64')}` },
    });
    expect(refs.statusCode).toBe(200);
  });
});

describe('a deprovisioned app', () => {
  it('gets no repository from a first push racing the transaction that queues its deprovision', async () => {
    const { app, repository } = await newApp('raced');
    // The deprovision's enqueue marks the app in its transaction; the push comes while it is open.
    let commit: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      commit = resolve;
    });
    const enqueue = t.db.transaction(async (tx) => {
      await tx.update(apps).set({ status: 'deprovisioning' }).where(eq(apps.id, app.id));
      await held;
    });
    const first = t.app.inject({
      method: 'GET',
      url: '/git/production/raced.git/info/refs?service=git-receive-pack',
      headers: { authorization: `Basic ${Buffer.from(`git:${owner.token}`).toString('base64')}` },
    });
    await sleep(300);
    commit();
    await enqueue;
    const answer = await first;
    expect(answer.statusCode).toBe(422);
    expect(answer.body).toBe('App raced is being deprovisioned\n');
    expect(fs.existsSync(repository)).toBe(false);
  });

  it('takes no push while being deprovisioned, and a racing push cannot make its repository again', async () => {
    const { app, tree, remote, repository } = await newApp('leaving-soon');
    await tree.commit({ Dockerfile: 'FROM busybox\n' });
    const push = tree.push(remote, 'main');
    const deploy = await claim();
    await push.waitFor('remote: Deploying main');
    // Deprovisioned while the push waits for its deploy: queued behind it, the app marked at once.
    const deprovision = await t.call('POST', `/api/apps/${app.id}/operations`, {
      token: owner.token,
      body: { type: 'deprovision' },
    });
    expect(deprovision.statusCode).toBe(201);
    await fail(deploy, 'exit code 3');
    const { code, output } = await push.done;
    expect(code).not.toBe(0);
    expect(output).toContain(' ! [remote rejected] main -> main (deploy failed: exit code 3)');
    // The deprovision removes the repository: the push did not touch it meanwhile.
    expect(output).not.toContain('push again to retry');
    const refused = await t.app.inject({
      method: 'GET',
      url: '/git/production/leaving-soon.git/info/refs?service=git-receive-pack',
      headers: { authorization: `Basic ${Buffer.from(`git:${owner.token}`).toString('base64')}` },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toBe('App leaving-soon is being deprovisioned\n');

    // What the deprovision does (the docker runtime's removeApp, then the row goes).
    expect(await removeRepository(gitDir, { appId: app.id })).toBe(true);
    expect(fs.existsSync(repository)).toBe(false);
    const again = await tree.push(remote, 'main').done;
    expect(again.code).not.toBe(0);
    expect(fs.existsSync(repository)).toBe(false);
    await t.db.delete(apps).where(eq(apps.id, app.id));
    const gone = await tree.push(remote, 'main').done;
    expect(gone.output).toContain('Repository not found');
    expect(fs.readdirSync(gitDir).filter((name) => name.startsWith(`${app.id}.git`))).toEqual([]);
  });
});

describe('a server that stops', () => {
  it("ends a push waiting for its deploy with git's report, and says the deploy goes on", async () => {
    const stopping = await testApp({
      git: { dir: path.join(dataDir, 'stopping-git'), maxPushBytes: 1024 * 1024 },
    });
    const user = await stopping.signUp();
    const org = await stopping.createOrganization(user);
    const environment = await dockerEnvironment(stopping, user, org.id);
    await stopping.db.insert(apps).values({ environmentId: environment, handle: 'shop' });
    const origin = await stopping.app.listen({ port: 0, host: '127.0.0.1' });
    const tree = gitWorkTree();
    trees.push(tree);
    await tree.commit({ Dockerfile: 'FROM busybox\n' });
    const remote = new URL(`${origin}/git/production/shop.git`);
    remote.username = 'git';
    remote.password = user.token;
    const push = tree.push(remote.toString(), 'main');
    await push.waitFor('remote: Deploying main');
    const started = Date.now();
    await stopping.close();
    expect(Date.now() - started).toBeLessThan(4000);
    const { code, output } = await push.done;
    expect(code).toBe(0);
    expect(output).toMatch(
      /remote: Berth is stopping; the deploy goes on: follow it at http:\/\/berth\.test\/operations\/\d+/,
    );
  });
});

/** The pack of a commit and everything it holds, as a client sends it. */
function packOf(dir: string, sha: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['pack-objects', '--stdout', '--revs', '--quiet'], { cwd: dir });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${code}`))));
    child.stdin.end(`${sha}\n`);
  });
}
