import { memberMessages, permissionMessages, scimMessages } from '@berth/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles as rolesTable, scimUsers, users as usersTable } from '../../db/schema.ts';
import { addMember, grant } from '../../testing/factories.ts';
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

  // spec 1 §6 "Owner-type roles cannot be edited": a rule of the role, not of the caller, so 422 (the
  // caller's right to manage roles is checked first: 403 for those who have none).
  it('never edits owner-type roles: 422 with the rule, after the caller’s own 403', async () => {
    const setup = await team();
    const deployOwner = await deployOwnerOf(setup);
    const editors: [TestUser, string][] = [
      [setup.owner, 'owner'],
      [setup.owner, 'platform_owner'],
      [setup.owner, 'billing_owner'],
      [deployOwner, 'platform_owner'],
    ];
    for (const [editor, type] of editors) {
      const role = roleOf(setup, type);
      const rename = await t.call('PUT', `/auth/roles/${role.id}`, {
        token: editor.token,
        body: { name: 'Bosses' },
      });
      expect(rename.statusCode, type).toBe(422);
      expect(rename.json()).toMatchObject({
        error: 'unprocessable_entity',
        message: permissionMessages.ownerRoleLocked,
      });
      const deleted = await t.call('DELETE', `/auth/roles/${role.id}`, { token: editor.token });
      expect(deleted.statusCode, type).toBe(422);
      expect(deleted.json().message).toBe(permissionMessages.ownerRoleLocked);
    }
    const roles = (
      await t.call('GET', `/auth/organizations/${setup.org.id}/roles`, { token: setup.owner.token })
    )
      .json()
      ._embedded.roles.map((role: { name: string }) => role.name);
    expect(roles).toEqual(expect.arrayContaining(['Account Owners', 'Deploy Owners', 'Billing Owners']));

    const member = await t.signUp();
    await addMember(t.db, { organizationId: setup.org.id, userId: member.id });
    const byMember = await t.call('PUT', `/auth/roles/${roleOf(setup, 'owner').id}`, {
      token: member.token,
      body: { name: 'Mine' },
    });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().message).toBe(permissionMessages.roleManagement);
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
    // spec 1 §6: a Deploy Owner does not even see the owner role (role-visibility.test.ts).
    const denied = await t.call('POST', `/auth/roles/${ownerRole.id}/memberships`, {
      token: deployOwner.token,
      body: { user_url: userUrl(deployOwner) },
    });
    expect(denied.statusCode).toBe(404);

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

// spec 1 §4 Role editing: "The last remaining role cannot be unchecked"; a member leaves the organization
// by Remove member (DELETE /organizations/:id/users/:userId), never by losing their roles one by one.
describe('a member keeps at least one role', () => {
  const membershipOf = async (owner: TestUser, roleId: string, user: TestUser) => {
    const listed = (await t.call('GET', `/auth/roles/${roleId}/memberships`, { token: owner.token })).json()
      ._embedded.memberships as { id: string; _links: { user: { href: string } } }[];
    const found = listed.find((m) => m._links.user.href === userUrl(user));
    if (!found) throw new Error('no membership');
    return found;
  };
  const memberIds = async (caller: TestUser, organizationId: string) =>
    (await t.call('GET', `/auth/organizations/${organizationId}/users`, { token: caller.token }))
      .json()
      ._embedded.users.map((u: { id: string }) => u.id);

  it('refuses to remove a member’s last role (422) and keeps them; removes any other', async () => {
    const { owner, org } = await team();
    const member = await t.signUp();
    const developers = await addMember(t.db, {
      organizationId: org.id,
      userId: member.id,
      name: 'Developers',
    });
    const only = await membershipOf(owner, developers.id, member);
    const refused = await t.call('DELETE', `/auth/memberships/${only.id}`, { token: owner.token });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ error: 'unprocessable_entity', message: memberMessages.lastRole });
    expect(await memberIds(owner, org.id)).toContain(member.id);
    expect((await membershipOf(owner, developers.id, member)).id).toBe(only.id);

    const readers = await createRole(owner, org.id, 'Readers');
    await t.call('POST', `/auth/roles/${readers.id}/memberships`, {
      token: owner.token,
      body: { user_url: userUrl(member) },
    });
    expect((await t.call('DELETE', `/auth/memberships/${only.id}`, { token: owner.token })).statusCode).toBe(
      204,
    );
    const left = (await t.call('GET', `/auth/users/${member.id}/roles`, { token: owner.token })).json();
    expect(left._embedded.roles.map((role: { name: string }) => role.name)).toEqual(['Readers']);
    const last = await membershipOf(owner, readers.id, member);
    expect((await t.call('DELETE', `/auth/memberships/${last.id}`, { token: owner.token })).statusCode).toBe(
      422,
    );
  });

  it('keeps one role when both are removed at the same moment', async () => {
    const { owner, org } = await team();
    const member = await t.signUp();
    const first = await addMember(t.db, { organizationId: org.id, userId: member.id, name: 'First' });
    const second = await addMember(t.db, { organizationId: org.id, userId: member.id, name: 'Second' });
    const ids = [
      (await membershipOf(owner, first.id, member)).id,
      (await membershipOf(owner, second.id, member)).id,
    ];
    const answers = await Promise.all(
      ids.map((id) => t.call('DELETE', `/auth/memberships/${id}`, { token: owner.token })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([204, 422]);
    const roles = (await t.call('GET', `/auth/users/${member.id}/roles`, { token: owner.token })).json()
      ._embedded.roles;
    expect(roles).toHaveLength(1);
  });

  it('counts, for a Deploy Owner, only the roles it sees: it cannot strip a billing owner to a role it does not see', async () => {
    const setup = await team();
    const deployOwner = await deployOwnerOf(setup);
    const member = await t.signUp();
    const developers = await addMember(t.db, {
      organizationId: setup.org.id,
      userId: member.id,
      name: 'Developers',
    });
    await t.call('POST', `/auth/roles/${roleOf(setup, 'billing_owner').id}/memberships`, {
      token: setup.owner.token,
      body: { user_url: userUrl(member) },
    });
    const visible = await membershipOf(setup.owner, developers.id, member);
    const byDeployOwner = await t.call('DELETE', `/auth/memberships/${visible.id}`, {
      token: deployOwner.token,
    });
    expect(byDeployOwner.statusCode).toBe(422);
    expect(byDeployOwner.json().message).toBe(memberMessages.lastRole);
    expect(await memberIds(deployOwner, setup.org.id)).toContain(member.id);
    // The Account Owner sees the billing role too: the member keeps it.
    const byOwner = await t.call('DELETE', `/auth/memberships/${visible.id}`, { token: setup.owner.token });
    expect(byOwner.statusCode).toBe(204);
    expect(await memberIds(setup.owner, setup.org.id)).toContain(member.id);
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
    expect(byDeployOwner.statusCode).toBe(404);
    const byAccountOwner = await t.call('POST', `/auth/roles/${billing.id}/memberships`, {
      token: setup.owner.token,
      body: { user_url: userUrl(deployOwner) },
    });
    expect(byAccountOwner.statusCode).toBe(201);
  });
});

describe('provisioned users and roles (spec 1 §6, §8)', () => {
  /** The user as the organization's provisioning manages them (scim/scim-users.service.ts makes this row). */
  async function provision(organizationId: string, userId: string) {
    await t.db.insert(scimUsers).values({ organizationId, userId, externalId: 'okta-42' });
    await t.db.update(usersTable).set({ externalId: 'okta-42' }).where(eq(usersTable.id, userId));
  }

  it('keeps provisioned users in and out of provisioned roles', async () => {
    const setup = await team();
    const role = await createRole(setup.owner, setup.org.id, 'Okta Engineers');
    await t.db.update(rolesTable).set({ scimCreated: true }).where(eq(rolesTable.id, role.id));
    const managed = await t.signUp();
    await addMember(t.db, { organizationId: setup.org.id, userId: managed.id, name: 'Base' });
    await provision(setup.org.id, managed.id);

    const added = await t.call('POST', `/auth/roles/${role.id}/memberships`, {
      token: setup.owner.token,
      body: { user_url: userUrl(managed) },
    });
    expect(added.statusCode).toBe(422);
    expect(added.json().message).toBe(scimMessages.cannotAdd);

    await t.db.delete(scimUsers).where(eq(scimUsers.userId, managed.id));
    const membership = (
      await t.call('POST', `/auth/roles/${role.id}/memberships`, {
        token: setup.owner.token,
        body: { user_url: userUrl(managed) },
      })
    ).json();
    await provision(setup.org.id, managed.id);
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
    expect(renamed.statusCode).toBe(422);
  });

  it('locks a user only in the organization whose provisioning manages them', async () => {
    const managing = await team();
    const other = await team();
    const managed = await t.signUp();
    await addMember(t.db, { organizationId: managing.org.id, userId: managed.id, name: 'Base' });
    await addMember(t.db, { organizationId: other.org.id, userId: managed.id, name: 'Base' });
    await provision(managing.org.id, managed.id);
    const otherRole = await createRole(other.owner, other.org.id, 'Their own group');
    await t.db.update(rolesTable).set({ scimCreated: true }).where(eq(rolesTable.id, otherRole.id));

    // In the other organization they are an ordinary member: shown unlocked, added to its roles, removed.
    const listed = await t.call('GET', `/auth/organizations/${other.org.id}/users`, {
      token: other.owner.token,
    });
    const there = listed.json()._embedded.users.find((user: { id: string }) => user.id === managed.id);
    expect(there.external_id).toBeNull();
    const added = await t.call('POST', `/auth/roles/${otherRole.id}/memberships`, {
      token: other.owner.token,
      body: { user_url: userUrl(managed) },
    });
    expect(added.statusCode).toBe(201);
    const removed = await t.call('DELETE', `/auth/organizations/${other.org.id}/users/${managed.id}`, {
      token: other.owner.token,
    });
    expect(removed.statusCode).toBe(204);

    // Where provisioning manages them, they are locked.
    const managingList = await t.call('GET', `/auth/organizations/${managing.org.id}/users`, {
      token: managing.owner.token,
    });
    const here = managingList.json()._embedded.users.find((user: { id: string }) => user.id === managed.id);
    expect(here.external_id).toBe('okta-42');
    const refused = await t.call('DELETE', `/auth/organizations/${managing.org.id}/users/${managed.id}`, {
      token: managing.owner.token,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(memberMessages.removeProvisioned);
  });

  it('refuses to edit a provisioned role in the words the console shows (core scimMessages.roleLocked)', async () => {
    const setup = await team();
    const role = await createRole(setup.owner, setup.org.id, 'Okta Admins');
    await t.db.update(rolesTable).set({ scimCreated: true }).where(eq(rolesTable.id, role.id));
    const renamed = await t.call('PUT', `/auth/roles/${role.id}`, {
      token: setup.owner.token,
      body: { name: 'Renamed' },
    });
    expect(renamed.statusCode).toBe(422);
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

describe('GET /roles/:id/environment_access (issue 41: the invite form’s summary)', () => {
  it('names the environments the role reaches with its scopes there, by handle, for an owner', async () => {
    const { owner, org } = await team();
    const role = await createRole(owner, org.id, 'Deployers');
    const staging = await t.createEnvironment(owner, org.id, 'staging');
    const production = await t.createEnvironment(owner, org.id, 'production');
    await t.createEnvironment(owner, org.id, 'unreached');
    await grant(t.db, { roleId: role.id, environmentId: staging.id, scope: 'deploy' });
    await grant(t.db, { roleId: role.id, environmentId: staging.id, scope: 'tunnel' });
    await grant(t.db, { roleId: role.id, environmentId: production.id, scope: 'read' });

    const byOwner = await t.call('GET', `/auth/roles/${role.id}/environment_access`, { token: owner.token });
    expect(byOwner.statusCode).toBe(200);
    const body = byOwner.json();
    expect(body).toMatchObject({
      _type: 'role_environment_access',
      environments: [
        { id: production.id, handle: 'production', scopes: ['read'] },
        { id: staging.id, handle: 'staging' },
      ],
      unseen_environment_count: 0,
      unlisted_environment_count: 0,
    });
    expect(body.environments[1].scopes.sort()).toEqual(['deploy', 'tunnel']);

    // A role with no permission reaches nothing.
    const empty = await createRole(owner, org.id, 'Newcomers');
    const none = await t.call('GET', `/auth/roles/${empty.id}/environment_access`, { token: owner.token });
    expect(none.json().environments).toEqual([]);
  });

  it('answers the role’s admin, and refuses plain members, strangers and no token', async () => {
    const { owner, org } = await team();
    const role = await createRole(owner, org.id, 'Operators');
    const production = await t.createEnvironment(owner, org.id, 'production');
    await grant(t.db, { roleId: role.id, environmentId: production.id, scope: 'observability' });

    // The role's admin (a privileged membership) may invite into it, so reads its reach.
    const admin = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: admin.id, name: 'Elsewhere' });
    const membership = (
      await t.call('POST', `/auth/roles/${role.id}/memberships`, {
        token: owner.token,
        body: { user_url: userUrl(admin) },
      })
    ).json();
    const url = `/auth/roles/${role.id}/environment_access`;
    // Holding the role is not enough: inviting needs its admin.
    const asHolder = await t.call('GET', url, { token: admin.token });
    expect(asHolder.statusCode).toBe(403);
    expect(asHolder.json().message).toBe(permissionMessages.roleManagement);
    await t.call('PATCH', `/auth/memberships/${membership.id}`, {
      token: owner.token,
      body: { privileged: true },
    });
    const byAdmin = await t.call('GET', url, { token: admin.token });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json()).toMatchObject({
      environments: [{ id: production.id, handle: 'production', scopes: ['observability'] }],
      unseen_environment_count: 0,
    });

    const plain = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: plain.id, name: 'Plain' });
    expect((await t.call('GET', url, { token: plain.token })).statusCode).toBe(403);
    const stranger = await t.signUp();
    await t.createOrganization(stranger);
    expect((await t.call('GET', url, { token: stranger.token })).statusCode).toBe(404);
    expect((await t.call('GET', url)).statusCode).toBe(401);
    // A role hidden from a Deploy Owner (the owner role) is 404 to them, as the role itself is.
    const deployOwner = await deployOwnerOf({ owner, org, roles: [] });
    const ownerRole = (await t.call('GET', `/auth/organizations/${org.id}/roles`, { token: owner.token }))
      .json()
      ._embedded.roles.find((r: { type: string }) => r.type === 'owner');
    expect(
      (await t.call('GET', `/auth/roles/${ownerRole.id}/environment_access`, { token: deployOwner.token }))
        .statusCode,
    ).toBe(404);
  });
});
