import { permissionMessages, scimConfigurationMessages, scimMessages } from '@berth/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../../db/schema.ts';
import { addMember } from '../../testing/factories.ts';
import { scimClient, setUpProvisioning, USER_SCHEMA } from '../../testing/scim.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';

// contract §5.4 scim_configurations, spec 1 §5 ('must select Default Role') and §6 (the Account Owner with
// a single assigned organization).

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

/** An owner with one organization and a role in it, before provisioning is set up. */
async function ownerWithRole() {
  const owner = await t.signUp({ name: 'Olive Owner' });
  const organization = await t.createOrganization(owner, 'Initech');
  const role = (
    await t.call('POST', `/auth/organizations/${organization.id}/roles`, {
      token: owner.token,
      body: { name: 'Developers', type: 'platform_user' },
    })
  ).json() as { id: string };
  return { owner, organization, role };
}

const createBody = (organizationId: string, defaultRoleId: unknown) => ({
  scim_configuration: {
    organization_id: organizationId,
    default_role_id: defaultRoleId,
    unique_identifier: 'email',
  },
});

async function generate(owner: TestUser, configurationId: string, token?: string) {
  return t.call('POST', '/auth/scim_configurations/generate_token', {
    token: token ?? (await t.elevate(owner)),
    body: { scim_configuration_id: configurationId, user_id: owner.id },
  });
}

describe('POST /scim_configurations', () => {
  it('sets provisioning up with its default role, for the Account Owner (the organization as a URL too)', async () => {
    const { owner, organization, role } = await ownerWithRole();
    const response = await t.call('POST', '/auth/scim_configurations', {
      token: owner.token,
      body: createBody(`http://berth.test/auth/organizations/${organization.id}`, role.id),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      _type: 'scim_configuration',
      organization_id: organization.id,
      default_role_id: role.id,
      token_id: '',
      unique_identifier: 'email',
      token_created_at: null,
      _links: { scim_base: { href: 'http://berth.test/scim/v2' } },
    });
    const again = await t.call('POST', '/auth/scim_configurations', {
      token: owner.token,
      body: createBody(organization.id, role.id),
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(scimConfigurationMessages.alreadyConfigured);
  });

  it('asks for a default role of the organization in the spec’s words (422)', async () => {
    const { owner, organization } = await ownerWithRole();
    const other = await ownerWithRole();
    for (const defaultRoleId of ['', '   ', other.role.id, 'not-a-role']) {
      const response = await t.call('POST', '/auth/scim_configurations', {
        token: owner.token,
        body: createBody(organization.id, defaultRoleId),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().message).toBe('must select Default Role');
    }
    const missing = await t.call('POST', '/auth/scim_configurations', {
      token: owner.token,
      body: { scim_configuration: { organization_id: organization.id } },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toBe(scimConfigurationMessages.defaultRoleRequired);
  });

  it('refuses a provisioned role as the default role', async () => {
    const { owner, organization, role } = await ownerWithRole();
    await t.db.update(roles).set({ scimCreated: true }).where(eq(roles.id, role.id));
    const response = await t.call('POST', '/auth/scim_configurations', {
      token: owner.token,
      body: createBody(organization.id, role.id),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(scimConfigurationMessages.defaultRoleManaged);
  });

  it('refuses the Account Owner role as the default role (provisioning would mint owners)', async () => {
    const { owner, organization } = await ownerWithRole();
    const [ownerRole] = await t.db
      .select()
      .from(roles)
      .where(and(eq(roles.organizationId, organization.id), eq(roles.type, 'owner')));
    if (!ownerRole) throw new Error('the organization has no owner role');
    const response = await t.call('POST', '/auth/scim_configurations', {
      token: owner.token,
      body: createBody(organization.id, ownerRole.id),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(scimConfigurationMessages.defaultRoleOwner);
    const provisioning = await setUpProvisioning(t);
    const [theirOwnerRole] = await t.db
      .select()
      .from(roles)
      .where(and(eq(roles.organizationId, provisioning.organizationId), eq(roles.type, 'owner')));
    const changed = await t.call('PATCH', `/auth/scim_configurations/${provisioning.configurationId}`, {
      token: provisioning.owner.token,
      body: { scim_configuration: { default_role_id: theirOwnerRole?.id } },
    });
    expect(changed.statusCode).toBe(422);
    expect(changed.json().message).toBe(scimConfigurationMessages.defaultRoleOwner);
  });

  it('is refused without a token (401), outside the organization (404), to others than its sole-organization Account Owner (403)', async () => {
    const { owner, organization, role } = await ownerWithRole();
    const body = createBody(organization.id, role.id);
    expect((await t.call('POST', '/auth/scim_configurations', { body })).statusCode).toBe(401);

    const stranger = await t.signUp();
    const outside = await t.call('POST', '/auth/scim_configurations', { token: stranger.token, body });
    expect(outside.statusCode).toBe(404);

    const deployOwner = await t.signUp();
    await addMember(t.db, {
      organizationId: organization.id,
      userId: deployOwner.id,
      roleType: 'platform_owner',
    });
    const notAccountOwner = await t.call('POST', '/auth/scim_configurations', {
      token: deployOwner.token,
      body,
    });
    expect(notAccountOwner.statusCode).toBe(403);
    expect(notAccountOwner.json().message).toBe(permissionMessages.ownerOnly);

    await t.createOrganization(owner, 'Second Org');
    const twoOrganizations = await t.call('POST', '/auth/scim_configurations', { token: owner.token, body });
    expect(twoOrganizations.statusCode).toBe(403);
    expect(twoOrganizations.json().message).toBe(scimConfigurationMessages.singleOrganization);
  });
});

describe('GET /scim_configurations', () => {
  it('lists the configuration to its Account Owner only', async () => {
    const provisioning = await setUpProvisioning(t);
    const list = await t.call('GET', '/auth/scim_configurations', { token: provisioning.owner.token });
    expect(list.statusCode).toBe(200);
    const [item] = list.json()._embedded.scim_configurations;
    expect(item).toMatchObject({
      id: provisioning.configurationId,
      organization_id: provisioning.organizationId,
    });
    expect(item.token_id).not.toBe('');
    // The token itself is never in a listing.
    expect(JSON.stringify(list.json())).not.toContain(provisioning.token);

    const member = await t.signUp();
    await addMember(t.db, { organizationId: provisioning.organizationId, userId: member.id });
    const theirs = await t.call('GET', '/auth/scim_configurations', { token: member.token });
    expect(theirs.json()._embedded.scim_configurations).toEqual([]);
    expect((await t.call('GET', '/auth/scim_configurations')).statusCode).toBe(401);
  });
});

describe('POST /scim_configurations/generate_token', () => {
  it('makes a token shown once that works on /scim/v2; a new one kills the old one at once', async () => {
    const provisioning = await setUpProvisioning(t);
    const first = scimClient(t, provisioning.token);
    expect((await first('GET', '/Users')).statusCode).toBe(200);

    const second = await generate(provisioning.owner, provisioning.configurationId);
    expect(second.statusCode).toBe(200);
    expect(second.headers['cache-control']).toBe('no-store');
    const { token } = second.json();
    expect(token).toMatch(/^berth_scim_[A-Za-z0-9_-]{43}$/);
    expect((await first('GET', '/Users')).statusCode).toBe(401);
    expect((await scimClient(t, token)('GET', '/Users')).statusCode).toBe(200);
    // Stored hashed: the secret is nowhere in the database's row.
    const list = await t.call('GET', '/auth/scim_configurations', { token: provisioning.owner.token });
    expect(list.json()._embedded.scim_configurations[0].token_created_at).not.toBeNull();
    const rows = await t.db.execute(`select token_hash from scim_configurations`);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('needs the password entered again (an elevated token), the caller’s own user id, and the owner', async () => {
    const provisioning = await setUpProvisioning(t);
    const plain = await generate(provisioning.owner, provisioning.configurationId, provisioning.owner.token);
    expect(plain.statusCode).toBe(403);
    const elevated = await t.elevate(provisioning.owner);
    const other = await t.call('POST', '/auth/scim_configurations/generate_token', {
      token: elevated,
      body: {
        scim_configuration_id: provisioning.configurationId,
        user_id: '00000000-0000-4000-8000-000000000000',
      },
    });
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toBe(scimConfigurationMessages.ownUserOnly);
    const missing = await t.call('POST', '/auth/scim_configurations/generate_token', {
      token: elevated,
      body: {},
    });
    expect(missing.statusCode).toBe(422);

    const stranger = await t.signUp();
    const outside = await t.call('POST', '/auth/scim_configurations/generate_token', {
      token: await t.elevate(stranger),
      body: { scim_configuration_id: provisioning.configurationId, user_id: stranger.id },
    });
    expect(outside.statusCode).toBe(404);
    expect((await scimClient(t, provisioning.token)('GET', '/Users')).statusCode).toBe(200);
  });
});

describe('PATCH and DELETE /scim_configurations/:id', () => {
  it('changes the default role; new users get it', async () => {
    const provisioning = await setUpProvisioning(t);
    const newer = (
      await t.call('POST', `/auth/organizations/${provisioning.organizationId}/roles`, {
        token: provisioning.owner.token,
        body: { name: 'Contractors', type: 'platform_user' },
      })
    ).json();
    const response = await t.call('PATCH', `/auth/scim_configurations/${provisioning.configurationId}`, {
      token: provisioning.owner.token,
      body: {
        scim_configuration: { organization_id: provisioning.organizationId, default_role_id: newer.id },
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().default_role_id).toBe(newer.id);
    const user = await scimClient(t, provisioning.token)('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: t.uniqueEmail('contractor'),
    });
    const holders = await t.call('GET', `/auth/roles/${newer.id}/users`, { token: provisioning.owner.token });
    expect(holders.json()._embedded.users.map((u: { id: string }) => u.id)).toEqual([user.json().id]);

    const bad = await t.call('PATCH', `/auth/scim_configurations/${provisioning.configurationId}`, {
      token: provisioning.owner.token,
      body: { scim_configuration: { default_role_id: '' } },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe('must select Default Role');
  });

  it('refuses others: 401, 404 outside (before the body is read), 403 to members', async () => {
    const provisioning = await setUpProvisioning(t);
    const url = `/auth/scim_configurations/${provisioning.configurationId}`;
    const body = { scim_configuration: { default_role_id: provisioning.defaultRoleId } };
    expect((await t.call('PATCH', url, { body })).statusCode).toBe(401);
    const stranger = await t.signUp();
    expect((await t.call('PATCH', url, { token: stranger.token, body: { nonsense: true } })).statusCode).toBe(
      404,
    );
    expect((await t.call('DELETE', url, { token: stranger.token })).statusCode).toBe(404);
    const member = await t.signUp();
    await addMember(t.db, { organizationId: provisioning.organizationId, userId: member.id });
    const patched = await t.call('PATCH', url, { token: member.token, body });
    expect(patched.statusCode).toBe(403);
    expect(patched.json().message).toBe(permissionMessages.ownerOnly);
    expect((await t.call('DELETE', url, { token: member.token })).statusCode).toBe(403);
    expect(
      (await t.call('PATCH', '/auth/scim_configurations/nope', { token: provisioning.owner.token, body }))
        .statusCode,
    ).toBe(404);
  });

  it('deleting it stops its token at once; what it provisioned stays', async () => {
    const provisioning = await setUpProvisioning(t);
    const scim = scimClient(t, provisioning.token);
    const made = (
      await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: t.uniqueEmail('kept') })
    ).json();
    const removed = await t.call('DELETE', `/auth/scim_configurations/${provisioning.configurationId}`, {
      token: provisioning.owner.token,
    });
    expect(removed.statusCode).toBe(204);
    expect((await scim('GET', '/Users')).statusCode).toBe(401);
    const members = await t.call('GET', `/auth/organizations/${provisioning.organizationId}/users`, {
      token: provisioning.owner.token,
    });
    expect(members.json()._embedded.users.map((u: { id: string }) => u.id)).toContain(made.id);
  });
});

describe('what provisioning locks elsewhere', () => {
  it('keeps the default role from being deleted', async () => {
    const provisioning = await setUpProvisioning(t);
    const response = await t.call('DELETE', `/auth/roles/${provisioning.defaultRoleId}`, {
      token: provisioning.owner.token,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(scimConfigurationMessages.defaultRoleInUse);
  });

  it('keeps a provisioned member’s name and address for the identity provider', async () => {
    const provisioning = await setUpProvisioning(t);
    const member = await t.signUp({ name: 'Mia Member' });
    await addMember(t.db, { organizationId: provisioning.organizationId, userId: member.id });
    await scimClient(t, provisioning.token)('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: member.email,
    });
    const renamed = await t.call('PATCH', `/auth/users/${member.id}`, {
      token: member.token,
      body: { type: 'name', name: 'Someone Else' },
    });
    expect(renamed.statusCode).toBe(422);
    expect(renamed.json().message).toBe(scimMessages.nameManaged);
    const moved = await t.call('POST', `/auth/users/${member.id}/email_verification_challenges`, {
      token: await t.elevate(member),
      body: { email: t.uniqueEmail('moved'), origin: 'app' },
    });
    expect(moved.statusCode).toBe(422);
    expect(moved.json().message).toBe(scimMessages.emailManaged);
  });
});
