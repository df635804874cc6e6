import { permissionMessages } from '@berth/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships } from '../../db/schema.ts';
import { addMember } from '../../testing/factories.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';

// Issue 15 "Other members": an owner or a role admin opening a member's page reads that member's roles,
// in the organizations where they may manage members and nowhere else; anyone else gets none.

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const rolesOf = (caller: TestUser | null, userId: string) =>
  t.call('GET', `/auth/users/${userId}/roles`, caller ? { token: caller.token } : {});
const namesIn = (response: { json: () => { _embedded: { roles: { name: string }[] } } }) =>
  response
    .json()
    ._embedded.roles.map((role) => role.name)
    .sort();

/** Two organizations: the member belongs to both, the owner of the first only to the first. */
async function world() {
  const owner = await t.signUp({ name: 'Owner' });
  const org = await t.createOrganization(owner, 'Acme');
  const target = await t.signUp({ name: 'Target' });
  await addMember(t.db, { organizationId: org.id, userId: target.id, name: 'Developers' });
  await addMember(t.db, { organizationId: org.id, userId: target.id, name: 'Readers' });
  const otherOwner = await t.signUp({ name: 'Other owner' });
  const other = await t.createOrganization(otherOwner, 'Elsewhere');
  await addMember(t.db, { organizationId: other.id, userId: target.id, name: 'Secret team' });
  return { owner, org, target, otherOwner, other };
}

describe('GET /users/:id/roles for another member', () => {
  it('answers an owner with the member’s roles in the organization, and none from elsewhere', async () => {
    const { owner, target } = await world();
    const response = await rolesOf(owner, target.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(namesIn(response)).toEqual(['Developers', 'Readers']);
    expect(response.json()._links.self.href).toBe(`http://berth.test/auth/users/${target.id}/roles`);
  });

  it('answers a role admin too', async () => {
    const { org, target } = await world();
    const admin = await t.signUp({ name: 'Role admin' });
    const adminRole = await addMember(t.db, { organizationId: org.id, userId: admin.id, name: 'Leads' });
    await t.db
      .update(memberships)
      .set({ privileged: true })
      .where(and(eq(memberships.roleId, adminRole.id), eq(memberships.userId, admin.id)));
    const response = await rolesOf(admin, target.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(namesIn(response)).toEqual(['Developers', 'Readers']);
  });

  it('answers each owner with their own organization’s roles only', async () => {
    const { otherOwner, target } = await world();
    const response = await rolesOf(otherOwner, target.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(namesIn(response)).toEqual(['Secret team']);
  });

  it('still answers the caller with all their own roles', async () => {
    const { target } = await world();
    const response = await rolesOf(target, target.id);
    expect(response.statusCode).toBe(200);
    expect(namesIn(response)).toEqual(['Developers', 'Readers', 'Secret team']);
  });

  it('refuses a member who manages no one (403) and a stranger (404)', async () => {
    const { org, target } = await world();
    const plain = await t.signUp({ name: 'Plain member' });
    await addMember(t.db, { organizationId: org.id, userId: plain.id, name: 'Viewers' });
    const denied = await rolesOf(plain, target.id);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(permissionMessages.roleManagement);

    const stranger = await t.signUp({ name: 'Stranger' });
    await t.createOrganization(stranger, 'Unrelated');
    const hidden = await rolesOf(stranger, target.id);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe('User not found');
  });

  it('answers 404 for an unknown or malformed id, and 401 without a token', async () => {
    const { owner, target } = await world();
    expect((await rolesOf(owner, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await rolesOf(owner, 'not-a-uuid')).statusCode).toBe(404);
    expect((await rolesOf(null, target.id)).statusCode).toBe(401);
  });

  it('an admin of a role in one organization sees nothing of another where they are a plain member', async () => {
    const { org, other, target } = await world();
    const admin = await t.signUp({ name: 'Split admin' });
    const adminRole = await addMember(t.db, { organizationId: org.id, userId: admin.id, name: 'Leads' });
    await t.db.update(memberships).set({ privileged: true }).where(eq(memberships.roleId, adminRole.id));
    await addMember(t.db, { organizationId: other.id, userId: admin.id, name: 'Guests' });
    const response = await rolesOf(admin, target.id);
    expect(response.statusCode).toBe(200);
    expect(namesIn(response)).toEqual(['Developers', 'Readers']);
  });
});
