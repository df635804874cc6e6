import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships, roles } from '../../db/schema.ts';
import { addMember, grant } from '../../testing/factories.ts';
import { type TestApp, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

/** An organization with one environment, a custom role and its owner's token. */
async function setup() {
  const owner = await t.signUp();
  const org = await t.createOrganization(owner);
  const environment = await t.createEnvironment(owner, org.id, 'production');
  const [developers] = await t.db
    .insert(roles)
    .values({ organizationId: org.id, name: 'Developers', type: 'platform_user' })
    .returning();
  if (!developers) throw new Error('role insert failed');
  return { owner, org, environment, developers };
}

async function makeRoleAdmin(userId: string, roleId: string) {
  await t.db
    .insert(memberships)
    .values({ userId, roleId, privileged: true })
    .onConflictDoUpdate({ target: [memberships.userId, memberships.roleId], set: { privileged: true } });
}

describe('POST /accounts/:id/permissions', () => {
  it('grants a role a scope on the environment; the account embeds it', async () => {
    const { owner, environment, developers } = await setup();
    const response = await t.call('POST', `/api/accounts/${environment.id}/permissions`, {
      token: owner.token,
      body: { role: developers.id, scope: 'deploy' },
    });
    expect(response.statusCode).toBe(201);
    const permission = response.json();
    expect(permission).toMatchObject({
      _type: 'permission',
      scope: 'deploy',
      _links: {
        account: { href: `http://berth.test/api/accounts/${environment.id}` },
        role: { href: `http://berth.test/auth/roles/${developers.id}` },
        self: { href: `http://berth.test/api/permissions/${permission.id}` },
      },
    });
    expect(permission.id).toMatch(/^\d+$/);
    const account = (await t.call('GET', `/api/accounts/${environment.id}`, { token: owner.token })).json();
    expect(account._embedded.permissions).toMatchObject([{ id: permission.id, scope: 'deploy' }]);
  });

  it('accepts the role as an auth role URL', async () => {
    const { owner, environment, developers } = await setup();
    const response = await t.call('POST', `/api/accounts/${environment.id}/permissions`, {
      token: owner.token,
      body: { role: `http://berth.test/auth/roles/${developers.id}`, scope: 'read' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()._links.role.href).toBe(`http://berth.test/auth/roles/${developers.id}`);
  });

  it('lets a deploy owner and a role admin manage the role, and refuses other members', async () => {
    const { org, environment, developers } = await setup();
    const deployOwner = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: deployOwner.id, roleType: 'platform_owner' });
    const roleAdmin = await t.signUp();
    await makeRoleAdmin(roleAdmin.id, developers.id);
    // A role admin still needs to see the environment (any permission grants basic_read).
    await grant(t.db, { roleId: developers.id, environmentId: environment.id, scope: 'basic_read' });
    const plainMember = await t.signUp();
    await t.db.insert(memberships).values({ userId: plainMember.id, roleId: developers.id });

    const url = `/api/accounts/${environment.id}/permissions`;
    const byDeployOwner = await t.call('POST', url, {
      token: deployOwner.token,
      body: { role: developers.id, scope: 'deploy' },
    });
    expect(byDeployOwner.statusCode).toBe(201);
    const byRoleAdmin = await t.call('POST', url, {
      token: roleAdmin.token,
      body: { role: developers.id, scope: 'observability' },
    });
    expect(byRoleAdmin.statusCode).toBe(201);
    // A role admin cannot grant more than they hold (no raising one's own access).
    const escalation = await t.call('POST', url, {
      token: roleAdmin.token,
      body: { role: developers.id, scope: 'admin' },
    });
    expect(escalation.statusCode).toBe(403);
    expect(escalation.json().message).toBe(
      `You do not have "admin" permissions for this environment (id:${environment.id})`,
    );
    const denied = await t.call('POST', url, {
      token: plainMember.token,
      body: { role: developers.id, scope: 'admin' },
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('You are not an owner or role admin.');

    // Admin of one role is not admin of another.
    const [testers] = await t.db
      .insert(roles)
      .values({ organizationId: org.id, name: 'Testers', type: 'platform_user' })
      .returning();
    const other = await t.call('POST', url, {
      token: roleAdmin.token,
      body: { role: testers?.id, scope: 'read' },
    });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe('You are not an owner or role admin.');
  });

  it('401 without a token, 404 for another organization or an unseen environment', async () => {
    const { org, environment, developers } = await setup();
    const stranger = await t.signUp();
    await t.createOrganization(stranger, 'Elsewhere');
    const url = `/api/accounts/${environment.id}/permissions`;
    const body = { role: developers.id, scope: 'read' };
    expect((await t.call('POST', url, { body })).statusCode).toBe(401);
    expect((await t.call('POST', url, { token: stranger.token, body })).statusCode).toBe(404);
    // A member of the organization without any permission on the environment does not see it.
    const member = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: member.id });
    expect((await t.call('POST', url, { token: member.token, body })).statusCode).toBe(404);
    expect(
      (await t.call('POST', '/api/accounts/999999/permissions', { token: stranger.token, body })).statusCode,
    ).toBe(404);
  });

  it.each([
    [{ scope: 'read' }, 'Role must not be empty'],
    [
      { role: 'ROLE', scope: 'god_mode' },
      'Scope must be one of: admin, read, basic_read, deploy, destroy, observability, sensitive, tunnel',
    ],
  ])('refuses %j with 422 "%s"', async (body, message) => {
    const { owner, environment } = await setup();
    const response = await t.call('POST', `/api/accounts/${environment.id}/permissions`, {
      token: owner.token,
      body,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(message);
  });

  it('refuses roles of other organizations, unknown roles, owner-type roles and duplicates', async () => {
    const { owner, org, environment, developers } = await setup();
    const url = `/api/accounts/${environment.id}/permissions`;
    const otherOrg = await t.createOrganization(owner, 'Other Org');
    const [foreignRole] = await t.db
      .select()
      .from(roles)
      .where(and(eq(roles.organizationId, otherOrg.id), eq(roles.type, 'owner')));
    for (const role of [foreignRole?.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await t.call('POST', url, { token: owner.token, body: { role, scope: 'read' } });
      expect(response.statusCode).toBe(422);
      expect(response.json().message).toBe('Role not found in this organization');
    }
    const ownRoles = await t.db.select().from(roles).where(eq(roles.organizationId, org.id));
    for (const [type, label] of [
      ['owner', 'Account Owner'],
      ['platform_owner', 'Deploy Owner'],
      ['billing_owner', 'Billing Only Owner'],
    ]) {
      const role = ownRoles.find((r) => r.type === type);
      const response = await t.call('POST', url, {
        token: owner.token,
        body: { role: role?.id, scope: 'read' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().message).toBe(`${label} roles cannot be given per-environment permissions`);
    }
    const body = { role: developers.id, scope: 'destroy' };
    expect((await t.call('POST', url, { token: owner.token, body })).statusCode).toBe(201);
    const again = await t.call('POST', url, { token: owner.token, body });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('This role already has the "destroy" permission on this environment');
  });
});

describe('DELETE /permissions/:id', () => {
  async function withPermission() {
    const context = await setup();
    const created = await t.call('POST', `/api/accounts/${context.environment.id}/permissions`, {
      token: context.owner.token,
      body: { role: context.developers.id, scope: 'deploy' },
    });
    return { ...context, permissionId: created.json().id as string };
  }

  it('removes the permission, which takes the access away', async () => {
    const { owner, environment, developers, permissionId } = await withPermission();
    const member = await t.signUp();
    await t.db.insert(memberships).values({ userId: member.id, roleId: developers.id });
    expect((await t.call('GET', `/api/accounts/${environment.id}`, { token: member.token })).statusCode).toBe(
      200,
    );
    const response = await t.call('DELETE', `/api/permissions/${permissionId}`, { token: owner.token });
    expect(response.statusCode).toBe(204);
    expect((await t.call('GET', `/api/accounts/${environment.id}`, { token: member.token })).statusCode).toBe(
      404,
    );
    const account = (await t.call('GET', `/api/accounts/${environment.id}`, { token: owner.token })).json();
    expect(account._embedded.permissions).toEqual([]);
    expect(
      (await t.call('DELETE', `/api/permissions/${permissionId}`, { token: owner.token })).statusCode,
    ).toBe(404);
  });

  it('lets the role admin remove it and refuses other members with 403', async () => {
    const { developers, permissionId } = await withPermission();
    const member = await t.signUp();
    await t.db.insert(memberships).values({ userId: member.id, roleId: developers.id });
    const denied = await t.call('DELETE', `/api/permissions/${permissionId}`, { token: member.token });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('You are not an owner or role admin.');
    await makeRoleAdmin(member.id, developers.id);
    expect(
      (await t.call('DELETE', `/api/permissions/${permissionId}`, { token: member.token })).statusCode,
    ).toBe(204);
  });

  it('401 without a token, 404 for another organization and for unknown ids', async () => {
    const { owner, permissionId } = await withPermission();
    const stranger = await t.signUp();
    expect((await t.call('DELETE', `/api/permissions/${permissionId}`)).statusCode).toBe(401);
    expect(
      (await t.call('DELETE', `/api/permissions/${permissionId}`, { token: stranger.token })).statusCode,
    ).toBe(404);
    expect((await t.call('DELETE', '/api/permissions/999999', { token: owner.token })).statusCode).toBe(404);
    expect((await t.call('DELETE', '/api/permissions/abc', { token: owner.token })).statusCode).toBe(404);
  });
});
