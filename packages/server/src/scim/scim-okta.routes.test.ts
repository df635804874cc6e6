import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ERROR_SCHEMA,
  LIST_RESPONSE,
  PATCH_OP,
  type Provisioning,
  scimClient,
  setUpProvisioning,
  USER_SCHEMA,
} from '../testing/scim.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';

// Okta's provisioning validator ("SCIM 2.0 Test App", its Runscope suite), step by step in its order:
// each `it` is one of its requests with what it checks, and later steps use what earlier ones made.

let t: TestApp;
let provisioning: Provisioning;
let scim: ReturnType<typeof scimClient>;
const random = randomBytes(4).toString('hex');
const userName = `okta-${random}@atko.example.com`;
let userId = '';

beforeAll(async () => {
  t = await testApp();
  provisioning = await setUpProvisioning(t);
  scim = scimClient(t, provisioning.token);
  // The suite starts against an app that already holds users: one provisioned before it runs.
  const existing = await scim('POST', '/Users', {
    schemas: [USER_SCHEMA],
    userName: `existing-${random}@atko.example.com`,
    name: { givenName: 'Existing', familyName: 'User' },
    active: true,
  });
  expect(existing.statusCode).toBe(201);
});
afterAll(() => t.close());

describe('Okta SCIM 2.0 validator, in its order', () => {
  it('reads /ServiceProviderConfig (what Okta checks before it provisions)', async () => {
    const response = await scim('GET', '/ServiceProviderConfig');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/scim+json; charset=utf-8');
    const config = response.json();
    expect(config.patch.supported).toBe(true);
    expect(config.filter).toEqual({ supported: true, maxResults: 200 });
    expect(config.bulk.supported).toBe(false);
    expect(config.authenticationSchemes[0].type).toBe('oauthbearertoken');
  });

  it('Test Users endpoint: GET /Users?count=1&startIndex=1 is a ListResponse of one', async () => {
    const response = await scim('GET', '/Users?count=1&startIndex=1');
    expect(response.statusCode).toBe(200);
    const list = response.json();
    expect(list.schemas).toEqual([LIST_RESPONSE]);
    expect(list.totalResults).toBe(1);
    expect(list.itemsPerPage).toBe(1);
    expect(list.startIndex).toBe(1);
    expect(list.Resources).toHaveLength(1);
    expect(list.Resources[0].schemas).toEqual([USER_SCHEMA]);
  });

  it('Get Users/{{id}}: the first user, by its id', async () => {
    const first = (await scim('GET', '/Users?count=1&startIndex=1')).json().Resources[0];
    const response = await scim('GET', `/Users/${first.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().id).toBe(first.id);
    expect(response.json().userName).toBe(first.userName);
  });

  it('Test invalid User by username: a filter that matches no one has totalResults 0', async () => {
    const filter = encodeURIComponent(`userName eq "invalid-${randomUUID()}@atko.example.com"`);
    const response = await scim('GET', `/Users?filter=${filter}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ schemas: [LIST_RESPONSE], totalResults: 0, Resources: [] });
  });

  it('Test invalid User by ID: 404 in the SCIM error schema, status as a string', async () => {
    const response = await scim('GET', `/Users/${randomUUID()}`);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('application/scim+json; charset=utf-8');
    expect(response.json()).toEqual({ schemas: [ERROR_SCHEMA], status: '404', detail: 'User not found' });
  });

  it('Make sure random user doesn’t exist (filter by userName)', async () => {
    const response = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
    expect(response.json().totalResults).toBe(0);
  });

  it('Create Okta user with realistic values: 201 with Location and meta', async () => {
    const response = await scim('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName,
      name: { givenName: 'Saoirse', familyName: 'Ó Briain' },
      emails: [{ primary: true, value: userName, type: 'work' }],
      displayName: 'Saoirse Ó Briain',
      locale: 'en-US',
      externalId: '00u1okta',
      groups: [],
      password: 'never-kept-1A',
      active: true,
    });
    expect(response.statusCode).toBe(201);
    const user = response.json();
    userId = user.id;
    expect(response.headers.location).toBe(`http://berth.test/scim/v2/Users/${userId}`);
    expect(user).toMatchObject({
      schemas: [USER_SCHEMA],
      userName,
      externalId: '00u1okta',
      active: true,
      name: { givenName: 'Saoirse', familyName: 'Ó Briain' },
      emails: [{ value: userName, type: 'work', primary: true }],
      meta: { resourceType: 'User', location: response.headers.location },
    });
    expect(user.meta.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('Verify that user was created: GET /Users/{{id}}', async () => {
    const response = await scim('GET', `/Users/${userId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: userId, userName, active: true });
  });

  it('Expect failure when recreating user with same values: 409 uniqueness', async () => {
    const response = await scim('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName,
      name: { givenName: 'Saoirse', familyName: 'Ó Briain' },
      active: true,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ schemas: [ERROR_SCHEMA], status: '409', scimType: 'uniqueness' });
  });

  it('Username Case Sensitivity Check: the same userName in other case finds the user, and cannot be made again', async () => {
    const upper = userName.toUpperCase();
    const found = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${upper}"`)}`);
    expect(found.json().totalResults).toBe(1);
    expect(found.json().Resources[0].id).toBe(userId);
    const again = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: upper, active: true });
    expect(again.statusCode).toBe(409);
    expect(again.json().scimType).toBe('uniqueness');
  });

  it('Optional: the Groups endpoint answers a ListResponse', async () => {
    const response = await scim('GET', '/Groups?count=1&startIndex=1');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ schemas: [LIST_RESPONSE], totalResults: 0, Resources: [] });
  });

  it('Optional: 401 without a token, or with a wrong one', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/scim/v2/Users' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ schemas: [ERROR_SCHEMA], status: '401' });
    expect(none.headers['www-authenticate']).toBe('Bearer realm="SCIM"');
    const wrong = await scimClient(t, `${provisioning.token}x`)('GET', '/Users');
    expect(wrong.statusCode).toBe(401);
  });

  it('Update a user (PUT): the whole user as Okta holds it', async () => {
    const response = await scim('PUT', `/Users/${userId}`, {
      schemas: [USER_SCHEMA],
      id: userId,
      userName,
      name: { givenName: 'Saoirse', familyName: 'Kennedy' },
      emails: [{ primary: true, value: userName, type: 'work' }],
      externalId: '00u1okta',
      active: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: userId,
      name: { givenName: 'Saoirse', familyName: 'Kennedy', formatted: 'Saoirse Kennedy' },
      displayName: 'Saoirse Kennedy',
    });
    // The console shows the name the IdP gave.
    const members = await t.call('GET', `/auth/organizations/${provisioning.organizationId}/users`, {
      token: provisioning.owner.token,
    });
    const member = members.json()._embedded.users.find((user: { id: string }) => user.id === userId);
    expect(member).toMatchObject({ name: 'Saoirse Kennedy', email: userName, external_id: '00u1okta' });
  });

  it('Deactivate a user: PATCH replace {"active": false} (Okta’s form) takes them out of the organization', async () => {
    const response = await scim('PATCH', `/Users/${userId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().active).toBe(false);
    const members = await t.call('GET', `/auth/organizations/${provisioning.organizationId}/users`, {
      token: provisioning.owner.token,
    });
    expect(members.json()._embedded.users.map((user: { id: string }) => user.id)).not.toContain(userId);
    // Still provisioned: Okta reads it back as inactive.
    const read = await scim('GET', `/Users/${userId}`);
    expect(read.json().active).toBe(false);
    const inactive = await scim('GET', `/Users?filter=${encodeURIComponent('active eq false')}`);
    expect(inactive.json().Resources.map((user: { id: string }) => user.id)).toEqual([userId]);
  });

  it('Reactivate a user: PATCH active true gives the default role back', async () => {
    const response = await scim('PATCH', `/Users/${userId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect(response.json().active).toBe(true);
    const holders = await t.call('GET', `/auth/roles/${provisioning.defaultRoleId}/users`, {
      token: provisioning.owner.token,
    });
    expect(holders.json()._embedded.users.map((user: { id: string }) => user.id)).toContain(userId);
  });
});
