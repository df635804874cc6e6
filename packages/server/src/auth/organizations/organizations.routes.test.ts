import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '../../db/schema.ts';
import { addMember } from '../../testing/factories.ts';
import { type TestApp, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

describe('POST /organizations', () => {
  it('creates the organization with its default roles, the creator an Account Owner', async () => {
    const user = await t.signUp();
    const response = await t.call('POST', '/auth/organizations', {
      token: user.token,
      body: { name: 'Acme Corp' },
    });
    expect(response.statusCode).toBe(201);
    const org = response.json();
    expect(org).toMatchObject({ _type: 'organization', name: 'Acme Corp', sso_enforced: false });
    expect(typeof org.id).toBe('string');
    const roles = (await t.call('GET', `/auth/organizations/${org.id}/roles`, { token: user.token })).json()
      ._embedded.roles;
    expect(roles.map((r: { name: string; type: string }) => [r.name, r.type])).toEqual([
      ['Account Owners', 'owner'],
      ['Deploy Owners', 'platform_owner'],
      ['Billing Owners', 'billing_owner'],
    ]);
    const memberships = (
      await t.call('GET', `/auth/organizations/${org.id}/roles/memberships`, { token: user.token })
    ).json();
    const ownerRole = roles[0];
    expect(Array.isArray(memberships._embedded)).toBe(false);
    expect(memberships._embedded[ownerRole.id].memberships).toMatchObject([
      {
        _type: 'membership',
        privileged: true,
        _links: { user: { href: `http://berth.test/auth/users/${user.id}` } },
      },
    ]);
    const me = (await t.call('GET', `/auth/users/${user.id}`, { token: user.token })).json();
    expect(me._links.selected_organization.href).toBe(`http://berth.test/auth/organizations/${org.id}`);
  });

  it('refuses a blank name with the spec message', async () => {
    const user = await t.signUp();
    const response = await t.call('POST', '/auth/organizations', { token: user.token, body: { name: '  ' } });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('Name must not be empty');
  });

  it('needs a token', async () => {
    expect((await t.call('POST', '/auth/organizations', { body: { name: 'X' } })).statusCode).toBe(401);
  });

  it('makes each new organization the creator’s selected one (issue 15)', async () => {
    const user = await t.signUp();
    const first = await t.createOrganization(user, 'First');
    const second = await t.createOrganization(user, 'Second');
    const selected = async () =>
      (await t.call('GET', `/auth/users/${user.id}`, { token: user.token })).json()._links
        .selected_organization.href;
    expect(await selected()).toBe(`http://berth.test/auth/organizations/${second.id}`);
    // Switching back still works, and another creation moves the selection again.
    await t.call('PUT', `/auth/users/${user.id}`, {
      token: user.token,
      body: { selected_organization_id: first.id },
    });
    expect(await selected()).toBe(`http://berth.test/auth/organizations/${first.id}`);
    const third = await t.createOrganization(user, 'Third');
    expect(await selected()).toBe(`http://berth.test/auth/organizations/${third.id}`);
  });

  it('leaves another user’s selected organization alone', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner, 'Shared');
    const member = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: member.id });
    await t.call('PUT', `/auth/users/${member.id}`, {
      token: member.token,
      body: { selected_organization_id: org.id },
    });
    await t.createOrganization(owner, 'Owner only');
    const me = (await t.call('GET', `/auth/users/${member.id}`, { token: member.token })).json();
    expect(me._links.selected_organization.href).toBe(`http://berth.test/auth/organizations/${org.id}`);
  });
});

describe('GET /organizations', () => {
  it('lists only the caller’s organizations, most recently updated first', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    const first = await t.createOrganization(user, 'First');
    const second = await t.createOrganization(user, 'Second');
    await t.createOrganization(other, 'Not mine');
    const list = (await t.call('GET', '/auth/organizations', { token: user.token })).json();
    expect(list._embedded.organizations.map((o: { id: string }) => o.id)).toEqual([second.id, first.id]);
    expect(list.total_count).toBe(2);
    expect((await t.call('GET', '/auth/organizations')).statusCode).toBe(401);
  });
});

describe('PATCH /organizations/:id', () => {
  it('lets the Account Owner update contacts, validating the alert emails', async () => {
    const user = await t.signUp();
    const org = await t.createOrganization(user);
    const ok = await t.call('PATCH', `/auth/organizations/${org.id}`, {
      token: user.token,
      body: { name: 'Renamed', city: 'Paris', security_alert_email: 'sec@example.com', ops_alert_email: '' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      name: 'Renamed',
      city: 'Paris',
      security_alert_email: 'sec@example.com',
    });
    const bad = await t.call('PATCH', `/auth/organizations/${org.id}`, {
      token: user.token,
      body: { ops_alert_email: 'nope' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe('Must provide valid email');
    const blank = await t.call('PATCH', `/auth/organizations/${org.id}`, {
      token: user.token,
      body: { name: '' },
    });
    expect(blank.json().message).toBe('Name must not be empty');
  });

  it('refuses enforcing SSO before it is configured', async () => {
    const user = await t.signUp();
    const org = await t.createOrganization(user);
    const response = await t.call('PATCH', `/auth/organizations/${org.id}`, {
      token: user.token,
      body: { sso_enforced: true },
    });
    expect(response.statusCode).toBe(422);
  });

  it('is 404 for another organization and 403 for a member who is not the Account Owner', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const stranger = await t.signUp();
    const org = await t.createOrganization(owner);
    await addMember(t.db, { organizationId: org.id, userId: member.id, roleType: 'platform_owner' });
    const body = { name: 'Hijacked' };
    expect(
      (await t.call('PATCH', `/auth/organizations/${org.id}`, { token: stranger.token, body })).statusCode,
    ).toBe(404);
    const forbidden = await t.call('PATCH', `/auth/organizations/${org.id}`, { token: member.token, body });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().message).toBe('Only an Account Owner can change organization settings');
    expect((await t.call('PATCH', `/auth/organizations/${org.id}`, { body })).statusCode).toBe(401);
  });
});

describe('organization members, roles and reauthentication', () => {
  it('lists members with full users; other organizations are 404', async () => {
    const owner = await t.signUp({ name: 'Owner Person' });
    const member = await t.signUp({ name: 'Member Person' });
    const stranger = await t.signUp();
    const org = await t.createOrganization(owner);
    await addMember(t.db, { organizationId: org.id, userId: member.id });
    const users = (
      await t.call('GET', `/auth/organizations/${org.id}/users`, { token: member.token })
    ).json();
    expect(users._embedded.users.map((u: { name: string }) => u.name)).toEqual([
      'Member Person',
      'Owner Person',
    ]);
    for (const path of ['users', 'roles', 'roles/memberships']) {
      const url = `/auth/organizations/${org.id}/${path}`;
      expect((await t.call('GET', url, { token: stranger.token })).statusCode).toBe(404);
      expect((await t.call('GET', url)).statusCode).toBe(401);
    }
  });

  it('lists SSO-enforcing organizations that need the member to sign in again, but not for owners', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const org = await t.createOrganization(owner);
    await addMember(t.db, { organizationId: org.id, userId: member.id });
    await t.db.update(organizations).set({ ssoEnforced: true }).where(eq(organizations.id, org.id));
    const forMember = (
      await t.call('GET', '/auth/reauthenticate_organizations', { token: member.token })
    ).json();
    expect(forMember._embedded.organizations).toMatchObject([{ id: org.id, reauth_required: true }]);
    const forOwner = (
      await t.call('GET', '/auth/reauthenticate_organizations', { token: owner.token })
    ).json();
    expect(forOwner._embedded.organizations).toEqual([]);
  });
});
