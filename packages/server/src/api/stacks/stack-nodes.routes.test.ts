import { DEFAULT_SHARED_STACK, stackNodeCollection, stackNodeResource } from '@berth/core';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { environments, stacks } from '../../db/schema.ts';
import { RuntimeError } from '../../runtimes/runtime.ts';
import { simNodeHost } from '../../runtimes/sim/sim-nodes.ts';
import { createSimRuntime } from '../../runtimes/sim/sim-runtime.ts';
import { environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import {
  addMember,
  seedApp,
  seedContainer,
  seedDatabase,
  seedRelease,
  seedService,
} from '../../testing/factories.ts';
import { createStackNodesService } from './stack-nodes.service.ts';
import { createStacksService } from './stacks.service.ts';

// Issue 39: GET /stacks/:id/nodes, the stack page's Nodes tab.
const { t, f } = await environmentSuite();
const api = 'http://berth.test/api';
const host = (index: number) => simNodeHost(DEFAULT_SHARED_STACK.name, index);
let sharedId: number;
let foreignId: number;
let dockerId: number;
const ids = { app: 0, web: 0, database: 0, postgres: 0, environment: 0 };

/** A running container of the first release of a new service. */
async function seedRunning(service: Parameters<typeof seedService>[1], dockerName: string, index: number) {
  const created = await seedService(t.db, service);
  const release = await seedRelease(t.db, { serviceId: created.id });
  await seedContainer(t.db, { releaseId: release.id, dockerName, host: host(index), status: 'running' });
  return created;
}

beforeAll(async () => {
  const [shared] = await t.db.select().from(stacks).where(eq(stacks.isDefault, true));
  sharedId = shared?.id ?? 0;
  const [foreign] = await t.db
    .insert(stacks)
    .values({ name: 'other-prod', region: 'eu-west-1', organizationId: f.strangerEnvironment.organizationId })
    .returning();
  foreignId = foreign?.id ?? 0;
  // A stack on a runtime this (test) process does not run.
  const [docker] = await t.db
    .insert(stacks)
    .values({
      name: 'acme-docker',
      region: 'eu-west-1',
      organizationId: f.organization.id,
      runtime: 'docker',
    })
    .returning();
  dockerId = docker?.id ?? 0;

  const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop' });
  ids.app = app.id;
  ids.environment = f.environment.id;
  ids.web = (
    await seedRunning({ environmentId: f.environment.id, appId: app.id, handle: 'web' }, 'shop-web-1', 1)
  ).id;
  const database = await seedDatabase(t.db, {
    environmentId: f.environment.id,
    handle: 'db',
    type: 'postgresql',
  });
  ids.database = database.id;
  ids.postgres = (
    await seedRunning(
      { environmentId: f.environment.id, databaseId: database.id, handle: 'postgresql' },
      'db-postgresql-1',
      2,
    )
  ).id;
  const theirs = await seedApp(t.db, { environmentId: f.strangerEnvironment.id, handle: 'theirs' });
  await seedRunning(
    { environmentId: f.strangerEnvironment.id, appId: theirs.id, handle: 'web' },
    'theirs-web-1',
    1,
  );
});

/** Each node's hostname, its named containers and its count of others, from an answer of the nodes list. */
const placement = (body: unknown) =>
  stackNodeCollection
    .parse(body)
    ._embedded.nodes.map((node) => [
      node.hostname,
      node.containers.map((container) => container.docker_name),
      node.other_container_count,
    ]);

describe('GET /stacks/:id/nodes', () => {
  it("lists the stack's nodes with the containers each runs, in the resource's shape", async () => {
    const response = await t.call('GET', `/api/stacks/${sharedId}/nodes`, { token: f.owner.token });
    expect(response.statusCode).toBe(200);
    const body = stackNodeCollection.parse(response.json());
    expect(body.total_count).toBe(3);
    expect(body._links.self.href).toBe(`${api}/stacks/${sharedId}/nodes`);
    expect(placement(body)).toEqual([
      [host(0), [], 0],
      [host(1), ['shop-web-1'], 1],
      [host(2), ['db-postgresql-1'], 0],
    ]);
    const [manager, second, third] = body._embedded.nodes;
    expect(manager).toMatchObject({
      _type: 'stack_node',
      address: '10.0.1.11',
      role: 'manager',
      leader: true,
      state: 'ready',
      availability: 'active',
      memory_bytes: 8 * 1024 ** 3,
      cpus: 2,
      _links: { stack: { href: `${api}/stacks/${sharedId}` } },
    });
    expect(second?.role).toBe('worker');
    expect(second?.containers[0]).toEqual({
      docker_name: 'shop-web-1',
      state: 'running',
      layer: 'app',
      resource_handle: 'shop',
      service_handle: 'web',
      environment_handle: 'production',
      _links: {
        service: { href: `${api}/services/${ids.web}` },
        account: { href: `${api}/accounts/${ids.environment}` },
        app: { href: `${api}/apps/${ids.app}` },
      },
    });
    expect(third?.containers[0]).toMatchObject({
      layer: 'database',
      resource_handle: 'db',
      service_handle: 'postgresql',
      _links: {
        service: { href: `${api}/services/${ids.postgres}` },
        database: { href: `${api}/databases/${ids.database}` },
      },
    });
    const page = (
      await t.call('GET', `/api/stacks/${sharedId}/nodes?per_page=1&page=2`, { token: f.owner.token })
    ).json();
    expect(page._embedded.nodes.map((node: { hostname: string }) => node.hostname)).toEqual([host(1)]);
    expect(page._links.next.href).toBe(`${api}/stacks/${sharedId}/nodes?page=3&per_page=1`);
  });

  it('names only the containers of resources the caller may read, and counts the others', async () => {
    const [owner, reader, outsider, stranger] = await expectAccess(
      t,
      { method: 'GET', url: `/api/stacks/${sharedId}/nodes` },
      [
        [f.owner, 200],
        [f.reader, 200],
        // A member without a scope on the environment sees the stack, not what runs in the environment.
        [f.outsider, 200],
        [f.stranger, 200],
        [null, 401],
      ],
    );
    expect(placement(owner?.json())).toEqual(placement(reader?.json()));
    expect(placement(outsider?.json())).toEqual([
      [host(0), [], 0],
      [host(1), [], 2],
      [host(2), [], 1],
    ]);
    expect(placement(stranger?.json())).toEqual([
      [host(0), [], 0],
      [host(1), ['theirs-web-1'], 1],
      [host(2), [], 1],
    ]);
  });

  it("is 404 for another organization's stack and for what is not a stack", async () => {
    await expectAccess(t, { method: 'GET', url: `/api/stacks/${foreignId}/nodes` }, [
      [f.owner, 404],
      [f.stranger, 200],
    ]);
    for (const id of ['999999', 'abc', '-1']) {
      const response = await t.call('GET', `/api/stacks/${id}/nodes`, { token: f.owner.token });
      expect([response.statusCode, response.json().message]).toEqual([404, 'Stack not found']);
    }
  });

  it("is 503, saying why, where the stack's runtime does not run in this process", async () => {
    const response = await t.call('GET', `/api/stacks/${dockerId}/nodes`, { token: f.owner.token });
    expect([response.statusCode, response.json().message]).toEqual([
      503,
      'The nodes of stack acme-docker cannot be listed here: its runtime (docker) does not run in this server process',
    ]);
    // Still no more than the stack itself to anyone else.
    expect(
      (await t.call('GET', `/api/stacks/${dockerId}/nodes`, { token: f.stranger.token })).statusCode,
    ).toBe(404);
    // A registered Swarm's stack (its runtime key `swarm:<stack>`) is named by its kind, as the API shows it.
    const [registered] = await t.db
      .insert(stacks)
      .values({
        name: 'acme-eu',
        region: 'eu-west-1',
        organizationId: f.organization.id,
        runtime: 'swarm:acme-eu',
      })
      .returning();
    const swarm = await t.call('GET', `/api/stacks/${registered?.id}/nodes`, { token: f.owner.token });
    expect([swarm.statusCode, swarm.json().message]).toEqual([
      503,
      'The nodes of stack acme-eu cannot be listed here: its runtime (swarm) does not run in this server process',
    ]);
  });
});

describe('the stack nodes service', () => {
  it("is 503 without the engine's words when the stack's engine does not answer, which go to the log", async () => {
    const problems: string[] = [];
    const service = createStackNodesService({
      db: t.db,
      stacks: createStacksService({ db: t.db }),
      runtimes: {
        sim: {
          ...createSimRuntime({ stepMs: 0 }),
          listNodes: async () => {
            throw new Error('connect ENOENT /run/berth/manager.sock');
          },
        },
      },
      onEngineError: (stack, error) => problems.push(`${stack.name}: ${(error as Error).message}`),
    });
    const refused = await service
      .list({ id: f.owner.id, name: 'Owner', email: f.owner.email }, sharedId)
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({
      status: 503,
      message: 'The nodes of stack shared-us-west-1 cannot be read now: its sim engine does not answer',
    });
    expect(problems).toEqual(['shared-us-west-1: connect ENOENT /run/berth/manager.sock']);
  });

  it('finds a container Berth records by another name the engine gives (a Swarm task by its slot)', async () => {
    const node = (
      await createSimRuntime({ stepMs: 0 }).listNodes?.({ stackName: 'x', recorded: async () => [] })
    )?.[0];
    if (!node) throw new Error('no simulated node');
    const service = createStackNodesService({
      db: t.db,
      stacks: createStacksService({ db: t.db }),
      runtimes: {
        sim: {
          ...createSimRuntime({ stepMs: 0 }),
          listNodes: async () => [
            {
              ...node,
              containers: [
                { name: 'berth-app-1-web.1.k3j9', state: 'running', recordedAs: ['shop-web-1'] },
                { name: 'berth-app-9-web.1.zz', state: 'running', recordedAs: ['nobody-web-1'] },
              ],
            },
          ],
        },
      },
    });
    const { nodes } = await service.list({ id: f.owner.id, name: 'Owner', email: f.owner.email }, sharedId);
    expect(nodes[0]?.containers.map((container) => [container.dockerName, container.resourceHandle])).toEqual(
      [['shop-web-1', 'shop']],
    );
    expect(nodes[0]?.otherContainerCount).toBe(1);
  });
});

describe('PUT /stacks/:id/nodes/:node_id', () => {
  const nodesOf = async (stackId: number) =>
    stackNodeCollection.parse(
      (await t.call('GET', `/api/stacks/${stackId}/nodes`, { token: f.owner.token })).json(),
    )._embedded.nodes;

  let quietId = 0;
  beforeAll(async () => {
    // A shared stack only this organization runs on (the default one has the stranger's environment too).
    const [quiet] = await t.db
      .insert(stacks)
      .values({ name: 'quiet-shared', region: 'eu-west-1', public: true })
      .returning();
    quietId = quiet?.id ?? 0;
    const [environment] = await t.db
      .insert(environments)
      .values({ organizationId: f.organization.id, stackId: quietId, handle: 'quiet-prod' })
      .returning();
    const app = await seedApp(t.db, { environmentId: environment?.id ?? 0, handle: 'calm' });
    const service = await seedService(t.db, {
      environmentId: environment?.id ?? 0,
      appId: app.id,
      handle: 'web',
    });
    const release = await seedRelease(t.db, { serviceId: service.id });
    await seedContainer(t.db, {
      releaseId: release.id,
      dockerName: 'calm-web-1',
      host: simNodeHost('quiet-shared', 1),
      status: 'running',
    });
  });

  it('drains a node for a platform owner: its containers move to the others; activating takes it back', async () => {
    const platformOwner = await t.signUp({ name: 'Platform Owner' });
    await addMember(t.db, {
      organizationId: f.organization.id,
      userId: platformOwner.id,
      roleType: 'platform_owner',
      name: 'Deploy Owners',
    });
    const worker = (await nodesOf(quietId))[1];
    expect(worker?.containers.map((container) => container.docker_name)).toEqual(['calm-web-1']);
    const url = `/api/stacks/${quietId}/nodes/${worker?.id}`;
    const drained = await t.call('PUT', url, { token: platformOwner.token, body: { availability: 'drain' } });
    expect(drained.statusCode).toBe(200);
    const node = stackNodeResource.parse(drained.json());
    expect([node.id, node.availability, node.containers, node.other_container_count]).toEqual([
      worker?.id,
      'drain',
      [],
      0,
    ]);
    const moved = (await nodesOf(quietId)).filter((each) =>
      each.containers.some((container) => container.docker_name === 'calm-web-1'),
    );
    expect(moved.map((each) => each.id)).not.toContain(worker?.id);
    expect(moved).toHaveLength(1);
    const activated = await t.call('PUT', url, { token: f.owner.token, body: { availability: 'active' } });
    expect(stackNodeResource.parse(activated.json())).toMatchObject({ availability: 'active' });
  });

  it('refuses a shared stack other organizations run on: draining would move their containers', async () => {
    const worker = (await nodesOf(sharedId))[1];
    const refused = await t.call('PUT', `/api/stacks/${sharedId}/nodes/${worker?.id}`, {
      token: f.owner.token,
      body: { availability: 'drain' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      `Other organizations run on the shared stack ${DEFAULT_SHARED_STACK.name}: its nodes are drained by Berth's operator (npm run admin -- drain-node)`,
    );
    expect((await nodesOf(sharedId)).map((node) => node.availability)).toEqual([
      'active',
      'active',
      'active',
    ]);
  });

  it('is for platform owners only: 403 to other members, 401 without a token, 404 across organizations', async () => {
    const worker = (await nodesOf(sharedId))[1];
    const denied = await expectAccess(
      t,
      { method: 'PUT', url: `/api/stacks/${sharedId}/nodes/${worker?.id}`, body: { availability: 'pause' } },
      [
        [f.reader, 403],
        [f.viewer, 403],
        [f.deployer, 403],
        [f.outsider, 403],
        [null, 401],
      ],
    );
    expect(denied[0]?.json().message).toBe(
      'You do not have a valid role type (platform_owner, owner) to access this resource.',
    );
    expect((await nodesOf(sharedId)).map((node) => node.availability)).toEqual([
      'active',
      'active',
      'active',
    ]);
    // Another organization's dedicated stack is not there for this one's owner.
    const foreignNode = (
      await t.call('GET', `/api/stacks/${foreignId}/nodes`, { token: f.stranger.token })
    ).json()._embedded.nodes[0];
    await expectAccess(
      t,
      {
        method: 'PUT',
        url: `/api/stacks/${foreignId}/nodes/${foreignNode.id}`,
        body: { availability: 'drain' },
      },
      [[f.owner, 404]],
    );
  });

  it('refuses an unknown node, a too long node id and an availability not in the set', async () => {
    const worker = (await nodesOf(quietId))[1];
    const put = (nodeId: string, body: unknown) =>
      t.call('PUT', `/api/stacks/${quietId}/nodes/${nodeId}`, { token: f.owner.token, body });
    const unknown = await put('nosuchnode', { availability: 'drain' });
    expect([unknown.statusCode, unknown.json().message]).toEqual([404, 'Node not found']);
    // The router refuses a path parameter that long (414) before the route's own bound (128) is reached.
    expect((await put('n'.repeat(129), { availability: 'drain' })).statusCode).toBe(414);
    expect((await put(worker?.id ?? '', { availability: 'off' })).statusCode).toBe(422);
    expect((await put(worker?.id ?? '', {})).statusCode).toBe(422);
  });

  it("is 503 where the stack's runtime does not run here, 409 where it is one engine", async () => {
    const response = await t.call('PUT', `/api/stacks/${dockerId}/nodes/abc`, {
      token: f.owner.token,
      body: { availability: 'drain' },
    });
    expect(response.statusCode).toBe(503);
    const { setNodeAvailability: _none, ...oneEngine } = createSimRuntime({ stepMs: 0 });
    const service = createStackNodesService({
      db: t.db,
      stacks: createStacksService({ db: t.db }),
      runtimes: { sim: oneEngine },
    });
    const refused = await service
      .setAvailability({ id: f.owner.id, name: 'Owner', email: f.owner.email }, quietId, 'abc', 'drain')
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({
      status: 409,
      message:
        'The sim runtime of stack quiet-shared runs on one engine: it has no other node to move containers to',
    });
  });

  it("says the runtime's own refusal as a 409 (a node holding a database's data)", async () => {
    const sim = createSimRuntime({ stepMs: 0 });
    const refusal = 'Node n1 holds the data of 1 database(s) (db): drained, they would stop';
    const service = createStackNodesService({
      db: t.db,
      stacks: createStacksService({ db: t.db }),
      runtimes: {
        sim: {
          ...sim,
          setNodeAvailability: async () => {
            throw new RuntimeError(refusal);
          },
        },
      },
    });
    const node = (await nodesOf(quietId))[1];
    const refused = await service
      .setAvailability(
        { id: f.owner.id, name: 'Owner', email: f.owner.email },
        quietId,
        node?.id ?? '',
        'drain',
      )
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 409, message: refusal });
  });
});
