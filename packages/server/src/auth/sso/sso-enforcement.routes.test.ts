import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '../../db/schema.ts';
import { addMember, grant } from '../../testing/factories.ts';
import { configureSaml, enforceSso, ssoToken } from '../../testing/sso-sessions.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

/**
 * An organization enforcing SSO with an environment, its Account Owner, and a member who may read the
 * environment (all signed in with passwords).
 */
async function enforcedOrganization(name = 'Enforcers') {
  const owner = await t.signUp();
  const org = await t.createOrganization(owner, name);
  const environment = await t.createEnvironment(
    owner,
    org.id,
    `env-${Math.random().toString(36).slice(2, 8)}`,
  );
  const member = await t.signUp();
  const role = await addMember(t.db, { organizationId: org.id, userId: member.id });
  await grant(t.db, { roleId: role.id, environmentId: environment.id, scope: 'read' });
  await enforceSso(t, owner, org.id);
  return { owner, org, environment, member, role };
}

/** The organization-scoped calls of a member: each must be refused while SSO stops their token. */
function organizationCalls(orgId: string, environmentId: string, roleId: string) {
  return [
    `/api/accounts/${environmentId}`,
    `/api/organizations/${orgId}/operations`,
    `/auth/organizations/${orgId}/roles`,
    `/auth/organizations/${orgId}/users`,
    `/auth/organizations/${orgId}/roles/memberships`,
    `/auth/roles/${roleId}`,
    `/auth/roles/${roleId}/users`,
    `/auth/roles/${roleId}/memberships`,
  ];
}

async function statusesOf(token: string, urls: string[]) {
  return Promise.all(urls.map(async (url) => (await t.call('GET', url, { token })).statusCode));
}

describe('SSO enforcement', () => {
  it('refuses a member’s password token on the organization’s resources with 403 "requires SSO"', async () => {
    const { org, environment, member, role } = await enforcedOrganization('Jacquard');
    const refused = await t.call('GET', `/api/accounts/${environment.id}`, { token: member.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      error: 'sso_required',
      message: 'Organization Jacquard requires SSO!',
    });
    const calls = organizationCalls(org.id, environment.id, role.id);
    expect(await statusesOf(member.token, calls)).toEqual(calls.map(() => 403));
    // Writes too, and the organization's lists leave it out rather than fail.
    const rename = await t.call('PUT', `/auth/roles/${role.id}`, {
      token: member.token,
      body: { name: 'X' },
    });
    expect(rename.statusCode).toBe(403);
    const environments = (await t.call('GET', '/api/accounts', { token: member.token })).json();
    expect(environments._embedded.accounts).toEqual([]);
  });

  it('lets the same member in with an SSO token of that organization', async () => {
    const { org, environment, member, role } = await enforcedOrganization();
    const token = await ssoToken(t, member, org.id);
    const calls = organizationCalls(org.id, environment.id, role.id);
    expect(await statusesOf(token, calls)).toEqual(calls.map(() => 200));
  });

  it('exempts the Account Owner, not a Deploy Owner', async () => {
    const { owner, org, environment } = await enforcedOrganization();
    expect((await t.call('GET', `/api/accounts/${environment.id}`, { token: owner.token })).statusCode).toBe(
      200,
    );
    const deployOwner = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: deployOwner.id, roleType: 'platform_owner' });
    const refused = await t.call('GET', `/api/accounts/${environment.id}`, { token: deployOwner.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('sso_required');
  });

  it('exempts a member on the bypass list, until the owner takes them off it', async () => {
    const { owner, org, environment, member } = await enforcedOrganization();
    const added = await t.call('POST', `/auth/organizations/${org.id}/whitelist_memberships`, {
      token: owner.token,
      body: { user_id: member.id },
    });
    expect(added.statusCode).toBe(201);
    expect((await t.call('GET', `/api/accounts/${environment.id}`, { token: member.token })).statusCode).toBe(
      200,
    );
    await t.call('DELETE', `/auth/whitelist_memberships/${added.json().id}`, { token: owner.token });
    expect((await t.call('GET', `/api/accounts/${environment.id}`, { token: member.token })).statusCode).toBe(
      403,
    );
  });

  it('leaves the member’s own account and their other organizations alone', async () => {
    const { member } = await enforcedOrganization();
    const otherOwner = await t.signUp();
    const other = await t.createOrganization(otherOwner, 'Open');
    await addMember(t.db, { organizationId: other.id, userId: member.id });
    expect((await t.call('GET', `/auth/users/${member.id}`, { token: member.token })).statusCode).toBe(200);
    expect((await t.call('GET', `/auth/users/${member.id}/roles`, { token: member.token })).statusCode).toBe(
      200,
    );
    expect(
      (await t.call('GET', `/auth/organizations/${other.id}/roles`, { token: member.token })).statusCode,
    ).toBe(200);
  });

  it('stops a member as soon as enforcement is turned on, and lets them back when it is off', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner, 'Switch');
    const environment = await t.createEnvironment(owner, org.id, 'switch');
    const member = await t.signUp();
    const role = await addMember(t.db, { organizationId: org.id, userId: member.id });
    await grant(t.db, { roleId: role.id, environmentId: environment.id, scope: 'read' });
    const read = async () =>
      (await t.call('GET', `/api/accounts/${environment.id}`, { token: member.token })).statusCode;
    expect(await read()).toBe(200);
    await enforceSso(t, owner, org.id);
    expect(await read()).toBe(403);
    const off = await t.call('PATCH', `/auth/organizations/${org.id}`, {
      token: owner.token,
      body: { sso_enforced: false },
    });
    expect(off.json()).toMatchObject({ sso_enforced: false });
    expect(await read()).toBe(200);
  });

  it('keeps an SSO token to its own organization', async () => {
    const owner = await t.signUp();
    const first = await t.createOrganization(owner, 'First');
    const second = await t.createOrganization(owner, 'Second');
    const token = await ssoToken(t, owner, first.id);
    expect((await t.call('GET', `/auth/organizations/${first.id}/roles`, { token })).statusCode).toBe(200);
    const refused = await t.call('GET', `/auth/organizations/${second.id}/roles`, { token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      error: 'reauthentication_required',
      message: "This session signed in through another organization's SSO. Log in again to use Second.",
    });
  });

  it('answers 404, not 403, for an organization the caller does not belong to', async () => {
    const { org } = await enforcedOrganization();
    const stranger = await t.signUp();
    expect(
      (await t.call('GET', `/auth/organizations/${org.id}/roles`, { token: stranger.token })).statusCode,
    ).toBe(404);
  });
});

describe('GET /organizations and /reauthenticate_organizations', () => {
  async function listed(user: TestUser | string, path: string) {
    const token = typeof user === 'string' ? user : user.token;
    const response = await t.call('GET', `/auth${path}`, { token });
    expect(response.statusCode).toBe(200);
    return response.json()._embedded.organizations as { id: string; reauth_required: boolean }[];
  }

  it('flags the organizations this token may not use, and lists only those for reauthentication', async () => {
    const { owner, org, member } = await enforcedOrganization('Needs SSO');
    const open = await t.createOrganization(owner, 'Open');
    await addMember(t.db, { organizationId: open.id, userId: member.id });

    const forMember = await listed(member, '/organizations');
    expect(Object.fromEntries(forMember.map((o) => [o.id, o.reauth_required]))).toEqual({
      [org.id]: true,
      [open.id]: false,
    });
    expect(await listed(member, '/reauthenticate_organizations')).toMatchObject([
      { id: org.id, reauth_required: true, sso_enforced: true },
    ]);
    // The owner is exempt; an SSO token of the enforcing organization needs the other one again.
    expect(await listed(owner, '/reauthenticate_organizations')).toEqual([]);
    const sso = await ssoToken(t, member, org.id);
    expect((await listed(sso, '/reauthenticate_organizations')).map((o) => o.id)).toEqual([open.id]);
    expect((await listed(sso, '/organizations')).find((o) => o.id === org.id)?.reauth_required).toBe(false);
  });

  it('needs a token', async () => {
    expect((await t.call('GET', '/auth/reauthenticate_organizations')).statusCode).toBe(401);
  });
});

describe('PATCH /organizations/:id sso_enforced', () => {
  it('refuses enforcement before SSO is configured, with a clear message', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner);
    const refused = await t.call('PATCH', `/auth/organizations/${org.id}`, {
      token: owner.token,
      body: { sso_enforced: true },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('Configure Single Sign-On before enforcing it');
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, org.id));
    expect(row?.ssoEnforced).toBe(false);
  });

  it('lets the Account Owner enforce SSO once it is configured', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner);
    await configureSaml(t, owner, org.id);
    const enforced = await t.call('PATCH', `/auth/organizations/${org.id}`, {
      token: owner.token,
      body: { sso_enforced: true },
    });
    expect(enforced.statusCode).toBe(200);
    expect(enforced.json()).toMatchObject({ id: org.id, sso_enforced: true, reauth_required: false });
  });

  it('is the Account Owner’s alone: 401 without a token, 404 for a stranger, 403 for a Deploy Owner', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner);
    await configureSaml(t, owner, org.id);
    const body = { sso_enforced: true };
    expect((await t.call('PATCH', `/auth/organizations/${org.id}`, { body })).statusCode).toBe(401);
    const stranger = await t.signUp();
    expect(
      (await t.call('PATCH', `/auth/organizations/${org.id}`, { token: stranger.token, body })).statusCode,
    ).toBe(404);
    const deployOwner = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: deployOwner.id, roleType: 'platform_owner' });
    expect(
      (await t.call('PATCH', `/auth/organizations/${org.id}`, { token: deployOwner.token, body })).statusCode,
    ).toBe(403);
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, org.id));
    expect(row?.ssoEnforced).toBe(false);
  });

  it('refuses a removal of the configuration while enforced (the SAML side’s rule holds)', async () => {
    const { owner } = await enforcedOrganization();
    const list = (await t.call('GET', '/auth/saml_configurations', { token: owner.token })).json();
    const configuration = list._embedded.saml_configurations[0];
    const refused = await t.call('DELETE', `/auth/saml_configurations/${configuration.id}`, {
      token: owner.token,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('SSO must not be enforced to be removed');
  });
});
