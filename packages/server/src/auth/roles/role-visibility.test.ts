import { permissionSchemaMessages } from '@berth/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships } from '../../db/schema.ts';
import { addMember } from '../../testing/factories.ts';
import { TEST_PUBLIC_URL, type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';

// spec 1 §6: a platform owner (Deploy Owner) "cannot see the owner and billing_owner roles". Hidden means
// as absent as another organization's row: left out of every list, 404 by id, and their members' emails
// nowhere in an answer.

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

interface Role {
  id: string;
  name: string;
  type: string;
}

const userUrl = (user: TestUser) => `${TEST_PUBLIC_URL}/auth/users/${user.id}`;

/**
 * An organization with its three default roles and a Developers role: an Account Owner, a Billing Owner
 * and a Deploy Owner (each in the default role of that type) and a developer.
 */
async function organization() {
  const owner = await t.signUp({ name: 'Olive Owner' });
  const org = await t.createOrganization(owner);
  const roles: Role[] = (
    await t.call('GET', `/auth/organizations/${org.id}/roles`, { token: owner.token })
  ).json()._embedded.roles;
  const roleOf = (type: string) => {
    const role = roles.find((r) => r.type === type);
    if (!role) throw new Error(`no ${type} role`);
    return role;
  };
  const join = async (user: TestUser, role: Role) => {
    const [row] = await t.db.insert(memberships).values({ userId: user.id, roleId: role.id }).returning();
    if (!row) throw new Error('membership insert failed');
    return row;
  };
  const billing = await t.signUp({ name: 'Bill Payer' });
  const billingMembership = await join(billing, roleOf('billing_owner'));
  const deployOwner = await t.signUp({ name: 'Dee Ployer' });
  await join(deployOwner, roleOf('platform_owner'));
  const developer = await t.signUp({ name: 'Dev Eloper' });
  const developers = await addMember(t.db, {
    organizationId: org.id,
    userId: developer.id,
    name: 'Developers',
  });
  const [ownerMembership] = (
    await t.call('GET', `/auth/roles/${roleOf('owner').id}/memberships`, { token: owner.token })
  ).json()._embedded.memberships as { id: string }[];
  if (!ownerMembership) throw new Error('no owner membership');
  return {
    owner,
    org,
    billing,
    deployOwner,
    developer,
    developers,
    ownerRole: roleOf('owner'),
    billingRole: roleOf('billing_owner'),
    deployRole: roleOf('platform_owner'),
    ownerMembership,
    billingMembership,
    join,
  };
}

const get = (user: TestUser, url: string) => t.call('GET', url, { token: user.token });
const roleNames = async (user: TestUser, organizationId: string) =>
  ((await get(user, `/auth/organizations/${organizationId}/roles`)).json()._embedded.roles as Role[])
    .map((role) => role.name)
    .sort();

describe('what a Deploy Owner sees of the owner and billing roles (spec 1 §6)', () => {
  it('leaves them out of the roles list, which an Account Owner sees whole', async () => {
    const w = await organization();
    expect(await roleNames(w.deployOwner, w.org.id)).toEqual(['Deploy Owners', 'Developers']);
    expect(await roleNames(w.owner, w.org.id)).toEqual([
      'Account Owners',
      'Billing Owners',
      'Deploy Owners',
      'Developers',
    ]);
  });

  it('answers 404 for them and for their members and memberships, as for another organization’s', async () => {
    const w = await organization();
    for (const role of [w.ownerRole, w.billingRole]) {
      for (const path of [
        `/auth/roles/${role.id}`,
        `/auth/roles/${role.id}/users`,
        `/auth/roles/${role.id}/memberships`,
      ]) {
        const hidden = await get(w.deployOwner, path);
        expect(hidden.statusCode, path).toBe(404);
        expect(hidden.json().message, path).toBe('Role not found');
        expect((await get(w.owner, path)).statusCode, path).toBe(200);
      }
    }
    const users = await get(w.owner, `/auth/roles/${w.ownerRole.id}/users`);
    expect(users.json()._embedded.users.map((u: { email: string }) => u.email)).toEqual([w.owner.email]);
  });

  it('lists neither them in the memberships map nor their holders among the members', async () => {
    const w = await organization();
    const map = (await get(w.deployOwner, `/auth/organizations/${w.org.id}/roles/memberships`)).json();
    expect(Object.keys(map._embedded).sort()).toEqual([w.deployRole.id, w.developers.id].sort());
    const whole = (await get(w.owner, `/auth/organizations/${w.org.id}/roles/memberships`)).json();
    expect(Object.keys(whole._embedded)).toHaveLength(4);

    const members = (await get(w.deployOwner, `/auth/organizations/${w.org.id}/users`)).json()._embedded
      .users;
    expect(members.map((u: { email: string }) => u.email).sort()).toEqual(
      [w.deployOwner.email, w.developer.email].sort(),
    );
    const everyone = (await get(w.owner, `/auth/organizations/${w.org.id}/users`)).json()._embedded.users;
    expect(everyone).toHaveLength(4);
  });

  it('shows a holder who also holds a role it sees, by that role only', async () => {
    const w = await organization();
    await w.join(w.owner, w.developers);
    const members = (await get(w.deployOwner, `/auth/organizations/${w.org.id}/users`)).json()._embedded
      .users;
    expect(members.map((u: { email: string }) => u.email)).toContain(w.owner.email);
    const roles = (await get(w.deployOwner, `/auth/users/${w.owner.id}/roles`)).json()._embedded.roles;
    expect(roles.map((r: Role) => r.name)).toEqual(['Developers']);
  });

  it('never answers the Account Owner’s or the Billing Owner’s email, on any read', async () => {
    const w = await organization();
    // A pending invitation into each hidden role, by the Account Owner.
    for (const role of [w.ownerRole, w.billingRole]) {
      const invited = await t.call('POST', `/auth/roles/${role.id}/invitations`, {
        token: w.owner.token,
        body: { email: `next-${role.type}@example.com`, origin: 'app' },
      });
      expect(invited.statusCode).toBe(201);
    }
    const reads = [
      '/auth/organizations',
      `/auth/organizations/${w.org.id}/roles`,
      `/auth/organizations/${w.org.id}/users`,
      `/auth/organizations/${w.org.id}/roles/memberships`,
      `/auth/organizations/${w.org.id}/invitations`,
      `/auth/users/${w.deployOwner.id}`,
      `/auth/users/${w.deployOwner.id}/roles`,
      `/auth/users/${w.developer.id}/roles`,
      `/auth/roles/${w.deployRole.id}/users`,
      `/auth/roles/${w.deployRole.id}/memberships`,
      `/auth/roles/${w.developers.id}/users`,
      `/auth/roles/${w.developers.id}/memberships`,
    ];
    for (const path of reads) {
      const response = await get(w.deployOwner, path);
      expect(response.statusCode, path).toBe(200);
      for (const secret of [w.owner.email, w.billing.email, 'next-owner@example.com', 'next-billing_owner']) {
        expect(response.body, `${path} names ${secret}`).not.toContain(secret);
      }
    }
    // Their roles and their membership of the organization are as unknown as a stranger's.
    for (const user of [w.owner, w.billing]) {
      const roles = await get(w.deployOwner, `/auth/users/${user.id}/roles`);
      expect(roles.statusCode).toBe(404);
      expect(roles.json().message).toBe('User not found');
    }
  });

  it('answers 404 to every change aimed at them', async () => {
    const w = await organization();
    const token = w.deployOwner.token;
    const changes: [string, string, unknown][] = [
      ['PUT', `/auth/roles/${w.billingRole.id}`, { name: 'Payers' }],
      ['DELETE', `/auth/roles/${w.billingRole.id}`, undefined],
      ['POST', `/auth/roles/${w.ownerRole.id}/memberships`, { user_url: userUrl(w.deployOwner) }],
      ['POST', `/auth/roles/${w.billingRole.id}/invitations`, { email: 'me@example.com', origin: 'app' }],
      ['PATCH', `/auth/memberships/${w.ownerMembership.id}`, { privileged: false }],
      ['DELETE', `/auth/memberships/${w.billingMembership.id}`, undefined],
      ['DELETE', `/auth/organizations/${w.org.id}/users/${w.owner.id}`, undefined],
      ['DELETE', `/auth/organizations/${w.org.id}/users/${w.billing.id}`, undefined],
    ];
    for (const [method, path, body] of changes) {
      const response = await t.call(method as 'POST', path, { token, ...(body ? { body } : {}) });
      expect(response.statusCode, `${method} ${path}: ${response.body}`).toBe(404);
    }
    // Nothing changed: the Account Owner still sees both roles with their members.
    const billingUsers = (await get(w.owner, `/auth/roles/${w.billingRole.id}/users`)).json()._embedded.users;
    expect(billingUsers.map((u: { email: string }) => u.email)).toEqual([w.billing.email]);
    expect(await roleNames(w.owner, w.org.id)).toContain('Billing Owners');
  });

  it('adds no one it cannot see to a role it sees, and grants nothing on a role it cannot see', async () => {
    const w = await organization();
    const added = await t.call('POST', `/auth/roles/${w.developers.id}/memberships`, {
      token: w.deployOwner.token,
      body: { user_url: userUrl(w.owner) },
    });
    expect(added.statusCode).toBe(422);
    expect(added.json().message).toBe(
      'Only members of the organization can be added to a role; invite new people',
    );
    // The Account Owner may.
    const byOwner = await t.call('POST', `/auth/roles/${w.developers.id}/memberships`, {
      token: w.owner.token,
      body: { user_url: userUrl(w.billing) },
    });
    expect(byOwner.statusCode).toBe(201);

    const environment = await t.createEnvironment(w.owner, w.org.id, 'hidden-grants');
    const granted = await t.call('POST', `/api/accounts/${environment.id}/permissions`, {
      token: w.deployOwner.token,
      body: { role: w.ownerRole.id, scope: 'read' },
    });
    expect(granted.statusCode).toBe(422);
    expect(granted.json().message).toBe(permissionSchemaMessages.roleNotFound);
  });

  it('removes a member by the roles it sees: a holder of a hidden role answers as anyone else', async () => {
    const w = await organization();
    // The Billing Owner is a developer too; the developer is one only.
    await w.join(w.billing, w.developers);
    const remove = (user: TestUser) =>
      t.call('DELETE', `/auth/organizations/${w.org.id}/users/${user.id}`, { token: w.deployOwner.token });
    const plain = await remove(w.developer);
    const hiddenHolder = await remove(w.billing);
    expect(plain.statusCode).toBe(204);
    // The same answer: nothing tells the Deploy Owner that this member holds the billing role.
    expect(hiddenHolder.statusCode).toBe(204);
    expect(hiddenHolder.body).toBe(plain.body);
    // The role it could not see stays with its holder; the one it saw went.
    const billingUsers = (await get(w.owner, `/auth/roles/${w.billingRole.id}/users`)).json()._embedded.users;
    expect(billingUsers.map((u: { email: string }) => u.email)).toEqual([w.billing.email]);
    const developers = (await get(w.owner, `/auth/roles/${w.developers.id}/users`)).json()._embedded.users;
    expect(developers).toEqual([]);
  });

  it('a Deploy Owner who also holds the billing role sees it and its members, never the owner role', async () => {
    const w = await organization();
    await w.join(w.deployOwner, w.billingRole);
    expect(await roleNames(w.deployOwner, w.org.id)).toEqual([
      'Billing Owners',
      'Deploy Owners',
      'Developers',
    ]);
    const billingUsers = await get(w.deployOwner, `/auth/roles/${w.billingRole.id}/users`);
    expect(billingUsers.statusCode).toBe(200);
    expect(
      billingUsers
        .json()
        ._embedded.users.map((u: { email: string }) => u.email)
        .sort(),
    ).toEqual([w.billing.email, w.deployOwner.email].sort());
    expect((await get(w.deployOwner, `/auth/roles/${w.ownerRole.id}`)).statusCode).toBe(404);
    const own = (await get(w.deployOwner, `/auth/users/${w.deployOwner.id}/roles`)).json()._embedded.roles;
    expect(own.map((r: Role) => r.name).sort()).toEqual(['Billing Owners', 'Deploy Owners']);
  });

  it('hides nothing from those the spec does not name: a developer still reads the owner role', async () => {
    const w = await organization();
    expect((await get(w.developer, `/auth/roles/${w.ownerRole.id}`)).statusCode).toBe(200);
    expect(await roleNames(w.developer, w.org.id)).toHaveLength(4);
  });
});
