import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships, whitelistMemberships } from '../../db/schema.ts';
import { addMember } from '../../testing/factories.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const listPath = (orgId: string) => `/auth/organizations/${orgId}/whitelist_memberships`;

async function organizationWithMember() {
  const owner = await t.signUp();
  const org = await t.createOrganization(owner, 'Bypassers');
  const member = await t.signUp();
  const role = await addMember(t.db, { organizationId: org.id, userId: member.id });
  return { owner, org, member, role };
}

async function add(owner: TestUser, orgId: string, body: unknown) {
  return t.call('POST', listPath(orgId), { token: owner.token, body });
}

describe('whitelist memberships (the SSO bypass list)', () => {
  it('lets the Account Owner add, list and remove a member, in the contract’s shape', async () => {
    const { owner, org, member } = await organizationWithMember();
    expect((await t.call('GET', listPath(org.id), { token: owner.token })).json()._embedded).toEqual({
      whitelist_memberships: [],
    });
    const added = await add(owner, org.id, { user_id: member.id });
    expect(added.statusCode).toBe(201);
    const entry = added.json();
    expect(entry).toMatchObject({
      _type: 'whitelist_membership',
      deleted_at: null,
      _links: {
        self: { href: `http://berth.test/auth/whitelist_memberships/${entry.id}` },
        organization: { href: `http://berth.test/auth/organizations/${org.id}` },
        user: { href: `http://berth.test/auth/users/${member.id}` },
      },
    });
    const list = (await t.call('GET', listPath(org.id), { token: owner.token })).json();
    expect(list._embedded.whitelist_memberships.map((w: { id: string }) => w.id)).toEqual([entry.id]);
    expect(list.total_count).toBe(1);
    const removed = await t.call('DELETE', `/auth/whitelist_memberships/${entry.id}`, { token: owner.token });
    expect(removed.statusCode).toBe(204);
    expect((await t.call('GET', listPath(org.id), { token: owner.token })).json().total_count).toBe(0);
  });

  it('asks for a user, with the spec’s message', async () => {
    const { owner, org } = await organizationWithMember();
    for (const body of [{}, { user_id: '' }, { user_id: '   ' }]) {
      const refused = await add(owner, org.id, body);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe('SSO bypass: a user must be chosen');
    }
    const tooLong = await add(owner, org.id, { user_id: 'x'.repeat(65) });
    expect(tooLong.statusCode).toBe(422);
  });

  it('refuses an Account Owner, someone outside the organization, and a second entry', async () => {
    const { owner, org, member } = await organizationWithMember();
    const coOwner = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: coOwner.id, roleType: 'owner' });
    const ownerRefused = await add(owner, org.id, { user_id: coOwner.id });
    expect(ownerRefused.statusCode).toBe(422);
    expect(ownerRefused.json().message).toBe(
      'Account Owners are exempt from SSO enforcement and cannot be added to the exception list',
    );
    expect((await add(owner, org.id, { user_id: owner.id })).statusCode).toBe(422);
    const stranger = await t.signUp();
    const notMember = await add(owner, org.id, { user_id: stranger.id });
    expect(notMember.statusCode).toBe(422);
    expect(notMember.json().message).toBe(
      'Only members of the organization can be added to the SSO exception list',
    );
    expect((await add(owner, org.id, { user_id: 'not-a-uuid' })).statusCode).toBe(422);
    expect((await add(owner, org.id, { user_id: member.id })).statusCode).toBe(201);
    const twice = await add(owner, org.id, { user_id: member.id });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().message).toBe('This user is already on the SSO exception list');
  });

  it('is the Account Owner’s: 401 without a token, 404 outside, 403 for members and Deploy Owners', async () => {
    const { owner, org, member } = await organizationWithMember();
    const entry = (await add(owner, org.id, { user_id: member.id })).json();
    const deployOwner = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: deployOwner.id, roleType: 'platform_owner' });
    const stranger = await t.signUp();

    expect((await t.call('GET', listPath(org.id))).statusCode).toBe(401);
    expect((await t.call('POST', listPath(org.id), { body: { user_id: member.id } })).statusCode).toBe(401);
    expect((await t.call('DELETE', `/auth/whitelist_memberships/${entry.id}`)).statusCode).toBe(401);

    for (const [caller, status] of [
      [stranger, 404],
      [member, 403],
      [deployOwner, 403],
    ] as const) {
      expect((await t.call('GET', listPath(org.id), { token: caller.token })).statusCode).toBe(status);
      // The body is read only once the caller may add: a bad one changes nothing of the answer.
      expect((await add(caller, org.id, { user_id: '' })).statusCode).toBe(status);
      expect(
        (await t.call('DELETE', `/auth/whitelist_memberships/${entry.id}`, { token: caller.token }))
          .statusCode,
      ).toBe(status);
    }
    expect((await t.call('GET', listPath('not-an-id'), { token: owner.token })).statusCode).toBe(404);
    expect(
      (await t.call('DELETE', '/auth/whitelist_memberships/nope', { token: owner.token })).statusCode,
    ).toBe(404);
    const rows = await t.db.select().from(whitelistMemberships).where(eq(whitelistMemberships.id, entry.id));
    expect(rows).toHaveLength(1);
  });

  it('ends an entry when its user leaves the organization, however they leave', async () => {
    const { owner, org, member, role } = await organizationWithMember();
    await add(owner, org.id, { user_id: member.id });
    const removed = await t.call('DELETE', `/auth/organizations/${org.id}/users/${member.id}`, {
      token: owner.token,
    });
    expect(removed.statusCode).toBe(204);
    expect((await t.call('GET', listPath(org.id), { token: owner.token })).json().total_count).toBe(0);
    // Back in through a role, they are not exempt again until the owner says so; a deleted role takes
    // its only holder's entry with it.
    await t.db.insert(memberships).values({ userId: member.id, roleId: role.id });
    expect((await t.call('GET', listPath(org.id), { token: owner.token })).json().total_count).toBe(0);
    await add(owner, org.id, { user_id: member.id });
    expect((await t.call('DELETE', `/auth/roles/${role.id}`, { token: owner.token })).statusCode).toBe(204);
    expect((await t.call('GET', listPath(org.id), { token: owner.token })).json().total_count).toBe(0);
  });

  it('keeps an entry while its user still holds another role there', async () => {
    const { owner, org, member } = await organizationWithMember();
    const second = await addMember(t.db, { organizationId: org.id, userId: member.id, name: 'Second' });
    await add(owner, org.id, { user_id: member.id });
    expect((await t.call('DELETE', `/auth/roles/${second.id}`, { token: owner.token })).statusCode).toBe(204);
    expect((await t.call('GET', listPath(org.id), { token: owner.token })).json().total_count).toBe(1);
  });
});
