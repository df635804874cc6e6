import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../admin-commands.ts';
import { loadSigningKey } from '../../auth/tokens/token-keys.ts';
import { stopEdge } from '../../runtimes/docker/caddy-process.ts';
import { LABELS } from '../../runtimes/docker/engine.ts';
import { staticBusybox } from '../../runtimes/docker/local-images.ts';
import { engineAt } from '../../runtimes/swarm/swarm-databases.ts';
import { testEdge } from '../../testing/docker-images.ts';
import { gitWorkTree, pushWhileDraining, type RunningPush } from '../../testing/git-push.ts';
import { getThroughEdge } from '../../testing/request-loop.ts';
import {
  localSwarmCluster,
  type SwarmCluster,
  secondSwarmCluster,
  swarmSuiteRuns,
} from '../../testing/swarm-cluster.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';
import { swarmClusterTlsBox } from './swarm-clusters.service.ts';

// A second Swarm registered as a stack (`npm run admin -- add-stack`) beside the suite's cluster, which
// BERTH_SWARM_HOST names: its manager answers over TCP with TLS client certificates, as another
// machine's would. An app pushed to an environment on that stack is built on its manager, runs on its
// node, answers through the one edge, shows on the stack's Nodes tab, and leaves nothing when removed.

const runs = swarmSuiteRuns();
const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-swarm-stacks-'));

/** A FROM-scratch app: Debian's static busybox, whose httpd answers a text. */
const appFiles = (text: string) => ({
  Dockerfile: [
    'FROM scratch',
    'COPY busybox /bin/busybox',
    'RUN ["/bin/busybox", "--install", "-s", "/bin"]',
    'ENV PATH=/bin',
    `CMD ["/bin/sh", "-c", "mkdir -p /www && echo ${text} > /www/index.html && exec httpd -f -p $PORT -h /www"]`,
    '',
  ].join('\n'),
});

describe.skipIf(!runs)('a Swarm cluster registered as a stack', () => {
  let cluster: SwarmCluster;
  let second: Awaited<ReturnType<typeof secondSwarmCluster>>;
  let t: TestApp;
  let owner: TestUser;
  let tree: ReturnType<typeof gitWorkTree>;
  let edgePort: number;

  beforeAll(async () => {
    cluster = await localSwarmCluster();
    second = await secondSwarmCluster();
    const edge = await testEdge(dataDir);
    edgePort = edge.httpPort;
    t = await testApp({
      runtime: 'swarm',
      dataDir,
      git: { dir: path.join(dataDir, 'git'), maxPushBytes: 64 * 1024 * 1024 },
      docker: {
        network: 'berth',
        healthTimeoutSeconds: 30,
        statsIntervalSeconds: 60,
        databaseImages: {},
        backupDir: path.join(dataDir, 'backups'),
      },
      edge,
      swarm: { host: cluster.managerHost, tlsDir: null, registry: cluster.registry },
    });
    owner = await t.signUp();
    tree = gitWorkTree();
  }, 300_000);

  afterAll(async () => {
    await t?.close();
    // The edge outlives the server by design: the test's own is stopped here.
    await stopEdge(path.join(dataDir, 'edge'));
    await second?.down();
    tree?.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const finished = (push: RunningPush) => pushWhileDraining(push, () => t.worker.drain());

  it("registers the second cluster, and refuses the suite's own (the default stack runs on it)", async () => {
    const box = swarmClusterTlsBox(await loadSigningKey(t.db, undefined));
    const addStack = {
      box,
      defaultSwarm: { host: cluster.managerHost, tlsDir: null, registry: cluster.registry },
      appsDomain: 'localhost',
      autoscaling: { horizontal: false, vertical: false },
      engineAt,
    };
    await expect(
      runAdminCommand(t.db, ['add-stack', 'again', '--runtime', 'swarm', '--host', cluster.managerHost], {
        addStack,
      }),
    ).rejects.toThrow(
      `The Swarm at ${cluster.managerHost} is BERTH_SWARM_HOST's, which the default stack runs on: one cluster runs one stack`,
    );
    const said = await runAdminCommand(
      t.db,
      [
        'add-stack',
        'second',
        '--runtime',
        'swarm',
        '--host',
        second.managerHost,
        '--tls-dir',
        second.tlsDir,
        '--registry',
        second.registry,
      ],
      { addStack },
    );
    expect(said).toContain(`Stack second (shared) runs on the Swarm at ${second.managerHost}: 1 node`);
  });

  it('runs an app pushed to an environment on that stack on its cluster, through the one edge', async () => {
    const org = await t.createOrganization(owner);
    const stacks = (await t.call('GET', '/api/stacks', { token: owner.token })).json()._embedded.stacks as {
      id: string;
      name: string;
      runtime: string;
    }[];
    const stack = stacks.find((found) => found.name === 'second');
    expect(stack?.runtime).toBe('swarm');
    const created = await t.call('POST', '/api/accounts', {
      token: owner.token,
      body: {
        handle: 'far',
        organization_id: org.id,
        stack_id: stack?.id,
        type: 'development',
        onboarding_status: 'initiated',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const app = await t.call('POST', `/api/accounts/${created.json().id}/apps`, {
      token: owner.token,
      body: { handle: 'site' },
    });
    expect(app.statusCode, app.body).toBe(201);
    const appId = app.json().id as string;

    const remote = new URL(`${await t.app.listen({ port: 0, host: '127.0.0.1' })}/git/far/site.git`);
    remote.username = 'git';
    remote.password = owner.token;
    fs.copyFileSync(staticBusybox(), path.join(tree.dir, 'busybox'));
    await tree.commit(appFiles('from-the-second-cluster'), 'First');
    // The server started before the stack was added: the deploy's worker looks for its cluster then.
    const pushed = await finished(tree.push(remote.toString(), 'main'));
    expect(pushed.code, pushed.output).toBe(0);
    expect(pushed.output).toContain('remote: Deployed site. It has no endpoint yet');

    // The service runs on the second cluster's node, and nothing of it on the suite's.
    const onSecond = await engineAt(second.managerHost, second.tlsDir).listServices({
      filters: { label: [`${LABELS.app}`] },
    });
    const mine = onSecond.filter((service) => service.Spec?.Labels?.[LABELS.environment] === 'far');
    expect(mine).toHaveLength(1);
    const onSuite = await engineAt(cluster.managerHost).listServices({
      filters: { label: [`${LABELS.environment}=far`] },
    });
    expect(onSuite).toEqual([]);

    // Its endpoint answers through the edge all clusters share.
    const [service] = (await t.call('GET', `/api/apps/${appId}/services`, { token: owner.token })).json()
      ._embedded.services;
    const vhost = await t.call('POST', `/api/services/${service.id}/vhosts`, {
      token: owner.token,
      body: { type: 'http', platform: 'alb', acme: false, default: true, internal: false, ip_whitelist: [] },
    });
    expect(vhost.statusCode, vhost.body).toBe(201);
    const provisioned = await t.operate(owner, `/api/vhosts/${vhost.json().id}/operations`, {
      type: 'provision',
    });
    expect(provisioned.status).toBe('succeeded');
    const hostname = (await t.call('GET', `/api/vhosts/${vhost.json().id}`, { token: owner.token })).json()
      .virtual_domain as string;
    const answer = await getThroughEdge(edgePort, hostname);
    expect('body' in answer ? answer.body.trim() : answer.error).toBe('from-the-second-cluster');

    // The stack's Nodes tab lists the second cluster's node, running the app's container.
    const nodes = await t.call('GET', `/api/stacks/${stack?.id}/nodes`, { token: owner.token });
    expect(nodes.statusCode, nodes.body).toBe(200);
    const [node] = nodes.json()._embedded.nodes;
    expect(nodes.json()._embedded.nodes).toHaveLength(1);
    expect(node).toMatchObject({ role: 'manager', state: 'ready', hostname: 'berth-swarm88-1' });
    expect(
      node.containers.map((container: { resource_handle: string }) => container.resource_handle),
    ).toEqual(['site']);

    // Deprovisioned, it leaves no service, task or image of the app on the second cluster's node.
    const removed = await t.operate(owner, `/api/apps/${appId}/operations`, { type: 'deprovision' });
    expect(removed.status, await t.operationLog(owner, removed.id)).toBe('succeeded');
    const node1 = engineAt(second.engineHost);
    expect(await node1.listServices({ filters: { label: [`${LABELS.environment}=far`] } })).toEqual([]);
    expect(await node1.listImages({ filters: { label: [`${LABELS.environment}=far`] } })).toEqual([]);
  });
});
