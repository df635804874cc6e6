import { databaseMessages, handleMessages } from '@berth/core';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseCredentials, databaseImages, operationLogs } from '../../db/schema.ts';
import { cannotSee, cannotWrite, environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { addMember, grant } from '../../testing/factories.ts';
import type { TestUser } from '../../testing/test-app.ts';

const { t, f } = await environmentSuite();
let sensitive: TestUser;
let admin: TestUser;
let postgres17: number;

async function member(name: string, scope: 'sensitive' | 'admin'): Promise<TestUser> {
  const user = await t.signUp({ name });
  const role = await addMember(t.db, { organizationId: f.organization.id, userId: user.id, name });
  await grant(t.db, { roleId: role.id, environmentId: String(f.environment.id), scope });
  return user;
}

beforeAll(async () => {
  sensitive = await member('Sensitive', 'sensitive');
  admin = await member('Admin', 'admin');
  const [image] = await t.db.select().from(databaseImages).where(eq(databaseImages.version, '17'));
  if (!image) throw new Error('the catalog has no PostgreSQL 17');
  postgres17 = image.id;
});

const env = () => f.environment.id;

async function create(handle: string, user: TestUser = f.deployer, extra: Record<string, unknown> = {}) {
  return t.call('POST', `/api/accounts/${env()}/databases`, {
    token: user.token,
    body: {
      handle,
      type: 'postgresql',
      account_id: String(env()),
      database_image_id: String(postgres17),
      enable_backups: true,
      ...extra,
    },
  });
}

async function operate(user: TestUser, path: string, body: Record<string, unknown>) {
  return t.call('POST', path, { token: user.token, body });
}

/** Creates a database and provisions it to the end. */
async function provisioned(handle: string) {
  const created = await create(handle);
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const op = await operate(f.deployer, `/api/databases/${id}/operations`, { type: 'provision' });
  expect(op.statusCode, op.body).toBe(201);
  await t.worker.drain();
  return id;
}

async function operationStatus(id: string) {
  return (await t.call('GET', `/api/operations/${id}`, { token: f.owner.token })).json().status as string;
}

describe('POST /accounts/:id/databases', () => {
  it('creates the record, handle lower-cased, backups on, pending until provisioned', async () => {
    const response = await create('Orders-DB');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      _type: 'database',
      handle: 'orders-db',
      type: 'postgresql',
      status: 'pending',
      provisioned: false,
      enable_backups: true,
      enable_pitr: false,
      connection_url: '',
    });
    expect(response.json()._links.database_image.href).toMatch(new RegExp(`/database_images/${postgres17}$`));
  });

  it('refuses a handle taken in the environment, a bad handle and an unknown image', async () => {
    await create('taken-db');
    const again = await create('TAKEN-db');
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(databaseMessages.duplicate('taken-db'));
    const bad = await create('no spaces');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe(handleMessages.pattern);
    const unknown = await create('other', f.deployer, { database_image_id: '999999' });
    expect(unknown.json().message).toBe(databaseMessages.imageUnknown);
    const none = await t.call('POST', `/api/accounts/${env()}/databases`, {
      token: f.deployer.token,
      body: { handle: 'nothing' },
    });
    expect(none.json().message).toBe(databaseMessages.imageRequired);
  });

  it('needs deploy on the environment', async () => {
    await expectAccess(
      t,
      {
        method: 'POST',
        url: `/api/accounts/${env()}/databases`,
        body: { handle: 'denied', type: 'postgresql' },
        scope: 'deploy',
        environmentId: env(),
      },
      cannotWrite(f),
    );
  });
});

describe('provisioning and credentials', () => {
  let id: string;
  beforeAll(async () => {
    id = await provisioned('main-db');
  });

  it('provisions a disk, a service with its container, and sealed credentials', async () => {
    const database = (await t.call('GET', `/api/databases/${id}`, { token: f.reader.token })).json();
    expect(database).toMatchObject({ status: 'provisioned', provisioned: true, connection_url: '' });
    expect(database._embedded.disk).toMatchObject({
      _type: 'disk',
      size: 10,
      provisioned_iops: 3000,
      key_bytes: 32,
    });
    expect(database._embedded.last_operation).toMatchObject({ type: 'provision', status: 'succeeded' });
    const services = (await t.call('GET', `/api/databases/${id}/services`, { token: f.reader.token })).json();
    expect(services._embedded.services).toEqual([
      expect.objectContaining({
        handle: 'postgresql',
        container_memory_limit_mb: 1024,
        instance_class: 'm5',
      }),
    ]);
    const disk = await t.call('GET', new URL(database._links.disk.href).pathname, { token: f.reader.token });
    expect(disk.statusCode).toBe(200);
  });

  it('gives the connection URL only to callers with sensitive, and never stores or logs it in clear', async () => {
    const [response] = await expectAccess(
      t,
      {
        method: 'GET',
        url: `/api/databases/${id}/database_credentials`,
        scope: 'sensitive',
        environmentId: env(),
      },
      [[sensitive, 200], [f.deployer, 403], [f.viewer, 403], ...cannotSee(f)],
    );
    const [credential] = response?.json()._embedded.database_credentials ?? [];
    expect(credential).toMatchObject({ _type: 'database_credential', type: 'postgresql', default: true });
    const url = new URL(credential.connection_url);
    expect(url.protocol).toBe('postgresql:');
    expect(url.pathname).toBe('/db');
    expect(url.password.length).toBeGreaterThanOrEqual(24);
    const shown = (await t.call('GET', `/api/databases/${id}`, { token: sensitive.token })).json();
    expect(shown.connection_url).toBe(credential.connection_url);
    const listed = (await t.call('GET', '/api/databases?per_page=5000', { token: sensitive.token })).json();
    expect(listed._embedded.databases.find((d: { id: string }) => d.id === id).connection_url).toBe(
      credential.connection_url,
    );
    // The bare start-up list carries no password, for anyone, nor the links only full lists need.
    const bare = (
      await t.call('GET', '/api/databases?per_page=5000&no_embed=true', { token: sensitive.token })
    ).json();
    const bareDatabase = bare._embedded.databases.find((d: { id: string }) => d.id === id);
    expect(bareDatabase.connection_url).toBe('');
    expect(bareDatabase._embedded).toBeUndefined();
    expect(bareDatabase._links.operations).toBeUndefined();
    expect(bareDatabase._links.account.href).toContain('/api/accounts/');
    // Its own fields and its disk's link are those of the full list (read another way: db/select-page.ts).
    const full = listed._embedded.databases.find((d: { id: string }) => d.id === id);
    const { connection_url: _bareUrl, _links: bareLinks, ...bareFields } = bareDatabase;
    const { connection_url: _fullUrl, _links: fullLinks, _embedded: _fullEmbedded, ...fullFields } = full;
    expect(bareFields).toEqual(fullFields);
    expect(bareLinks.disk.href).toBe(fullLinks.disk.href);
    // The full list's database, disk and last operation are the single view's, to the last field.
    // …but for status_problem, which only the single database's answer asks its runtime for (issue 39).
    const { status_problem: problem, ...shownAsListed } = shown;
    expect(problem).toBeNull();
    expect(full).toEqual(shownAsListed);
    expect(full._embedded.disk).toMatchObject({ _type: 'disk', size: 10, key_bytes: 32 });
    expect(full._embedded.last_operation).toMatchObject({ type: 'provision', status: 'succeeded' });
    const [stored] = await t.db
      .select()
      .from(databaseCredentials)
      .where(eq(databaseCredentials.databaseId, Number(id)));
    expect(stored?.connectionUrlSealed).not.toContain(url.password);
    const logs = await t.db.select({ line: operationLogs.line }).from(operationLogs);
    expect(logs.some(({ line }) => line.includes(url.password))).toBe(false);
  });

  it('takes a TCP endpoint on its service, listed under the database', async () => {
    const database = (await t.call('GET', `/api/databases/${id}`, { token: f.reader.token })).json();
    const servicePath = new URL(database._links.service.href).pathname;
    const created = await t.call('POST', `${servicePath}/vhosts`, {
      token: f.deployer.token,
      body: { type: 'tcp', platform: 'elb', ip_whitelist: [], acme: false, default: false, internal: false },
    });
    expect(created.statusCode, created.body).toBe(201);
    const [listed] = await expectAccess(t, { method: 'GET', url: `/api/databases/${id}/vhosts` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    expect(listed?.json()._embedded.vhosts.map((v: { id: string }) => v.id)).toEqual([created.json().id]);
  });

  it('refuses a second provision with the spec text', async () => {
    const again = await operate(f.deployer, `/api/databases/${id}/operations`, { type: 'provision' });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('Database (main-db) already provisioned');
  });

  it('lists databases by environment and everywhere, searchable, and hides them from others', async () => {
    await expectAccess(t, { method: 'GET', url: `/api/accounts/${env()}/databases` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    const found = (
      await t.call('GET', '/api/databases?search=MAIN&no_embed=true', { token: f.reader.token })
    ).json();
    expect(found._embedded.databases.map((d: { handle: string }) => d.handle)).toEqual(['main-db']);
    expect(found._embedded.databases[0]._embedded).toBeUndefined();
    const stranger = (await t.call('GET', '/api/databases', { token: f.stranger.token })).json();
    expect(stranger._embedded.databases).toEqual([]);
    await expectAccess(t, { method: 'GET', url: `/api/databases/${id}` }, [[f.reader, 200], ...cannotSee(f)]);
  });
});

describe('scaling and restarting', () => {
  let id: string;
  beforeAll(async () => {
    id = await provisioned('scaled-db');
  });

  it('grows the disk and the container, once a day, never shrinking', async () => {
    const path = `/api/databases/${id}/operations`;
    await expectAccess(
      t,
      {
        method: 'POST',
        url: path,
        body: { type: 'scale', disk_size: 20 },
        scope: 'observability',
        environmentId: env(),
      },
      cannotWrite(f),
    );
    const op = await operate(f.deployer, path, { type: 'scale', disk_size: 20, container_size: 2048 });
    expect(op.statusCode, op.body).toBe(201);
    await t.worker.drain();
    expect(await operationStatus(op.json().id)).toBe('succeeded');
    const database = (await t.call('GET', `/api/databases/${id}`, { token: f.reader.token })).json();
    expect(database._embedded.disk.size).toBe(20);
    const after = (await t.call('GET', `/api/operations/${op.json().id}`, { token: f.reader.token })).json();
    expect(after).toMatchObject({ previous_container_size: 1024, container_size: 2048, disk_size: 20 });
    const again = await operate(f.deployer, path, { type: 'scale', disk_size: 30 });
    expect(again.json().message).toBe(databaseMessages.diskOncePerDay);
    const shrink = await operate(f.deployer, path, { type: 'restart', disk_size: 15 });
    expect(shrink.json().message).toBe(databaseMessages.diskShrink);
    const iops = await operate(f.deployer, path, { type: 'scale', provisioned_iops: 16001 });
    expect(iops.json().message).toBe(databaseMessages.iopsTooHigh);
    const perGb = await operate(f.deployer, path, { type: 'scale', provisioned_iops: 12000 });
    expect(perGb.json().message).toBe(databaseMessages.iopsNeedDisk);
    const nothing = await operate(f.deployer, path, { type: 'scale' });
    expect(nothing.statusCode).toBe(422);
  });

  it('restarts and reloads a provisioned database, and refuses those on one that is not', async () => {
    const restart = await operate(f.deployer, `/api/databases/${id}/operations`, { type: 'restart', id });
    const reload = await operate(f.deployer, `/api/databases/${id}/operations`, { type: 'reload' });
    expect([restart.statusCode, reload.statusCode]).toEqual([201, 201]);
    await t.worker.drain();
    expect(await operationStatus(restart.json().id)).toBe('succeeded');
    const pending = (await create('never-provisioned')).json().id;
    const refused = await operate(f.deployer, `/api/databases/${pending}/operations`, { type: 'restart' });
    expect(refused.json().message).toBe(databaseMessages.notProvisioned('never-provisioned'));
  });
});

describe('backups, restores and the retention policy', () => {
  let id: string;
  beforeAll(async () => {
    id = await provisioned('backed-db');
  });

  it('takes a manual backup, lists it, and restores it into a new database', async () => {
    const op = await operate(f.deployer, `/api/databases/${id}/operations`, { type: 'backup' });
    expect(op.statusCode, op.body).toBe(201);
    await t.worker.drain();
    const [listed] = await expectAccess(t, { method: 'GET', url: `/api/databases/${id}/backups?page=1` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    const [backup] = listed?.json()._embedded.backups ?? [];
    expect(backup).toMatchObject({
      _type: 'backup',
      manual: true,
      final: false,
      database_handle: 'backed-db',
    });
    expect(backup._embedded).toEqual({ copied_from: null });
    expect(backup.created_by_email).toBe(f.deployer.email);
    await expectAccess(t, { method: 'GET', url: `/api/backups/${backup.id}` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);

    const restorePath = `/api/backups/${backup.id}/operations`;
    await expectAccess(
      t,
      {
        method: 'POST',
        url: restorePath,
        body: { type: 'restore', handle: 'copy' },
        scope: 'deploy',
        environmentId: env(),
      },
      cannotWrite(f),
    );
    const elsewhere = await operate(f.deployer, restorePath, {
      type: 'restore',
      handle: 'copy',
      destination_account_id: String(f.strangerEnvironment.id),
    });
    expect(elsewhere.statusCode).toBe(404);
    const restore = await operate(f.deployer, restorePath, {
      type: 'restore',
      handle: 'Backed-DB-Copy',
      destination_account_id: String(env()),
      disk_size: 10,
      containerSize: 2048,
    });
    expect(restore.statusCode, restore.body).toBe(201);
    await t.worker.drain();
    expect(await operationStatus(restore.json().id)).toBe('succeeded');
    const databases = (
      await t.call('GET', `/api/accounts/${env()}/databases`, { token: f.reader.token })
    ).json();
    const copy = databases._embedded.databases.find((d: { handle: string }) => d.handle === 'backed-db-copy');
    expect(copy).toMatchObject({ status: 'provisioned', provisioned: true });
    // Issue 41: the restore's operation links the database it made.
    const restoreOperation = await t.call('GET', `/api/operations/${restore.json().id}`, {
      token: f.reader.token,
    });
    expect(restoreOperation.json()._links.new_database.href).toMatch(new RegExp(`/databases/${copy.id}$`));
    const taken = await operate(f.deployer, restorePath, { type: 'restore', handle: 'backed-db-copy' });
    expect(taken.json().message).toBe(databaseMessages.duplicate('backed-db-copy'));
  });

  it('keeps the default policy in force and lets only admins replace it, with the spec rules', async () => {
    const path = `/api/accounts/${env()}/backup_retention_policies`;
    const [response] = await expectAccess(t, { method: 'GET', url: path }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    expect(response?.json()._embedded.backup_retention_policies[0]).toMatchObject({
      _type: 'backup_retention_policy',
      daily: 30,
      monthly: 12,
      yearly: 6,
      pitr_days: 0,
      make_copy: true,
      keep_final: true,
    });
    const policy = { daily: 14, monthly: 12, yearly: 5, pitr_days: 7, make_copy: true, keep_final: true };
    await expectAccess(t, { method: 'POST', url: path, body: policy, scope: 'admin', environmentId: env() }, [
      ...cannotWrite(f),
      [f.deployer, 403],
    ]);
    const created = await t.call('POST', path, { token: admin.token, body: policy });
    expect(created.statusCode, created.body).toBe(201);
    const now = (await t.call('GET', path, { token: f.reader.token })).json();
    expect(now._embedded.backup_retention_policies[0]).toMatchObject({ daily: 14, pitr_days: 7 });
    for (const [body, message] of [
      [{ ...policy, daily: 0 }, 'Daily backups must be a whole number greater than 0'],
      [{ ...policy, monthly: -1 }, 'Monthly backups must be a whole number of 0 or more'],
      [{ ...policy, yearly: 1.5 }, 'Yearly backups must be a whole number of 0 or more'],
      [{ ...policy, pitr_days: 15 }, 'PITR days must be a whole number from 0 to 14'],
    ] as const) {
      const refused = await t.call('POST', path, { token: admin.token, body });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe(message);
    }
  });

  it('turns PITR on only where allowed, off with backups, and restores to a point in time', async () => {
    const put = (user: TestUser, body: Record<string, unknown>) =>
      t.call('PUT', `/api/databases/${id}`, { token: user.token, body });
    expect((await put(f.deployer, { enable_pitr: true })).statusCode).toBe(403);
    const on = await put(admin, { enable_pitr: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().enable_pitr).toBe(true);

    const path = `/api/databases/${id}/operations`;
    const badTime = await operate(f.deployer, path, {
      type: 'pitr_restore',
      handle: 'at-time',
      recovery_target_type: 'time',
      recovery_target: '2026-13-01 00:00:00',
    });
    expect(badTime.json().message).toBe(databaseMessages.pitrTargetFormat);
    const first = await operate(f.deployer, path, {
      type: 'pitr_restore',
      handle: 'at-time',
      recovery_target_type: 'time',
      recovery_target: '2026-11-25 10:00:00',
    });
    expect(first.statusCode, first.body).toBe(201);
    await t.worker.drain();
    expect(await operationStatus(first.json().id)).toBe('succeeded');
    const listed = (
      await t.call('GET', `/api/accounts/${env()}/databases`, { token: f.reader.token })
    ).json();
    const copy = listed._embedded.databases.find((d: { handle: string }) => d.handle === 'at-time');
    expect(copy).toMatchObject({ status: 'pending' });
    expect(copy._links.initialize_from.href).toMatch(new RegExp(`/databases/${id}$`));
    const second = await operate(f.deployer, `/api/databases/${copy.id}/operations`, {
      type: 'provision',
      recovery_target_type: 'time',
      recovery_target: '2026-11-25 10:00:00',
    });
    expect(second.statusCode, second.body).toBe(201);
    await t.worker.drain();
    expect(await operationStatus(second.json().id)).toBe('succeeded');

    // A dependent blocks the deprovision until unlinked.
    const blocked = await operate(f.owner, path, { type: 'deprovision' });
    expect(blocked.json().message).toBe(databaseMessages.dependents(['at-time']));
    const [dependents] = await expectAccess(t, { method: 'GET', url: `/api/databases/${id}/dependents` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    expect(dependents?.json()._embedded.databases.map((d: { id: string }) => d.id)).toEqual([copy.id]);
    await expectAccess(
      t,
      { method: 'POST', url: `/api/databases/${copy.id}/unlink`, scope: 'deploy', environmentId: env() },
      [...cannotWrite(f), [f.deployer, 204], [f.deployer, 422]],
    );

    const off = await put(admin, { enable_backups: false });
    expect(off.json()).toMatchObject({ enable_backups: false, enable_pitr: false });
    expect((await put(admin, { enable_backups: true })).json().enable_backups).toBe(true);
  });

  it('deprovisions with a Final backup left among the environment’s orphaned backups', async () => {
    const path = `/api/databases/${id}/operations`;
    await expectAccess(
      t,
      { method: 'POST', url: path, body: { type: 'deprovision' }, scope: 'destroy', environmentId: env() },
      [...cannotWrite(f), [f.deployer, 403]],
    );
    const op = await operate(f.owner, path, { type: 'deprovision' });
    expect(op.statusCode, op.body).toBe(201);
    await t.worker.drain();
    expect(await operationStatus(op.json().id)).toBe('succeeded');
    expect((await t.call('GET', `/api/databases/${id}`, { token: f.owner.token })).statusCode).toBe(404);
    const [orphaned] = await expectAccess(
      t,
      { method: 'GET', url: `/api/accounts/${env()}/backups?orphaned=true&page=1` },
      [[f.reader, 200], ...cannotSee(f)],
    );
    const kinds = orphaned
      ?.json()
      ._embedded.backups.map((b: { final: boolean; manual: boolean; database_handle: string }) => [
        b.database_handle,
        b.final,
        b.manual,
      ]);
    expect(kinds).toEqual([
      ['backed-db', true, false],
      ['backed-db', false, true],
    ]);
    expect(orphaned?.json()._embedded.backups[0]._links.database).toBeUndefined();
  });
});

describe('PUT /databases/:id', () => {
  it('renames with deploy and refuses a taken handle', async () => {
    const id = (await create('to-rename')).json().id;
    await create('occupied');
    const renamed = await t.call('PUT', `/api/databases/${id}`, {
      token: f.deployer.token,
      body: { handle: 'Renamed' },
    });
    expect(renamed.json().handle).toBe('renamed');
    const taken = await t.call('PUT', `/api/databases/${id}`, {
      token: f.deployer.token,
      body: { handle: 'occupied' },
    });
    expect(taken.json().message).toBe(databaseMessages.duplicate('occupied'));
    await expectAccess(
      t,
      {
        method: 'PUT',
        url: `/api/databases/${id}`,
        body: { handle: 'x' },
        scope: 'deploy',
        environmentId: env(),
      },
      cannotWrite(f),
    );
  });
});

describe('replicas, new hardware, PITR switches and purges', () => {
  let id: string;
  beforeAll(async () => {
    id = await provisioned('primary-db');
  });

  it('replicates into a provisioned dependent and restarts onto new hardware', async () => {
    const path = `/api/databases/${id}/operations`;
    await expectAccess(
      t,
      {
        method: 'POST',
        url: path,
        body: { type: 'replicate', handle: 'r' },
        scope: 'deploy',
        environmentId: env(),
      },
      cannotWrite(f),
    );
    const replica = await operate(f.deployer, path, { type: 'replicate', handle: 'Primary-Replica' });
    expect(replica.statusCode, replica.body).toBe(201);
    const recreate = await operate(f.deployer, path, {
      type: 'restart_recreate',
      id,
      instance_profile: 'm4',
    });
    expect(recreate.statusCode, recreate.body).toBe(201);
    await t.worker.drain();
    expect(await operationStatus(replica.json().id)).toBe('succeeded');
    expect(await operationStatus(recreate.json().id)).toBe('succeeded');
    const dependents = (
      await t.call('GET', `/api/databases/${id}/dependents`, { token: f.reader.token })
    ).json();
    expect(dependents._embedded.databases).toEqual([
      expect.objectContaining({ handle: 'primary-replica', status: 'provisioned', provisioned: true }),
    ]);
    const services = (await t.call('GET', `/api/databases/${id}/services`, { token: f.reader.token })).json();
    expect(services._embedded.services[0].instance_class).toBe('m4');
    await expectAccess(t, { method: 'GET', url: `/api/databases/${id}/services` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    const disk = (await t.call('GET', `/api/databases/${id}`, { token: f.reader.token })).json()._links.disk
      .href;
    await expectAccess(t, { method: 'GET', url: new URL(disk).pathname }, [[f.reader, 200], ...cannotSee(f)]);
    const activity = await expectAccess(
      t,
      { method: 'GET', url: `/api/databases/${id}/operations?page=1&with_services=true` },
      [[f.reader, 200], ...cannotSee(f)],
    );
    expect(activity[0]?.json()._embedded.operations.map((o: { type: string }) => o.type)).toEqual(
      expect.arrayContaining(['provision', 'replicate', 'restart_recreate']),
    );
  });

  it('switches PITR backups by operation, only where the policy keeps PITR days', async () => {
    const path = `/api/databases/${id}/operations`;
    await expectAccess(
      t,
      {
        method: 'POST',
        url: path,
        body: { type: 'configure_backup_policy', enable_pitr: true },
        scope: 'admin',
        environmentId: env(),
      },
      [...cannotWrite(f), [f.deployer, 403]],
    );
    const policy = `/api/accounts/${env()}/operations`;
    await expectAccess(
      t,
      {
        method: 'POST',
        url: policy,
        body: { type: 'configure_backup_policy', pitr_days: 0 },
        scope: 'admin',
        environmentId: env(),
      },
      [...cannotWrite(f), [f.deployer, 403]],
    );
    const none = await operate(admin, policy, { type: 'configure_backup_policy', pitr_days: 0 });
    expect(none.statusCode, none.body).toBe(201);
    await t.worker.drain();
    const refused = await operate(admin, path, { type: 'configure_backup_policy', enable_pitr: true });
    expect(refused.json().message).toBe(databaseMessages.pitrNeedsRetention);
    const tooMany = await operate(admin, policy, { type: 'configure_backup_policy', pitr_days: 15 });
    expect(tooMany.json().message).toBe('pitr_days must be a whole number from 0 to 14');
    await operate(admin, policy, { type: 'configure_backup_policy', pitr_days: 3 });
    await t.worker.drain();
    const on = await operate(admin, path, { type: 'configure_backup_policy', enable_pitr: true });
    expect(on.statusCode, on.body).toBe(201);
    await t.worker.drain();
    expect((await t.call('GET', `/api/databases/${id}`, { token: f.reader.token })).json().enable_pitr).toBe(
      true,
    );
  });

  it('lists backups everywhere and by environment, and purges one with destroy', async () => {
    await operate(f.deployer, `/api/databases/${id}/operations`, { type: 'backup' });
    await t.worker.drain();
    const [all] = await expectAccess(t, { method: 'GET', url: '/api/backups?per_page=1500&page=1' }, [
      [f.reader, 200],
      [null, 401],
    ]);
    const backup = all
      ?.json()
      ._embedded.backups.find((b: { database_handle: string }) => b.database_handle === 'primary-db');
    expect(backup).toBeDefined();
    const stranger = (await t.call('GET', '/api/backups', { token: f.stranger.token })).json();
    expect(stranger._embedded.backups).toEqual([]);
    const [listed] = await expectAccess(t, { method: 'GET', url: `/api/accounts/${env()}/backups?page=1` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    expect(listed?.json()._embedded.backups.map((b: { id: string }) => b.id)).toContain(backup.id);
    const path = `/api/backups/${backup.id}/operations`;
    await expectAccess(
      t,
      { method: 'POST', url: path, body: { type: 'purge' }, scope: 'destroy', environmentId: env() },
      [...cannotWrite(f), [f.deployer, 403]],
    );
    const purge = await operate(f.owner, path, { type: 'purge' });
    expect(purge.statusCode, purge.body).toBe(201);
    await t.worker.drain();
    expect((await t.call('GET', `/api/backups/${backup.id}`, { token: f.owner.token })).statusCode).toBe(404);
  });
});

describe('refusals with their messages', () => {
  it('explains what a database cannot do yet', async () => {
    const pending = (await create('refusing-db')).json().id;
    const noTarget = await operate(f.deployer, `/api/databases/${pending}/operations`, {
      type: 'provision',
      recovery_target_type: 'time',
    });
    expect(noTarget.json().message).toBe(databaseMessages.pitrTargetRequired);
    const notReplica = await t.call('POST', `/api/databases/${pending}/unlink`, { token: f.deployer.token });
    expect(notReplica.json().message).toBe(databaseMessages.notReplica);
    const put = (id: string, body: Record<string, unknown>) =>
      t.call('PUT', `/api/databases/${id}`, { token: admin.token, body });
    const pitrWithoutBackups = await put(pending, { enable_backups: false, enable_pitr: true });
    expect(pitrWithoutBackups.json().message).toBe(databaseMessages.backupsDisabled);
    const redis = (
      await create('cache-db', f.deployer, { type: 'redis', database_image_id: undefined })
    ).json();
    expect(redis.type).toBe('redis');
    expect((await put(redis.id, { enable_pitr: true })).json().message).toBe(
      databaseMessages.pitrNotSupported,
    );
  });

  it('restores to a point in time only with PITR on, and only within the organization', async () => {
    const id = await provisioned('no-pitr-db');
    const pitr = await operate(f.deployer, `/api/databases/${id}/operations`, {
      type: 'pitr_restore',
      handle: 'no-pitr-copy',
      recovery_target_type: 'latest',
    });
    expect(pitr.json().message).toBe(databaseMessages.pitrDisabled);
    await operate(f.deployer, `/api/databases/${id}/operations`, { type: 'backup' });
    await t.worker.drain();
    const [backup] = (await t.call('GET', `/api/databases/${id}/backups`, { token: f.reader.token })).json()
      ._embedded.backups;
    // The stranger deploys in both organizations; a backup still stays in its own.
    const role = await addMember(t.db, {
      organizationId: f.organization.id,
      userId: f.stranger.id,
      name: 'Both',
    });
    await grant(t.db, { roleId: role.id, environmentId: String(env()), scope: 'deploy' });
    const across = await operate(f.stranger, `/api/backups/${backup.id}/operations`, {
      type: 'restore',
      handle: 'elsewhere-copy',
      destination_account_id: String(f.strangerEnvironment.id),
    });
    expect(across.statusCode).toBe(422);
    expect(across.json().message).toBe(databaseMessages.restoreOtherOrganization);
  });
});
