import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ERROR_SCHEMA,
  GROUP_SCHEMA,
  PATCH_OP,
  type Provisioning,
  scimClient,
  setUpProvisioning,
  USER_SCHEMA,
} from '../testing/scim.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';

// Microsoft Entra ID's provisioning (and its SCIM validator), in the order it runs its requests: users
// first (create, match by filter, PATCH with capitalised ops and string booleans, delete), then groups
// (create, filter by displayName, members added and removed by PATCH, delete). Entra sends
// application/json, and reads errors and resources in SCIM's shape.

let t: TestApp;
let provisioning: Provisioning;
let scim: ReturnType<typeof scimClient>;
const random = randomBytes(4).toString('hex');
const userName = `Entra.${random}@contoso.example.com`;
const enterprise = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
let userId = '';
let secondUserId = '';
let groupId = '';

/** Entra's requests carry application/json, not application/scim+json. */
const asJson = { 'content-type': 'application/json' };

beforeAll(async () => {
  t = await testApp();
  provisioning = await setUpProvisioning(t);
  scim = scimClient(t, provisioning.token);
});
afterAll(() => t.close());

const filtered = (path: string, filter: string) =>
  scim('GET', `${path}?filter=${encodeURIComponent(filter)}`);

describe('Entra ID provisioning, users, in its order', () => {
  it('looks the user up by userName before creating them: none yet', async () => {
    const response = await filtered('/Users', `userName eq "${userName}"`);
    expect(response.statusCode).toBe(200);
    expect(response.json().totalResults).toBe(0);
  });

  it('creates the user with its default attribute mapping (enterprise extension and all)', async () => {
    const response = await scim(
      'POST',
      '/Users',
      {
        schemas: [USER_SCHEMA, enterprise],
        externalId: `entra-${random}`,
        userName,
        active: true,
        displayName: 'Alex Wilber',
        title: 'Engineer',
        emails: [{ primary: true, type: 'work', value: userName }],
        name: { formatted: 'Alex Wilber', familyName: 'Wilber', givenName: 'Alex' },
        phoneNumbers: [{ type: 'mobile', value: '+1 555 0100' }],
        [enterprise]: { department: 'R&D', manager: { value: randomUUID() } },
      },
      asJson,
    );
    expect(response.statusCode).toBe(201);
    expect(response.headers['content-type']).toBe('application/scim+json; charset=utf-8');
    const user = response.json();
    userId = user.id;
    expect(user).toMatchObject({
      userName,
      externalId: `entra-${random}`,
      displayName: 'Alex Wilber',
      active: true,
      name: { givenName: 'Alex', familyName: 'Wilber', formatted: 'Alex Wilber' },
    });
  });

  it('filters for the existing user by userName, and with a different case', async () => {
    for (const name of [userName, userName.toLowerCase(), userName.toUpperCase()]) {
      const response = await filtered('/Users', `userName eq "${name}"`);
      expect(response.json().totalResults).toBe(1);
      expect(response.json().Resources[0].id).toBe(userId);
    }
  });

  it('filters by externalId (case-exact, as RFC 7643 says)', async () => {
    expect((await filtered('/Users', `externalId eq "entra-${random}"`)).json().totalResults).toBe(1);
    expect((await filtered('/Users', `externalId eq "ENTRA-${random}"`)).json().totalResults).toBe(0);
  });

  it('filters for a user who does not exist: totalResults 0', async () => {
    const response = await filtered('/Users', `userName eq "nobody-${random}@contoso.example.com"`);
    expect(response.json()).toMatchObject({ totalResults: 0, Resources: [] });
  });

  it('PATCH "Add" and "Replace" (capitalised), with paths and values keyed by path', async () => {
    const response = await scim(
      'PATCH',
      `/Users/${userId}`,
      {
        schemas: [PATCH_OP],
        Operations: [
          { op: 'Add', path: 'name.givenName', value: 'Alexandra' },
          { op: 'Replace', path: 'emails[type eq "work"].value', value: userName },
          {
            op: 'Replace',
            value: { 'name.familyName': 'Wilber-Smith', displayName: 'Alexandra Wilber-Smith' },
          },
          { op: 'Add', path: `${enterprise}:department`, value: 'Sales' },
          { op: 'Replace', path: 'externalId', value: `entra-${random}-2` },
        ],
      },
      asJson,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      externalId: `entra-${random}-2`,
      name: { givenName: 'Alexandra', familyName: 'Wilber-Smith' },
      displayName: 'Alexandra Wilber-Smith',
    });
  });

  it('PATCH Replace userName (an account provisioning made follows its IdP)', async () => {
    const renamed = `Alexandra.${random}@contoso.example.com`;
    const response = await scim('PATCH', `/Users/${userId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'userName', value: renamed }],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().userName).toBe(renamed);
    expect((await filtered('/Users', `userName eq "${renamed}"`)).json().totalResults).toBe(1);
  });

  it('PATCH Replace active with the string "False" disables the user; "True" enables them', async () => {
    const disabled = await scim('PATCH', `/Users/${userId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().active).toBe(false);
    const enabled = await scim('PATCH', `/Users/${userId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
    });
    expect(enabled.json().active).toBe(true);
  });

  it('refuses a PATCH it cannot read with a SCIM 400, naming the problem', async () => {
    const badOp = await scim('PATCH', `/Users/${userId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Merge', path: 'active', value: true }],
    });
    expect(badOp.statusCode).toBe(400);
    expect(badOp.json()).toMatchObject({ schemas: [ERROR_SCHEMA], status: '400', scimType: 'invalidSyntax' });
    const badValue = await scim('PATCH', `/Users/${userId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'maybe' }],
    });
    expect(badValue.json()).toMatchObject({ status: '400', scimType: 'invalidValue' });
    const badPath = await scim('PATCH', `/Users/${userId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'emails[type eq ', value: 'x' }],
    });
    expect(badPath.json()).toMatchObject({ status: '400', scimType: 'invalidPath' });
  });

  it('creates a duplicate: 409 uniqueness', async () => {
    const current = (await scim('GET', `/Users/${userId}`)).json();
    const response = await scim('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: current.userName,
      active: true,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ status: '409', scimType: 'uniqueness' });
  });
});

describe('Entra ID provisioning, groups, in its order', () => {
  beforeAll(async () => {
    const second = await scim('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: `second-${random}@contoso.example.com`,
      name: { givenName: 'Megan', familyName: 'Bowen' },
      active: true,
    });
    secondUserId = second.json().id;
  });

  it('looks the group up by displayName: none yet', async () => {
    expect((await filtered('/Groups', 'displayName eq "Engineering"')).json().totalResults).toBe(0);
  });

  it('creates the group (a role marked scim_created), members empty', async () => {
    const response = await scim(
      'POST',
      '/Groups',
      { schemas: [GROUP_SCHEMA], externalId: randomUUID(), displayName: 'Engineering', members: [] },
      asJson,
    );
    expect(response.statusCode).toBe(201);
    groupId = response.json().id;
    expect(response.headers.location).toBe(`http://berth.test/scim/v2/Groups/${groupId}`);
    expect(response.json()).toMatchObject({
      schemas: [GROUP_SCHEMA],
      displayName: 'Engineering',
      members: [],
    });
    const role = await t.call('GET', `/auth/roles/${groupId}`, { token: provisioning.owner.token });
    expect(role.json()).toMatchObject({ name: 'Engineering', type: 'platform_user', scim_created: true });
  });

  it('filters groups by displayName, without regard to case, leaving members out when asked', async () => {
    const response = await scim(
      'GET',
      `/Groups?filter=${encodeURIComponent('displayName eq "engineering"')}&excludedAttributes=members`,
    );
    expect(response.json().totalResults).toBe(1);
    expect(response.json().Resources[0]).toEqual({
      schemas: [GROUP_SCHEMA],
      id: groupId,
      displayName: 'Engineering',
      meta: expect.objectContaining({ resourceType: 'Group' }),
    });
  });

  it('PATCH Add members', async () => {
    const response = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: userId }, { value: secondUserId }] }],
    });
    expect(response.statusCode).toBe(204);
    const group = (await scim('GET', `/Groups/${groupId}`)).json();
    expect(group.members.map((member: { value: string }) => member.value).sort()).toEqual(
      [userId, secondUserId].sort(),
    );
    const user = (await scim('GET', `/Users/${userId}`)).json();
    expect(user.groups).toEqual([
      { value: groupId, display: 'Engineering', $ref: `http://berth.test/scim/v2/Groups/${groupId}` },
    ]);
  });

  it('asks whether a user is a member with id eq and members[value eq]', async () => {
    const member = await filtered('/Groups', `id eq "${groupId}" and members[value eq "${userId}"]`);
    expect(member.json().totalResults).toBe(1);
    const stranger = await filtered('/Groups', `id eq "${groupId}" and members[value eq "${randomUUID()}"]`);
    expect(stranger.json().totalResults).toBe(0);
  });

  it('PATCH Remove members: by a members[value eq] path, and by a value list', async () => {
    const byPath = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Remove', path: `members[value eq "${userId}"]` }],
    });
    expect(byPath.statusCode).toBe(204);
    const byValue = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: secondUserId }] }],
    });
    expect(byValue.statusCode).toBe(204);
    expect((await scim('GET', `/Groups/${groupId}`)).json().members).toEqual([]);
    // Out of the group, still a member of the organization: the default role is theirs.
    const holders = await t.call('GET', `/auth/roles/${provisioning.defaultRoleId}/users`, {
      token: provisioning.owner.token,
    });
    const ids = holders.json()._embedded.users.map((user: { id: string }) => user.id);
    expect(ids).toEqual(expect.arrayContaining([userId, secondUserId]));
  });

  it('PATCH Replace displayName', async () => {
    const response = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'displayName', value: 'Platform Engineering' }],
    });
    expect(response.statusCode).toBe(204);
    expect((await scim('GET', `/Groups/${groupId}`)).json().displayName).toBe('Platform Engineering');
  });

  it('creates a duplicate group: 409 uniqueness, whatever the case', async () => {
    const response = await scim('POST', '/Groups', {
      schemas: [GROUP_SCHEMA],
      displayName: 'platform engineering',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ status: '409', scimType: 'uniqueness' });
  });

  it('deletes the group: 204, then 404; its members keep a role', async () => {
    await scim('PATCH', `/Groups/${groupId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: userId }] }],
    });
    expect((await scim('DELETE', `/Groups/${groupId}`)).statusCode).toBe(204);
    const gone = await scim('GET', `/Groups/${groupId}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ schemas: [ERROR_SCHEMA], status: '404' });
    expect((await scim('GET', `/Users/${userId}`)).json().groups).toEqual([]);
    const members = await t.call('GET', `/auth/organizations/${provisioning.organizationId}/users`, {
      token: provisioning.owner.token,
    });
    expect(members.json()._embedded.users.map((user: { id: string }) => user.id)).toContain(userId);
  });

  it('deletes the user: 204, then 404, and they are out of the organization', async () => {
    expect((await scim('DELETE', `/Users/${userId}`)).statusCode).toBe(204);
    expect((await scim('GET', `/Users/${userId}`)).statusCode).toBe(404);
    const members = await t.call('GET', `/auth/organizations/${provisioning.organizationId}/users`, {
      token: provisioning.owner.token,
    });
    expect(members.json()._embedded.users.map((user: { id: string }) => user.id)).not.toContain(userId);
  });
});
