import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apps,
  codeScanResults,
  configurations,
  containers,
  deployments,
  operations,
  releases,
  services,
} from '../db/schema.ts';
import { addMember, grant } from '../testing/factories.ts';
import { type TestApp, type TestUser, testApp } from '../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

/** An owner with an organization, an environment and an app (inserted: app creation has its own tests). */
async function world(handle = 'web-app') {
  const owner = await t.signUp({ name: 'Owner Person' });
  const org = await t.createOrganization(owner);
  const environment = await t.createEnvironment(owner, org.id, 'prod');
  const [app] = await t.db
    .insert(apps)
    .values({ environmentId: Number(environment.id), handle })
    .returning();
  if (!app) throw new Error('no app');
  return { owner, org, environment, app };
}

const post = (user: TestUser, path: string, body: unknown) =>
  t.call('POST', path, { token: user.token, body });

async function opById(id: string) {
  const [op] = await t.db
    .select()
    .from(operations)
    .where(eq(operations.id, Number(id)));
  return op;
}

async function logOf(user: TestUser, id: string): Promise<string> {
  const pointer = await t.call('GET', `/api/operations/${id}/logs`, { token: user.token });
  expect(pointer.statusCode).toBe(200);
  expect(pointer.headers['content-type']).toContain('text/plain');
  const url = new URL(pointer.body);
  expect(url.origin).toBe('http://berth.test');
  const text = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  expect(text.statusCode).toBe(200);
  expect(text.headers['access-control-allow-origin']).toBe('*');
  return text.body;
}

async function liveContainers(serviceId: number) {
  return t.db
    .select({ id: containers.id, memoryLimit: containers.memoryLimit })
    .from(containers)
    .innerJoin(releases, eq(containers.releaseId, releases.id))
    .where(and(eq(releases.serviceId, serviceId), isNull(containers.deletedAt)));
}

async function deployed(handle = 'web-app') {
  const w = await world(handle);
  const response = await post(w.owner, `/api/apps/${w.app.id}/operations`, {
    type: 'deploy',
    git_ref: 'main',
  });
  await t.worker.drain();
  const [service] = await t.db.select().from(services).where(eq(services.appId, w.app.id));
  if (!service) throw new Error('deploy made no service');
  return { ...w, service, deployId: response.json().id as string };
}

describe('the operation lifecycle on the sim runtime', () => {
  it('a deploy is queued, runs, and succeeds with logs, a deployment, a service, a release and containers', async () => {
    const { owner, app } = await world();
    const response = await post(owner, `/api/apps/${app.id}/operations`, { type: 'deploy', git_ref: 'main' });
    expect(response.statusCode).toBe(201);
    const op = response.json();
    expect(op).toMatchObject({
      _type: 'operation',
      type: 'deploy',
      status: 'queued',
      git_ref: 'main',
      user_name: 'Owner Person',
      user_email: owner.email,
      _links: { resource: { href: `http://berth.test/api/apps/${app.id}` } },
    });
    const [queuedDeployment] = await t.db.select().from(deployments).where(eq(deployments.appId, app.id));
    expect(queuedDeployment?.status).toBe('queued');

    expect(await t.worker.runOnce()).toBe(true);
    const done = await t.call('GET', `/api/operations/${op.id}`, { token: owner.token });
    expect(done.json().status).toBe('succeeded');

    const log = await logOf(owner, op.id);
    expect(log).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000 INFO -- : Starting app deploy operation with ID: \d+$/m,
    );
    // Issue 35: the simulator's build says it is one, and pushes to no registry.
    expect(log).toContain('Simulated: Building image from Dockerfile');
    expect(log).toContain(
      `Simulated: building prod/${app.handle} at main (no code is fetched, built or pushed`,
    );
    expect(log).not.toMatch(/Pushing|Fetching git@/);
    expect(log).toContain(`Completed deploy operation with ID: ${op.id}`);

    const [deployment] = await t.db.select().from(deployments).where(eq(deployments.appId, app.id));
    expect(deployment).toMatchObject({ status: 'succeeded', gitRef: 'main' });
    expect(deployment?.gitCommitSha).toMatch(/^[0-9a-f]{40}$/);
    const [updatedApp] = await t.db.select().from(apps).where(eq(apps.id, app.id));
    expect(updatedApp).toMatchObject({ status: 'provisioned', currentDeploymentId: deployment?.id });
    const [service] = await t.db.select().from(services).where(eq(services.appId, app.id));
    expect(service).toMatchObject({ handle: 'cmd', containerCount: 1, containerMemoryLimitMb: 512 });
    expect(await liveContainers(service?.id ?? 0)).toHaveLength(1);

    // The repository became a source, with the app and the commit it now runs.
    const sources = (await t.call('GET', '/api/sources', { token: owner.token })).json()._embedded.sources;
    expect(sources).toMatchObject([
      {
        _type: 'source',
        url: `git@on-berth.localhost:prod/${app.handle}.git`,
        app_count: 1,
        deployment_count: 1,
        live_commits: [{ sha: deployment?.gitCommitSha, ref: 'main', message: 'Deploy main' }],
      },
    ]);
  });

  it('a failing deploy ends failed, with an ERROR line, and leaves the app as it was', async () => {
    const { owner, app } = await world();
    const response = await post(owner, `/api/apps/${app.id}/operations`, {
      type: 'deploy',
      git_ref: 'simfail-branch',
    });
    await t.worker.drain();
    const op = await opById(response.json().id);
    expect(op?.status).toBe('failed');
    const log = await logOf(owner, response.json().id);
    expect(log).toMatch(/ERROR -- : fatal: couldn't find remote ref simfail-branch/);
    const [deployment] = await t.db.select().from(deployments).where(eq(deployments.appId, app.id));
    expect(deployment?.status).toBe('failed');
    expect(await t.db.select().from(services).where(eq(services.appId, app.id))).toEqual([]);
  });

  it('configure validates keys, merges variables ("" removes one) and restarts the containers', async () => {
    const { owner, app, service } = await deployed();
    const bad = await post(owner, `/api/apps/${app.id}/operations`, {
      type: 'configure',
      env: { 'bad-key': 'x' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe('bad-key does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/');
    const before = await liveContainers(service.id);
    await post(owner, `/api/apps/${app.id}/operations`, { type: 'configure', env: { A: '1', B: '2' } });
    await post(owner, `/api/apps/${app.id}/operations`, { type: 'configure', env: { B: '', C: '3' } });
    await t.worker.drain();
    const [current] = await t.db
      .select({ id: apps.currentConfigurationId })
      .from(apps)
      .where(eq(apps.id, app.id));
    const [configuration] = await t.db
      .select()
      .from(configurations)
      .where(eq(configurations.id, current?.id ?? 0));
    expect(configuration?.env).toEqual({ A: '1', C: '3' });
    const after = await liveContainers(service.id);
    expect(after).toHaveLength(1);
    expect(after[0]?.id).not.toBe(before[0]?.id);
  });

  it('scale changes container count and size, refusing sizes the profile does not offer', async () => {
    const { owner, service } = await deployed();
    const path = `/api/services/${service.id}/operations`;
    const cases: [Record<string, unknown>, string][] = [
      [{ container_size: 256 }, 'Container size for m5 must be between 512 MB and 376832 MB'],
      [{ instance_profile: 'x9', container_size: 1024 }, 'could not find container profile for x9'],
      [{ container_count: 33 }, 'Container count must be between 0 and 32'],
      [{}, 'A scale needs container_count, container_size or instance_profile'],
      // A new profile alone is checked against the size the service keeps (512 MB is below r5's minimum).
      [{ instance_profile: 'r5' }, 'Container size for r5 must be between 4096 MB and 770048 MB'],
    ];
    for (const [body, message] of cases) {
      const refused = await post(owner, path, { type: 'scale', ...body });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe(message);
    }
    const ok = await post(owner, path, {
      type: 'scale',
      id: service.id,
      container_count: 3,
      container_size: 1024,
    });
    expect(ok.json()).toMatchObject({ type: 'scale', container_count: 3, container_size: 1024 });
    await t.worker.drain();
    expect((await opById(ok.json().id))?.status).toBe('succeeded');
    const live = await liveContainers(service.id);
    expect(live.map((c) => c.memoryLimit)).toEqual([1024, 1024, 1024]);
    const [updated] = await t.db.select().from(services).where(eq(services.id, service.id));
    expect(updated).toMatchObject({ containerCount: 3, containerMemoryLimitMb: 1024 });
    const environment = await t.call('GET', `/api/accounts/${service.environmentId}`, { token: owner.token });
    expect(environment.json()).toMatchObject({
      container_count: 3,
      app_container_count: 3,
      database_container_count: 0,
    });
  });

  it('a scale records the size it changed from, and shows it on the wire (spec 2 §4 Last Scale)', async () => {
    const { owner, service } = await deployed();
    const queued = await post(owner, `/api/services/${service.id}/operations`, {
      type: 'scale',
      container_count: 2,
      container_size: 2048,
    });
    expect(queued.statusCode).toBe(201);
    // Nothing is known before it runs: the service may still change under a queued scale.
    expect(queued.json()).toMatchObject({
      previous_container_count: null,
      previous_container_size: null,
      previous_instance_profile: null,
    });
    await t.worker.drain();
    expect(await opById(queued.json().id)).toMatchObject({
      status: 'succeeded',
      previousContainerCount: 1,
      previousContainerSize: 512,
      previousInstanceProfile: 'm5',
    });
    const read = await t.call('GET', `/api/operations/${queued.json().id}`, { token: owner.token });
    expect(read.json()).toMatchObject({
      container_count: 2,
      container_size: 2048,
      instance_profile: null,
      previous_container_count: 1,
      previous_container_size: 512,
      previous_instance_profile: 'm5',
    });
    // The next scale starts from what this one set.
    const next = await post(owner, `/api/services/${service.id}/operations`, {
      type: 'scale',
      container_count: 1,
    });
    await t.worker.drain();
    expect(await opById(next.json().id)).toMatchObject({
      previousContainerCount: 2,
      previousContainerSize: 2048,
      previousInstanceProfile: 'm5',
    });
  });

  it('restart replaces the containers of every service; before any deploy it fails with a reason', async () => {
    const fresh = await world();
    const early = await post(fresh.owner, `/api/apps/${fresh.app.id}/operations`, { type: 'restart' });
    await t.worker.drain();
    expect((await opById(early.json().id))?.status).toBe('failed');
    expect(await logOf(fresh.owner, early.json().id)).toContain(
      'has no running services to restart; deploy it first',
    );

    const { owner, app, service } = await deployed();
    const before = await liveContainers(service.id);
    const restart = await post(owner, `/api/apps/${app.id}/operations`, { type: 'restart', id: app.id });
    await t.worker.drain();
    expect((await opById(restart.json().id))?.status).toBe('succeeded');
    const after = await liveContainers(service.id);
    expect(after).toHaveLength(before.length);
    expect(after[0]?.id).not.toBe(before[0]?.id);
  });

  it('scan_code records what the repository holds', async () => {
    const { owner, app } = await world();
    const missing = await post(owner, `/api/apps/${app.id}/operations`, { type: 'scan_code' });
    expect(missing.json().message).toBe('git_ref must not be empty');
    const scan = await post(owner, `/api/apps/${app.id}/operations`, { type: 'scan_code', git_ref: 'main' });
    await t.worker.drain();
    const [result] = await t.db
      .select()
      .from(codeScanResults)
      .where(eq(codeScanResults.operationId, Number(scan.json().id)));
    expect(result).toMatchObject({ dockerfilePresent: true, languagesDetected: ['JavaScript'] });
  });

  it('a scan_code operation links its code scan result once there is one, in single views and lists (§4.3)', async () => {
    const { owner, app, environment } = await world();
    const deploy = await post(owner, `/api/apps/${app.id}/operations`, { type: 'deploy', git_ref: 'main' });
    const scan = await post(owner, `/api/apps/${app.id}/operations`, { type: 'scan_code', git_ref: 'main' });
    expect(scan.statusCode).toBe(201);
    expect(scan.json()._links.code_scan_result).toBeUndefined();
    const queued = await t.call('GET', `/api/operations/${scan.json().id}`, { token: owner.token });
    expect(queued.json()._links.code_scan_result).toBeUndefined();

    await t.worker.drain();
    const [result] = await t.db
      .select()
      .from(codeScanResults)
      .where(eq(codeScanResults.operationId, Number(scan.json().id)));
    if (!result) throw new Error('the scan recorded no result');
    const href = `http://berth.test/api/code_scan_results/${result.id}`;

    const single = await t.call('GET', `/api/operations/${scan.json().id}`, { token: owner.token });
    expect(single.json()._links.code_scan_result).toEqual({ href });
    const linked = await t.call(
      'GET',
      single.json()._links.code_scan_result.href.replace('http://berth.test', ''),
      {
        token: owner.token,
      },
    );
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toMatchObject({ _type: 'code_scan_result', id: String(result.id) });

    for (const path of [`/api/apps/${app.id}/operations`, `/api/accounts/${environment.id}/operations`]) {
      const list = await t.call('GET', path, { token: owner.token });
      const ops = list.json()._embedded.operations as { id: string; _links: Record<string, unknown> }[];
      expect(ops.find((op) => op.id === scan.json().id)?._links.code_scan_result).toEqual({ href });
      expect(ops.find((op) => op.id === deploy.json().id)?._links.code_scan_result).toBeUndefined();
    }
  });

  it('deprovision removes the app and everything under it; the operation stays in the activity log', async () => {
    const { owner, app, service } = await deployed();
    const response = await post(owner, `/api/apps/${app.id}/operations`, { type: 'deprovision' });
    const [marked] = await t.db.select().from(apps).where(eq(apps.id, app.id));
    expect(marked?.status).toBe('deprovisioning');
    const again = await post(owner, `/api/apps/${app.id}/operations`, { type: 'deploy', git_ref: 'main' });
    expect(again.statusCode).toBe(422);
    await t.worker.drain();
    expect(await t.db.select().from(apps).where(eq(apps.id, app.id))).toEqual([]);
    expect(await t.db.select().from(services).where(eq(services.id, service.id))).toEqual([]);
    const op = await t.call('GET', `/api/operations/${response.json().id}`, { token: owner.token });
    expect(op.json().status).toBe('succeeded');
  });

  it('refuses operation types a resource does not have', async () => {
    const { owner, app } = await world();
    const response = await post(owner, `/api/apps/${app.id}/operations`, { type: 'scale' });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('Operation type "scale" is not supported for an app');
    expect((await post(owner, `/api/apps/${app.id}/operations`, {})).json().message).toBe(
      'type must not be empty',
    );
  });
});

describe('who may run operations (scopes per spec 1 §6)', () => {
  it('401 without a token, 404 for another organization', async () => {
    const { app } = await world();
    const stranger = await t.signUp();
    expect(
      (await t.call('POST', `/api/apps/${app.id}/operations`, { body: { type: 'deploy' } })).statusCode,
    ).toBe(401);
    expect((await post(stranger, `/api/apps/${app.id}/operations`, { type: 'deploy' })).statusCode).toBe(404);
    expect(
      (await t.call('GET', `/api/apps/${app.id}/operations`, { token: stranger.token })).statusCode,
    ).toBe(404);
  });

  it('deploy needs "deploy", deprovision "destroy", scale "observability" (which deploy implies)', async () => {
    const { org, environment, app, service, owner } = await deployed();
    const reader = await t.signUp();
    const deployer = await t.signUp();
    const ops = await t.signUp();
    for (const [user, scope] of [
      [reader, 'read'],
      [deployer, 'deploy'],
      [ops, 'observability'],
    ] as const) {
      const role = await addMember(t.db, { organizationId: org.id, userId: user.id, name: `${scope} role` });
      await grant(t.db, { roleId: role.id, environmentId: environment.id, scope });
    }
    const denied = await post(reader, `/api/apps/${app.id}/operations`, { type: 'deploy', git_ref: 'main' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(
      `You do not have "deploy" permissions for this environment (id:${environment.id})`,
    );
    expect(
      (await post(deployer, `/api/apps/${app.id}/operations`, { type: 'deploy', git_ref: 'main' }))
        .statusCode,
    ).toBe(201);
    const destroy = await post(deployer, `/api/apps/${app.id}/operations`, { type: 'deprovision' });
    expect(destroy.statusCode).toBe(403);
    expect(destroy.json().message).toBe(
      `You do not have "destroy" permissions for this environment (id:${environment.id})`,
    );
    const scale = { type: 'scale', container_count: 2 };
    expect((await post(ops, `/api/services/${service.id}/operations`, scale)).statusCode).toBe(201);
    expect((await post(deployer, `/api/services/${service.id}/operations`, scale)).statusCode).toBe(201);
    expect((await post(reader, `/api/services/${service.id}/operations`, scale)).statusCode).toBe(403);
    expect((await post(ops, `/api/apps/${app.id}/operations`, { type: 'deploy' })).statusCode).toBe(403);
    // Reading the activity is basic_read, which any permission grants.
    expect((await t.call('GET', `/api/apps/${app.id}/operations`, { token: reader.token })).statusCode).toBe(
      200,
    );
    await t.worker.drain();
    expect(
      (await t.call('GET', `/api/services/${service.id}/operations`, { token: owner.token })).json()
        .total_count,
    ).toBe(2);
  });
});

describe('operation lists', () => {
  it('lists an organization’s operations newest first, filtered and paged', async () => {
    const { owner, org, app, service } = await deployed();
    await post(owner, `/api/apps/${app.id}/operations`, { type: 'configure', env: { X: '1' } });
    await post(owner, `/api/services/${service.id}/operations`, { type: 'scale', container_count: 2 });
    await post(owner, `/api/apps/${app.id}/operations`, { type: 'deploy', git_ref: 'simfail' });
    await t.worker.drain();
    const base = `/api/organizations/${org.id}/operations`;
    const all = (await t.call('GET', `${base}?page=1`, { token: owner.token })).json();
    expect(all).toMatchObject({ current_page: 1, per_page: 40, total_count: 4 });
    expect(all._embedded.operations.map((o: { type: string }) => o.type)).toEqual([
      'deploy',
      'scale',
      'configure',
      'deploy',
    ]);
    const failed = (await t.call('GET', `${base}?operation_status=failed`, { token: owner.token })).json();
    expect(failed._embedded.operations.map((o: { git_ref: string }) => o.git_ref)).toEqual(['simfail']);
    const services = (
      await t.call('GET', `${base}?resource_type=service&operation_type=all`, { token: owner.token })
    ).json();
    expect(services.total_count).toBe(1);
    const byType = (await t.call('GET', `${base}?operation_type=configure`, { token: owner.token })).json();
    expect(byType.total_count).toBe(1);
    const paged = (await t.call('GET', `${base}?page=2&per_page=3`, { token: owner.token })).json();
    expect(paged).toMatchObject({ current_page: 2, per_page: 3, total_count: 4 });
    expect(paged._embedded.operations).toHaveLength(1);
    const appOnly = (await t.call('GET', `/api/apps/${app.id}/operations`, { token: owner.token })).json();
    expect(appOnly.total_count).toBe(3);
    const withServices = (
      await t.call('GET', `/api/apps/${app.id}/operations?with_services=true`, { token: owner.token })
    ).json();
    expect(withServices.total_count).toBe(4);
    const environmentOps = (
      await t.call('GET', `/api/accounts/${app.environmentId}/operations?page=1&per_page=250`, {
        token: owner.token,
      })
    ).json();
    expect(environmentOps.total_count).toBe(4);
  });

  it('newest_per_resource with failed: the resources whose last operation failed, each with its reason (issue 41)', async () => {
    const { owner, org, app, environment } = await deployed('broken-app');
    await post(owner, `/api/apps/${app.id}/operations`, { type: 'deploy', git_ref: 'simfail-now' });
    // Another app failed once, then deployed: its failure is history, not its state.
    const [recovered] = await t.db
      .insert(apps)
      .values({ environmentId: Number(environment.id), handle: 'recovered' })
      .returning();
    await post(owner, `/api/apps/${recovered?.id}/operations`, { type: 'deploy', git_ref: 'simfail-before' });
    await t.worker.drain();
    await post(owner, `/api/apps/${recovered?.id}/operations`, { type: 'deploy', git_ref: 'main' });
    await t.worker.drain();

    const base = `/api/organizations/${org.id}/operations`;
    const query = '?resource_type=app&operation_status=failed&newest_per_resource=true&per_page=1';
    const answer = await t.call('GET', `${base}${query}`, { token: owner.token });
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body.total_count).toBe(1);
    expect(body._embedded.operations).toMatchObject([
      {
        resource_id: String(app.id),
        status: 'failed',
        git_ref: 'simfail-now',
        failure_reason: "fatal: couldn't find remote ref simfail-now",
      },
    ]);
    // Without the filter both failures are listed, each with its reason; a succeeded one has none.
    const failed = (await t.call('GET', `${base}?operation_status=failed`, { token: owner.token })).json();
    expect(failed._embedded.operations.map((o: { failure_reason: string }) => o.failure_reason)).toEqual([
      "fatal: couldn't find remote ref simfail-before",
      "fatal: couldn't find remote ref simfail-now",
    ]);
    const all = (await t.call('GET', `${base}?resource_type=app`, { token: owner.token })).json();
    const succeeded = all._embedded.operations.find((o: { status: string }) => o.status === 'succeeded');
    expect(succeeded).not.toHaveProperty('failure_reason');
    // A page larger than 100 carries no reasons: what a list costs stays bounded whoever asks.
    const large = (
      await t.call('GET', `${base}?operation_status=failed&per_page=101`, { token: owner.token })
    ).json();
    expect(large._embedded.operations).toHaveLength(2);
    for (const operation of large._embedded.operations)
      expect(operation).not.toHaveProperty('failure_reason');
    // The filter rides along to the next page.
    const newest = (
      await t.call('GET', `${base}?newest_per_resource=true&resource_type=app&per_page=1`, {
        token: owner.token,
      })
    ).json();
    expect(newest.total_count).toBe(2);
    expect(new URL(newest._links.next.href).searchParams.get('newest_per_resource')).toBe('true');
    // The same refusals as the list's.
    const stranger = await t.signUp();
    expect((await t.call('GET', `${base}${query}`, { token: stranger.token })).statusCode).toBe(404);
    expect((await t.call('GET', `${base}${query}`)).statusCode).toBe(401);
  });

  it('hides environments the member cannot see, and other organizations entirely', async () => {
    const { org, environment, owner } = await deployed();
    const hidden = await t.createEnvironment(owner, org.id, 'hidden');
    const [hiddenApp] = await t.db
      .insert(apps)
      .values({ environmentId: Number(hidden.id), handle: 'secret' })
      .returning();
    await post(owner, `/api/apps/${hiddenApp?.id}/operations`, { type: 'deploy', git_ref: 'main' });
    const member = await t.signUp();
    const role = await addMember(t.db, { organizationId: org.id, userId: member.id });
    await grant(t.db, { roleId: role.id, environmentId: environment.id, scope: 'basic_read' });
    const list = (
      await t.call('GET', `/api/organizations/${org.id}/operations`, { token: member.token })
    ).json();
    expect(list.total_count).toBe(1);
    const stranger = await t.signUp();
    expect(
      (await t.call('GET', `/api/organizations/${org.id}/operations`, { token: stranger.token })).statusCode,
    ).toBe(404);
    expect((await t.call('GET', `/api/organizations/${org.id}/operations`)).statusCode).toBe(401);
    expect(
      (await t.call('GET', `/api/accounts/${hidden.id}/operations`, { token: member.token })).statusCode,
    ).toBe(404);
  });
});

describe('operation logs capability URL', () => {
  it('refuses a tampered or expired link, and the logs pointer needs access to the operation', async () => {
    const { owner, deployId } = await deployed();
    const pointer = new URL(
      (await t.call('GET', `/api/operations/${deployId}/logs`, { token: owner.token })).body,
    );
    const tampered = await t.app.inject({
      method: 'GET',
      url: `${pointer.pathname}?expires=${pointer.searchParams.get('expires')}&signature=nope`,
    });
    expect(tampered.statusCode).toBe(403);
    const expired = await t.app.inject({
      method: 'GET',
      url: `${pointer.pathname}?expires=1&signature=${pointer.searchParams.get('signature')}`,
    });
    expect(expired.statusCode).toBe(403);
    const stranger = await t.signUp();
    expect(
      (await t.call('GET', `/api/operations/${deployId}/logs`, { token: stranger.token })).statusCode,
    ).toBe(404);
    expect((await t.call('GET', `/api/operations/${deployId}`, { token: stranger.token })).statusCode).toBe(
      404,
    );
    expect((await t.call('GET', `/api/operations/${deployId}`)).statusCode).toBe(401);
  });
});

describe('configuration values in operations', () => {
  it('are shown to callers with read scope and withheld from others', async () => {
    const { owner, org, environment, app } = await world();
    const configure = await post(owner, `/api/apps/${app.id}/operations`, {
      type: 'configure',
      env: { SECRET: 's3cr3t' },
    });
    expect(configure.json().env).toEqual({ SECRET: 's3cr3t' });
    const basic = await t.signUp();
    const role = await addMember(t.db, { organizationId: org.id, userId: basic.id });
    await grant(t.db, { roleId: role.id, environmentId: environment.id, scope: 'deploy' });
    const seen = await t.call('GET', `/api/operations/${configure.json().id}`, { token: basic.token });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().env).toBeNull();
    const listed = (await t.call('GET', `/api/apps/${app.id}/operations`, { token: basic.token })).json();
    expect(listed._embedded.operations[0].env).toBeNull();
    expect(JSON.stringify(listed)).not.toContain('s3cr3t');
  });
});
