import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, backups, databases, logDrains } from '../../db/schema.ts';
import { addMember, grant } from '../../testing/factories.ts';
import { type TestApp, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const accountsUrl = '/api/accounts?per_page=5000&no_embed=true&metrics[]=app_count&metrics[]=database_count';

describe('GET /stacks', () => {
  it('includes the default shared stack on the sim runtime', async () => {
    const user = await t.signUp();
    const response = await t.call('GET', '/api/stacks?per_page=5000', { token: user.token });
    expect(response.statusCode).toBe(200);
    const [stack] = response.json()._embedded.stacks;
    expect(stack).toMatchObject({
      _type: 'stack',
      name: 'shared-us-west-1',
      region: 'us-west-1',
      runtime: 'sim',
      public: true,
      default: true,
    });
    expect(stack._links.organization).toBeUndefined();
    expect(response.json()).toMatchObject({ current_page: 1, per_page: 5000, total_count: 1 });
    const one = await t.call('GET', `/api/stacks/${stack.id}`, { token: user.token });
    expect(one.json().id).toBe(stack.id);
    expect((await t.call('GET', '/api/stacks/999999', { token: user.token })).statusCode).toBe(404);
    expect((await t.call('GET', '/api/stacks')).statusCode).toBe(401);
  });
});

describe('POST /accounts', () => {
  it('creates an environment on the default stack, with counts and embedded permissions', async () => {
    const user = await t.signUp();
    const org = await t.createOrganization(user);
    const response = await t.call('POST', '/api/accounts', {
      token: user.token,
      body: {
        handle: 'production',
        organization_id: org.id,
        type: 'development',
        onboarding_status: 'initiated',
      },
    });
    expect(response.statusCode).toBe(201);
    const environment = response.json();
    expect(environment).toMatchObject({
      _type: 'account',
      handle: 'production',
      organization_id: org.id,
      onboarding_status: 'initiated',
      total_app_count: 0,
      total_database_count: 0,
      _embedded: { permissions: [] },
    });
    expect(environment.id).toMatch(/^\d+$/);
    expect(environment._links.stack.href).toMatch(/^http:\/\/berth\.test\/api\/stacks\/\d+$/);
  });

  it.each([
    [{ handle: '' }, 'Handle must not be empty'],
    [
      { handle: 'Has Spaces' },
      'Handle may contain only lowercase letters, digits, periods, hyphens and underscores',
    ],
    [{ handle: 'x'.repeat(65) }, 'Handle must be at most 64 characters'],
  ])('refuses %j with 422 "%s"', async (fields, message) => {
    const user = await t.signUp();
    const org = await t.createOrganization(user);
    const response = await t.call('POST', '/api/accounts', {
      token: user.token,
      body: { organization_id: org.id, type: 'development', ...fields },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(message);
  });

  it('refuses a duplicate handle in the same organization and keeps the first', async () => {
    const user = await t.signUp();
    const org = await t.createOrganization(user);
    await t.createEnvironment(user, org.id, 'staging');
    const again = await t.call('POST', '/api/accounts', {
      token: user.token,
      body: { handle: 'staging', organization_id: org.id },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(
      'An environment with the handle "staging" already exists in this organization',
    );
    const list = (await t.call('GET', accountsUrl, { token: user.token })).json();
    expect(list._embedded.accounts).toHaveLength(1);
  });

  it('refuses a stack that is not usable and accepts ids given as URLs', async () => {
    const user = await t.signUp();
    const org = await t.createOrganization(user);
    const bad = await t.call('POST', '/api/accounts', {
      token: user.token,
      body: { handle: 'a', organization_id: org.id, stack_id: '424242' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe('Stack not found');
    const [stack] = (await t.call('GET', '/api/stacks', { token: user.token })).json()._embedded.stacks;
    const ok = await t.call('POST', '/api/accounts', {
      token: user.token,
      body: {
        handle: 'b',
        organization_id: `http://berth.test/auth/organizations/${org.id}`,
        stack_id: `http://berth.test/api/stacks/${stack.id}`,
      },
    });
    expect(ok.statusCode).toBe(201);
  });

  it('401 without a token, 404 for another organization, 403 for a member who is not an owner', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const stranger = await t.signUp();
    const org = await t.createOrganization(owner);
    await addMember(t.db, { organizationId: org.id, userId: member.id });
    const body = { handle: 'nope', organization_id: org.id };
    expect((await t.call('POST', '/api/accounts', { body })).statusCode).toBe(401);
    expect((await t.call('POST', '/api/accounts', { token: stranger.token, body })).statusCode).toBe(404);
    const denied = await t.call('POST', '/api/accounts', { token: member.token, body });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(
      'You do not have a valid role type (platform_owner, owner) to access this resource.',
    );
  });
});

describe('GET /accounts and /accounts/:id', () => {
  it('shows owners every environment and members only those they hold a permission on', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const stranger = await t.signUp();
    const org = await t.createOrganization(owner);
    const visible = await t.createEnvironment(owner, org.id, 'visible');
    const hidden = await t.createEnvironment(owner, org.id, 'hidden');
    const role = await addMember(t.db, { organizationId: org.id, userId: member.id });
    await grant(t.db, { roleId: role.id, environmentId: visible.id, scope: 'deploy' });

    const ownerList = (await t.call('GET', accountsUrl, { token: owner.token })).json();
    expect(ownerList._embedded.accounts.map((a: { handle: string }) => a.handle)).toEqual([
      'visible',
      'hidden',
    ]);
    const memberList = (await t.call('GET', accountsUrl, { token: member.token })).json();
    expect(memberList._embedded.accounts).toMatchObject([
      {
        handle: 'visible',
        _embedded: {
          permissions: [
            {
              _type: 'permission',
              scope: 'deploy',
              _links: { role: { href: `http://berth.test/auth/roles/${role.id}` } },
            },
          ],
        },
      },
    ]);
    expect((await t.call('GET', accountsUrl, { token: stranger.token })).json()._embedded.accounts).toEqual(
      [],
    );

    expect((await t.call('GET', `/api/accounts/${visible.id}`, { token: member.token })).statusCode).toBe(
      200,
    );
    expect((await t.call('GET', `/api/accounts/${hidden.id}`, { token: member.token })).statusCode).toBe(404);
    expect((await t.call('GET', `/api/accounts/${visible.id}`, { token: stranger.token })).statusCode).toBe(
      404,
    );
    expect((await t.call('GET', `/api/accounts/${visible.id}`)).statusCode).toBe(401);
    expect((await t.call('GET', '/api/accounts/abc', { token: owner.token })).statusCode).toBe(404);
  });

  it('pages with page and per_page', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner);
    for (const handle of ['a1', 'a2', 'a3']) await t.createEnvironment(owner, org.id, handle);
    const page = (await t.call('GET', '/api/accounts?page=2&per_page=2', { token: owner.token })).json();
    expect(page).toMatchObject({ current_page: 2, per_page: 2, total_count: 3 });
    expect(page._embedded.accounts.map((a: { handle: string }) => a.handle)).toEqual(['a3']);
    expect(page._links.prev.href).toContain('page=1');
  });
});

describe('PATCH /accounts/:id', () => {
  it('renames an environment and moves its onboarding status', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner);
    const environment = await t.createEnvironment(owner, org.id, 'before');
    const renamed = await t.call('PATCH', `/api/accounts/${environment.id}`, {
      token: owner.token,
      body: { handle: 'after' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ _type: 'account', id: environment.id, handle: 'after' });
    const onboarded = await t.call('PATCH', `/api/accounts/${environment.id}`, {
      token: owner.token,
      body: { onboarding_status: 'completed' },
    });
    expect(onboarded.json()).toMatchObject({ handle: 'after', onboarding_status: 'completed' });
    const same = await t.call('PATCH', `/api/accounts/${environment.id}`, {
      token: owner.token,
      body: { handle: 'after' },
    });
    expect(same.statusCode).toBe(200);
  });

  it.each([
    [
      { handle: 'Bad Handle' },
      'Handle may contain only lowercase letters, digits, periods, hyphens and underscores',
    ],
    [{ handle: '' }, 'Handle must not be empty'],
    [{}, 'Nothing to update: send a handle or an onboarding status'],
    [
      { onboarding_status: 'finished' },
      'Onboarding status must be one of: initiated, scanned, db_provisioned, app_provisioned, completed, unknown',
    ],
  ])('refuses %j with 422 "%s"', async (body, message) => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner);
    const environment = await t.createEnvironment(owner, org.id, 'env');
    const response = await t.call('PATCH', `/api/accounts/${environment.id}`, { token: owner.token, body });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(message);
  });

  it('refuses a handle another environment of the organization has', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner);
    await t.createEnvironment(owner, org.id, 'taken');
    const environment = await t.createEnvironment(owner, org.id, 'mine');
    const response = await t.call('PATCH', `/api/accounts/${environment.id}`, {
      token: owner.token,
      body: { handle: 'taken' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(
      'An environment with the handle "taken" already exists in this organization',
    );
    // Another organization may use the same handle.
    const other = await t.createOrganization(owner, 'Other');
    const elsewhere = await t.createEnvironment(owner, other.id, 'elsewhere');
    const ok = await t.call('PATCH', `/api/accounts/${elsewhere.id}`, {
      token: owner.token,
      body: { handle: 'taken' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('401 without a token, 404 for another organization, 403 without admin, 200 with admin', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const stranger = await t.signUp();
    const org = await t.createOrganization(owner);
    const environment = await t.createEnvironment(owner, org.id, 'guarded');
    const role = await addMember(t.db, { organizationId: org.id, userId: member.id });
    await grant(t.db, { roleId: role.id, environmentId: environment.id, scope: 'deploy' });
    const url = `/api/accounts/${environment.id}`;
    const body = { handle: 'renamed' };
    expect((await t.call('PATCH', url, { body })).statusCode).toBe(401);
    expect((await t.call('PATCH', url, { token: stranger.token, body })).statusCode).toBe(404);
    expect((await t.call('PATCH', '/api/accounts/999999', { token: owner.token, body })).statusCode).toBe(
      404,
    );
    const denied = await t.call('PATCH', url, { token: member.token, body });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(
      `You do not have "admin" permissions for this environment (id:${environment.id})`,
    );
    await grant(t.db, { roleId: role.id, environmentId: environment.id, scope: 'admin' });
    expect((await t.call('PATCH', url, { token: member.token, body })).statusCode).toBe(200);
  });
});

describe('DELETE /accounts/:id', () => {
  it('removes an empty environment', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner);
    const environment = await t.createEnvironment(owner, org.id, 'empty');
    const response = await t.call('DELETE', `/api/accounts/${environment.id}`, { token: owner.token });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await t.call('GET', `/api/accounts/${environment.id}`, { token: owner.token })).statusCode).toBe(
      404,
    );
  });

  it('refuses while the environment has apps, databases or backups, listing them', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner);
    const environment = await t.createEnvironment(owner, org.id, 'busy');
    const environmentId = Number(environment.id);
    await t.db.insert(apps).values([
      { environmentId, handle: 'web' },
      { environmentId, handle: 'api' },
    ]);
    await t.db.insert(databases).values({ environmentId, handle: 'db', type: 'postgresql' });
    const url = `/api/accounts/${environment.id}`;
    const refused = await t.call('DELETE', url, { token: owner.token });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(
      'Cannot deprovision this environment while it has: 2 apps, 1 database',
    );

    await t.db.delete(apps).where(eq(apps.handle, 'api'));
    expect((await t.call('DELETE', url, { token: owner.token })).json().message).toBe(
      'Cannot deprovision this environment while it has: 1 app, 1 database',
    );
    await t.db.delete(databases).where(eq(databases.environmentId, environmentId));
    expect((await t.call('DELETE', url, { token: owner.token })).json().message).toBe(
      'Cannot deprovision this environment while it has: 1 app',
    );
    await t.db.delete(apps).where(eq(apps.environmentId, environmentId));
    // The backup of a deprovisioned database (spec 2 §5 "database backups") keeps it too, until purged.
    await t.db.insert(backups).values({
      environmentId,
      databaseHandle: 'db',
      databaseType: 'postgresql',
      kind: 'final',
      sizeGb: 1.25,
    });
    expect((await t.call('DELETE', url, { token: owner.token })).json().message).toBe(
      'Cannot deprovision this environment while it has: 1 database backup',
    );
    expect((await t.call('GET', url, { token: owner.token })).json().total_backup_size).toBe(1.25);
    await t.db.delete(backups).where(eq(backups.environmentId, environmentId));
    // A log drain keeps it too (deprovisioning the drain removes it).
    await t.db.insert(logDrains).values({
      environmentId,
      handle: 'logs',
      serviceType: 'papertrail',
      drainType: 'papertrail',
      drainHost: 'logs.example.com',
      drainPort: 1234,
    });
    expect((await t.call('DELETE', url, { token: owner.token })).json().message).toBe(
      'Cannot deprovision this environment while it has: 1 log drain',
    );
    await t.db.delete(logDrains).where(eq(logDrains.environmentId, environmentId));
    expect((await t.call('DELETE', url, { token: owner.token })).statusCode).toBe(204);
  });

  it('401 without a token, 404 for another organization, 403 without destroy, 204 with destroy', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const stranger = await t.signUp();
    const org = await t.createOrganization(owner);
    const environment = await t.createEnvironment(owner, org.id, 'doomed');
    const role = await addMember(t.db, { organizationId: org.id, userId: member.id });
    await grant(t.db, { roleId: role.id, environmentId: environment.id, scope: 'deploy' });
    const url = `/api/accounts/${environment.id}`;
    expect((await t.call('DELETE', url)).statusCode).toBe(401);
    expect((await t.call('DELETE', url, { token: stranger.token })).statusCode).toBe(404);
    expect((await t.call('DELETE', '/api/accounts/nope', { token: owner.token })).statusCode).toBe(404);
    const denied = await t.call('DELETE', url, { token: member.token });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(
      `You do not have "destroy" permissions for this environment (id:${environment.id})`,
    );
    await grant(t.db, { roleId: role.id, environmentId: environment.id, scope: 'destroy' });
    expect((await t.call('DELETE', url, { token: member.token })).statusCode).toBe(204);
  });
});
