import { memberMessages, permissionMessages, scimMessages } from '@berth/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles as rolesTable, users as usersTable } from '../../db/schema.ts';
import { addMember } from '../../testing/factories.ts';
import { TEST_PUBLIC_URL, type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

interface Team {
  owner: TestUser;
  org: { id: string };
  roles: { id: string; name: string; type: string }[];
}

async function team(): Promise<Team> {
  const owner = await t.signUp();
  const org = await t.createOrganization(owner);
  const roles = (await t.call('GET', `/auth/organizations/${org.id}/roles`, { token: owner.token })).json()
    ._embedded.roles;
  return { owner, org, roles };
}

/** A new member of the team's organization holding a Deploy Owner (platform_owner) role. */
async function deployOwnerOf(team: Team) {
  const deployOwner = await t.signUp();
  await addMember(t.db, {
    organizationId: team.org.id,
    userId: deployOwner.id,
    roleType: 'platform_owner',
    name: 'Deployers',
  });
  return deployOwner;
}

const roleOf = (team: Team, type: string) => {
  const role = team.roles.find((r) => r.type === type);
  if (!role) throw new Error(`no ${type} role`);
  return role;
};

async function createRole(owner: TestUser, organizationId: string, name = 'Developers') {
  const response = await t.call('POST', `/auth/organizations/${organizationId}/roles`, {
    token: owner.token,
    body: { name, type: 'platform_user' },
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; name: string };
}

const userUrl = (user: TestUser) => `${TEST_PUBLIC_URL}/auth/users/${user.id}`;

describe('POST /organizations/:id/roles', () => {
  it('creates a platform_user role for an owner', async () => {
    const { owner, org } = await team();
    const role = await createRole(owner, org.id, 'Readers');
    expect(role).toMatchObject({
      _type: 'role',
      name: 'Readers',
      type: 'platform_user',
      scim_created: false,
    });
    const fetched = await t.call('GET', `/auth/roles/${role.id}`, { token: owner.token });
    expect(fetched.json().name).toBe('Readers');
  });

  it('refuses a blank name, another type, a plain member, another organization and no token', async () => {
    const { owner, org } = await team();
    const blank = await t.call('POST', `/auth/organizations/${org.id}/roles`, {
      token: owner.token,
      body: { name: ' ' },
    });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().message).toBe('Name must not be empty');
    const ownerType = await t.call('POST', `/auth/organizations/${org.id}/roles`, {
      token: owner.token,
      body: { name: 'Sneaky', type: 'owner' },
    });
    expect(ownerType.statusCode).toBe(422);

    const member = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: member.id });
    const denied = await t.call('POST', `/auth/organizations/${org.id}/roles`, {
      token: member.token,
      body: { name: 'Mine' },
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(permissionMessages.roleManagement);

    const stranger = await t.signUp();
    const hidden = await t.call('POST', `/auth/organizations/${org.id}/roles`, {
      token: stranger.token,
      body: { name: 'Mine' },
    });
    expect(hidden.statusCode).toBe(404);
    expect(
      (await t.call('POST', `/auth/organizations/${org.id}/roles`, { body: { name: 'X' } })).statusCode,
    ).toBe(401);
  });
});

describe('PUT and DELETE /roles/:id', () => {
  it('renames and deletes a custom role', async () => {
    const { owner, org } = await team();
    const role = await createRole(owner, org.id);
    const renamed = await t.call('PUT', `/auth/roles/${role.id}`, {
      token: owner.token,
      body: { name: 'Ops' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('Ops');
    expect((await t.call('DELETE', `/auth/roles/${role.id}`, { token: owner.token })).statusCode).toBe(204);
    expect((await t.call('GET', `/auth/roles/${role.id}`, { token: owner.token })).statusCode).toBe(404);
  });

  it('never edits owner-type roles', async () => {
    const setup = await team();
    const ownerRole = roleOf(setup, 'owner');
    const rename = await t.call('PUT', `/auth/roles/${ownerRole.id}`, {
      token: setup.owner.token,
      body: { name: 'Bosses' },
    });
    expect(rename.statusCode).toBe(403);
    expect(rename.json().message).toBe(permissionMessages.ownerRoleLocked);
    expect(
      (await t.call('DELETE', `/auth/roles/${ownerRole.id}`, { token: setup.owner.token })).statusCode,
    ).toBe(403);
  });

  it('lets a role admin rename their role but not a plain member; strangers see 404', async () => {
    const { owner, org } = await team();
    const role = await createRole(owner, org.id);
    const admin = await t.signUp();
    const plain = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: admin.id, name: 'Elsewhere' });
    await addMember(t.db, { organizationId: org.id, userId: plain.id, name: 'Elsewhere too' });
    const adminMembership = (
      await t.call('POST', `/auth/roles/${role.id}/memberships`, {
        token: owner.token,
        body: { user_url: userUrl(admin) },
      })
    ).json();
    await t.call('PATCH', `/auth/memberships/${adminMembership.id}`, {
      token: owner.token,
      body: { privileged: true },
    });
    const byAdmin = await t.call('PUT', `/auth/roles/${role.id}`, {
      token: admin.token,
      body: { name: 'Team A' },
    });
    expect(byAdmin.statusCode).toBe(200);
    const byPlain = await t.call('PUT', `/auth/roles/${role.id}`, {
      token: plain.token,
      body: { name: 'Mine' },
    });
    expect(byPlain.statusCode).toBe(403);
    expect(byPlain.json().message).toBe(permissionMessages.roleManagement);
    const stranger = await t.signUp();
    expect(
      (await t.call('PUT', `/auth/roles/${role.id}`, { token: stranger.token, body: { name: 'X' } }))
        .statusCode,
    ).toBe(404);
  });
});

describe('memberships', () => {
  it('adds an organization member to a role, lists them, makes them admin and removes them', async () => {
    const { owner, org } = await team();
    const role = await createRole(owner, org.id);
    const member = await t.signUp({ name: 'Mia Member' });
    await addMember(t.db, { organizationId: org.id, userId: member.id, name: 'Elsewhere' });

    const added = await t.call('POST', `/auth/roles/${role.id}/memberships`, {
      token: owner.token,
      body: { user_url: userUrl(member) },
    });
    expect(added.statusCode).toBe(201);
    const membership = added.json();
    expect(membership).toMatchObject({ _type: 'membership', privileged: false });
    const again = await t.call('POST', `/auth/roles/${role.id}/memberships`, {
      token: owner.token,
      body: { user_url: userUrl(member) },
    });
    expect(again.statusCode).toBe(422);

    const listed = (
      await t.call('GET', `/auth/roles/${role.id}/memberships`, { token: member.token })
    ).json();
    expect(listed._embedded.memberships.map((m: { id: string }) => m.id)).toEqual([membership.id]);
    const usersOfRole = (await t.call('GET', `/auth/roles/${role.id}/users`, { token: owner.token })).json();
    expect(usersOfRole._embedded.users.map((u: { name: string }) => u.name)).toEqual(['Mia Member']);

    const patched = await t.call('PATCH', `/auth/memberships/${membership.id}`, {
      token: owner.token,
      body: { privileged: true },
    });
    expect(patched.json().privileged).toBe(true);
    expect(
      (await t.call('DELETE', `/auth/memberships/${membership.id}`, { token: owner.token })).statusCode,
    ).toBe(204);
  });

  it('refuses someone outside the organization (they come in by invitation)', async () => {
    const { owner, org } = await team();
    const role = await createRole(owner, org.id);
    const outsider = await t.signUp();
    const response = await t.call('POST', `/auth/roles/${role.id}/memberships`, {
      token: owner.token,
      body: { user_url: userUrl(outsider) },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(
      'Only members of the organization can be added to a role; invite new people',
    );
  });

  it('leaves the owner role to Account Owners and keeps the last one', async () => {
    const setup = await team();
    const deployOwner = await deployOwnerOf(setup);
    const ownerRole = roleOf(setup, 'owner');
    const denied = await t.call('POST', `/auth/roles/${ownerRole.id}/memberships`, {
      token: deployOwner.token,
      body: { user_url: userUrl(deployOwner) },
    });
    expect(denied.statusCode).toBe(403);

    const memberships = (
      await t.call('GET', `/auth/roles/${ownerRole.id}/memberships`, { token: setup.owner.token })
    ).json()._embedded.memberships;
    const last = await t.call('DELETE', `/auth/memberships/${memberships[0].id}`, {
      token: setup.owner.token,
    });
    expect(last.statusCode).toBe(422);
    expect(last.json().message).toBe('An organization needs at least one Account Owner');
    expect(
      (await t.call('GET', `/auth/roles/${ownerRole.id}/memberships`, { token: setup.owner.token })).json()
        ._embedded.memberships,
    ).toHaveLength(1);
  });

  it('hides memberships of other organizations and needs a token', async () => {
    const { owner, org } = await team();
    const role = await createRole(owner, org.id);
    const stranger = await t.signUp();
    expect(
      (await t.call('GET', `/auth/roles/${role.id}/memberships`, { token: stranger.token })).statusCode,
    ).toBe(404);
    expect((await t.call('GET', `/auth/roles/${role.id}/memberships`)).statusCode).toBe(401);
    const ownerMembership = (
      await t.call('GET', `/auth/organizations/${org.id}/roles/memberships`, { token: owner.token })
    ).json()._embedded;
    const [anyId] = Object.values(ownerMembership).flatMap((entry) =>
      (entry as { memberships: { id: string }[] }).memberships.map((m) => m.id),
    );
    expect(
      (
        await t.call('PATCH', `/auth/memberships/${anyId}`, {
          token: stranger.token,
          body: { privileged: true },
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('DELETE /organizations/:id/users/:userId', () => {
  it('removes a member from every role; not oneself; only owners', async () => {
    const { owner, org } = await team();
    const member = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: member.id });
    const byMember = await t.call('DELETE', `/auth/organizations/${org.id}/users/${owner.id}`, {
      token: member.token,
    });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().message).toBe(permissionMessages.ownerOnly);
    const self = await t.call('DELETE', `/auth/organizations/${org.id}/users/${owner.id}`, {
      token: owner.token,
    });
    expect(self.statusCode).toBe(422);
    expect(self.json().message).toBe(memberMessages.removeSelf);

    const removed = await t.call('DELETE', `/auth/organizations/${org.id}/users/${member.id}`, {
      token: owner.token,
    });
    expect(removed.statusCode).toBe(204);
    const members = (
      await t.call('GET', `/auth/organizations/${org.id}/users`, { token: owner.token })
    ).json()._embedded.users;
    expect(members.map((u: { id: string }) => u.id)).toEqual([owner.id]);
    expect(
      (await t.call('GET', `/auth/organizations/${org.id}/users`, { token: member.token })).statusCode,
    ).toBe(404);
    expect(
      (await t.call('DELETE', `/auth/organizations/${org.id}/users/${member.id}`, { token: owner.token }))
        .statusCode,
    ).toBe(404);
  });
});

describe('what role admins and Deploy Owners may not do', () => {
  async function roleAdminOf(setup: Team, roleId: string) {
    const admin = await t.signUp();
    await addMember(t.db, { organizationId: setup.org.id, userId: admin.id, name: `Base ${admin.id}` });
    const membership = (
      await t.call('POST', `/auth/roles/${roleId}/memberships`, {
        token: setup.owner.token,
        body: { user_url: userUrl(admin) },
      })
    ).json();
    await t.call('PATCH', `/auth/memberships/${membership.id}`, {
      token: setup.owner.token,
      body: { privileged: true },
    });
    return admin;
  }

  it('a role admin renames but never deletes their role, and touches no other role', async () => {
    const setup = await team();
    const mine = await createRole(setup.owner, setup.org.id, 'Mine');
    const other = await createRole(setup.owner, setup.org.id, 'Other');
    const admin = await roleAdminOf(setup, mine.id);
    const deleting = await t.call('DELETE', `/auth/roles/${mine.id}`, { token: admin.token });
    expect(deleting.statusCode).toBe(403);
    expect(deleting.json().message).toBe(permissionMessages.ownerOnly);

    const colleague = await t.signUp();
    await addMember(t.db, { organizationId: setup.org.id, userId: colleague.id, name: 'Colleagues' });
    const intoOther = await t.call('POST', `/auth/roles/${other.id}/memberships`, {
      token: admin.token,
      body: { user_url: userUrl(colleague) },
    });
    expect(intoOther.statusCode).toBe(403);
    expect(intoOther.json().message).toBe(permissionMessages.roleManagement);
    const othersMembership = (
      await t.call('POST', `/auth/roles/${other.id}/memberships`, {
        token: setup.owner.token,
        body: { user_url: userUrl(colleague) },
      })
    ).json();
    for (const [method, body] of [
      ['PATCH', { privileged: true }],
      ['DELETE', undefined],
    ] as const) {
      const response = await t.call(method, `/auth/memberships/${othersMembership.id}`, {
        token: admin.token,
        ...(body ? { body } : {}),
      });
      expect(response.statusCode).toBe(403);
    }
  });

  it('only an Account Owner manages the billing role', async () => {
    const setup = await team();
    const deployOwner = await deployOwnerOf(setup);
    const billing = roleOf(setup, 'billing_owner');
    const byDeployOwner = await t.call('POST', `/auth/roles/${billing.id}/memberships`, {
      token: deployOwner.token,
      body: { user_url: userUrl(deployOwner) },
    });
    expect(byDeployOwner.statusCode).toBe(403);
    const byAccountOwner = await t.call('POST', `/auth/roles/${billing.id}/memberships`, {
      token: setup.owner.token,
      body: { user_url: userUrl(deployOwner) },
    });
    expect(byAccountOwner.statusCode).toBe(201);
  });
});

describe('provisioned users and roles (spec 1 §6, §8)', () => {
  it('keeps provisioned users in and out of provisioned roles', async () => {
    const setup = await team();
    const role = await createRole(setup.owner, setup.org.id, 'Okta Engineers');
    await t.db.update(rolesTable).set({ scimCreated: true }).where(eq(rolesTable.id, role.id));
    const managed = await t.signUp();
    await addMember(t.db, { organizationId: setup.org.id, userId: managed.id, name: 'Base' });
    await t.db.update(usersTable).set({ externalId: 'okta-42' }).where(eq(usersTable.id, managed.id));

    const added = await t.call('POST', `/auth/roles/${role.id}/memberships`, {
      token: setup.owner.token,
      body: { user_url: userUrl(managed) },
    });
    expect(added.statusCode).toBe(422);
    expect(added.json().message).toBe(scimMessages.cannotAdd);

    await t.db.update(usersTable).set({ externalId: null }).where(eq(usersTable.id, managed.id));
    const membership = (
      await t.call('POST', `/auth/roles/${role.id}/memberships`, {
        token: setup.owner.token,
        body: { user_url: userUrl(managed) },
      })
    ).json();
    await t.db.update(usersTable).set({ externalId: 'okta-42' }).where(eq(usersTable.id, managed.id));
    const removed = await t.call('DELETE', `/auth/memberships/${membership.id}`, {
      token: setup.owner.token,
    });
    expect(removed.statusCode).toBe(422);
    expect(removed.json().message).toBe(scimMessages.cannotRemove);
    const fromOrganization = await t.call(
      'DELETE',
      `/auth/organizations/${setup.org.id}/users/${managed.id}`,
      {
        token: setup.owner.token,
      },
    );
    expect(fromOrganization.statusCode).toBe(422);
    expect(fromOrganization.json().message).toBe(memberMessages.removeProvisioned);
    const renamed = await t.call('PUT', `/auth/roles/${role.id}`, {
      token: setup.owner.token,
      body: { name: 'X' },
    });
    expect(renamed.statusCode).toBe(403);
  });

  it('refuses to edit a provisioned role in the words the console shows (core scimMessages.roleLocked)', async () => {
    const setup = await team();
    const role = await createRole(setup.owner, setup.org.id, 'Okta Admins');
    await t.db.update(rolesTable).set({ scimCreated: true }).where(eq(rolesTable.id, role.id));
    const renamed = await t.call('PUT', `/auth/roles/${role.id}`, {
      token: setup.owner.token,
      body: { name: 'Renamed' },
    });
    expect(renamed.statusCode).toBe(403);
    expect(renamed.json().message).toBe('This role is managed via provisioning and cannot be edited.');
    expect(renamed.json().message).toBe(scimMessages.roleLocked);
  });
});

describe('the last Account Owner', () => {
  it('stays when two Account Owners remove each other at the same moment', async () => {
    const setup = await team();
    const ownerRole = roleOf(setup, 'owner');
    const second = await t.signUp();
    await addMember(t.db, { organizationId: setup.org.id, userId: second.id, name: 'Base' });
    await t.call('POST', `/auth/roles/${ownerRole.id}/memberships`, {
      token: setup.owner.token,
      body: { user_url: userUrl(second) },
    });
    const [first, other] = await Promise.all([
      t.call('DELETE', `/auth/organizations/${setup.org.id}/users/${second.id}`, {
        token: setup.owner.token,
      }),
      t.call('DELETE', `/auth/organizations/${setup.org.id}/users/${setup.owner.id}`, {
        token: second.token,
      }),
    ]);
    const statuses = [first.statusCode, other.statusCode].sort();
    expect(statuses[0]).toBe(204);
    expect(statuses[1]).toBeGreaterThanOrEqual(400);
    const memberships = (
      await t.call('GET', `/auth/roles/${ownerRole.id}/memberships`, {
        token: first.statusCode === 204 ? setup.owner.token : second.token,
      })
    ).json()._embedded.memberships;
    expect(memberships).toHaveLength(1);
  });
});
