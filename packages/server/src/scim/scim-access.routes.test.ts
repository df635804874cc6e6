import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships, roles } from '../db/schema.ts';
import { addMember } from '../testing/factories.ts';
import {
  ERROR_SCHEMA,
  GROUP_SCHEMA,
  LIST_RESPONSE,
  PATCH_OP,
  type Provisioning,
  scimClient,
  setUpProvisioning,
  USER_SCHEMA,
} from '../testing/scim.ts';
import { ssoToken } from '../testing/sso-sessions.ts';
import { STRONG_PASSWORD, type TestApp, testApp } from '../testing/test-app.ts';

// Who and what /scim/v2 answers: only an organization's provisioning token, only about that
// organization, always in SCIM's shape; and what deprovisioning does to a person's access.

let t: TestApp;
let acme: Provisioning;
let globex: Provisioning;
let scim: ReturnType<typeof scimClient>;

beforeAll(async () => {
  t = await testApp();
  acme = await setUpProvisioning(t, 'Acme');
  globex = await setUpProvisioning(t, 'Globex');
  scim = scimClient(t, acme.token);
});
afterAll(() => t.close());

async function provisionUser(client = scim, userName = t.uniqueEmail('scim')) {
  const response = await client('POST', '/Users', { schemas: [USER_SCHEMA], userName, active: true });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; userName: string };
}

describe('the SCIM token and the other families', () => {
  it('refuses a user’s token on /scim/v2 with a SCIM 401', async () => {
    for (const token of [acme.owner.token, await t.elevate(acme.owner)]) {
      const response = await scimClient(t, token)('GET', '/Users');
      expect(response.statusCode).toBe(401);
      expect(response.headers['content-type']).toBe('application/scim+json; charset=utf-8');
      expect(response.json()).toEqual({
        schemas: [ERROR_SCHEMA],
        status: '401',
        detail: 'A valid SCIM bearer token is required',
      });
    }
  });

  it('refuses the SCIM token on /auth and /api', async () => {
    for (const url of [
      `/auth/users/${acme.owner.id}`,
      '/auth/organizations',
      '/api/accounts',
      '/auth/scim_configurations',
    ]) {
      const response = await t.call('GET', url, { token: acme.token });
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toBe('invalid_token');
    }
    const write = await t.call('POST', '/auth/organizations', {
      token: acme.token,
      body: { name: 'Stolen' },
    });
    expect(write.statusCode).toBe(401);
  });
});

describe('one organization’s provisioning sees nothing of another’s', () => {
  it('lists, reads, changes and deletes only its own users and groups', async () => {
    const theirs = await provisionUser(scimClient(t, globex.token));
    const theirGroup = (
      await scimClient(t, globex.token)('POST', '/Groups', {
        schemas: [GROUP_SCHEMA],
        displayName: 'Globex Ops',
      })
    ).json();

    const list = (await scim('GET', '/Users?count=200')).json();
    expect(list.Resources.map((user: { id: string }) => user.id)).not.toContain(theirs.id);
    const filtered = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${theirs.userName}"`)}`,
    );
    expect(filtered.json().totalResults).toBe(0);
    for (const [method, path] of [
      ['GET', `/Users/${theirs.id}`],
      ['PUT', `/Users/${theirs.id}`],
      ['PATCH', `/Users/${theirs.id}`],
      ['DELETE', `/Users/${theirs.id}`],
      ['GET', `/Groups/${theirGroup.id}`],
      ['PATCH', `/Groups/${theirGroup.id}`],
      ['DELETE', `/Groups/${theirGroup.id}`],
    ] as const) {
      const body =
        method === 'PUT'
          ? { schemas: [USER_SCHEMA], userName: theirs.userName }
          : method === 'PATCH'
            ? { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }
            : undefined;
      const response = await scim(method, path, body);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
    }
    // Still there, untouched, for their own provisioning.
    const still = await scimClient(t, globex.token)('GET', `/Users/${theirs.id}`);
    expect(still.json().active).toBe(true);
    // Their user cannot be put in our groups, nor is their group ours to list.
    const ours = (await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Acme Ops' })).json();
    const adding = await scim('PATCH', `/Groups/${ours.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'add', path: 'members', value: [{ value: theirs.id }] }],
    });
    expect(adding.statusCode).toBe(400);
    expect(adding.json().scimType).toBe('invalidValue');
    const groups = (await scim('GET', '/Groups')).json();
    expect(groups.Resources.map((group: { id: string }) => group.id)).toEqual([ours.id]);
  });

  it('refuses an address another organization’s provisioning manages', async () => {
    const theirs = await provisionUser(scimClient(t, globex.token));
    const response = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: theirs.userName });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ scimType: 'uniqueness' });
  });
});

describe('answers in SCIM’s shape, never the console’s', () => {
  it('answers an unknown path with a SCIM 404, for a browser too, and 401 without a token', async () => {
    for (const path of ['/Nope', '/Users/x/y', '', '/Me']) {
      const response = await scim('GET', path, undefined, { accept: 'text/html' });
      expect(response.statusCode, path).toBe(404);
      expect(response.headers['content-type']).toBe('application/scim+json; charset=utf-8');
      expect(response.json()).toMatchObject({ schemas: [ERROR_SCHEMA], status: '404' });
    }
    const anonymous = await t.app.inject({
      method: 'GET',
      url: '/scim/v2/Users',
      headers: {
        accept: 'text/html,application/xhtml+xml',
        'sec-fetch-mode': 'navigate',
        'sec-fetch-dest': 'document',
      },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['content-type']).toBe('application/scim+json; charset=utf-8');
  });

  it('refuses filters it does not support with 400 invalidFilter', async () => {
    for (const [path, filter] of [
      ['/Users', 'userName gt "a"'],
      ['/Users', 'title eq "Engineer"'],
      ['/Users', 'userName eq 42'],
      ['/Users', 'active eq "yes"'],
      ['/Users', 'userName eq "a" and ('],
      ['/Groups', 'externalId eq "x"'],
      ['/Groups', 'members[display eq "x"]'],
      // An escaped NUL: PostgreSQL text cannot hold it, so it must not reach a query (it was a 500).
      ['/Users', 'userName eq "a\\u0000b"'],
      ['/Groups', 'displayName co "\\u0000"'],
    ]) {
      const response = await scim('GET', `${path}?filter=${encodeURIComponent(filter as string)}`);
      expect(response.statusCode, filter).toBe(400);
      expect(response.json()).toMatchObject({
        schemas: [ERROR_SCHEMA],
        status: '400',
        scimType: 'invalidFilter',
      });
    }
  });

  it('takes application/scim+json and application/json, refuses other bodies in SCIM’s words', async () => {
    const asJson = await scim(
      'POST',
      '/Users',
      { schemas: [USER_SCHEMA], userName: t.uniqueEmail('json') },
      { 'content-type': 'application/json' },
    );
    expect(asJson.statusCode).toBe(201);
    const text = await t.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { authorization: `Bearer ${acme.token}`, 'content-type': 'text/plain' },
      payload: 'userName=x',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ schemas: [ERROR_SCHEMA], status: '415' });
    const broken = await t.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { authorization: `Bearer ${acme.token}`, 'content-type': 'application/scim+json' },
      payload: '{"userName":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({
      schemas: [ERROR_SCHEMA],
      status: '400',
      scimType: 'invalidSyntax',
    });
    const notEmail = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'not-an-email' });
    expect(notEmail.json()).toMatchObject({ status: '400', scimType: 'invalidValue' });
    const missing = await scim('POST', '/Users', { schemas: [USER_SCHEMA], name: { givenName: 'No' } });
    expect(missing.json()).toMatchObject({
      status: '400',
      scimType: 'invalidValue',
      detail: 'userName is required',
    });
    const long = await scim('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: t.uniqueEmail('long'),
      externalId: 'x'.repeat(256),
    });
    expect(long.json()).toMatchObject({ status: '400', scimType: 'invalidValue' });
    const hidden = await scim('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: t.uniqueEmail('rtl'),
      displayName: 'Mallory\u202e',
    });
    expect(hidden.json()).toMatchObject({ status: '400', scimType: 'invalidValue' });
  });

  it('serves discovery: ResourceTypes and Schemas as ListResponses, each by id', async () => {
    const types = (await scim('GET', '/ResourceTypes')).json();
    expect(types.schemas).toEqual([LIST_RESPONSE]);
    expect(types.Resources.map((type: { id: string }) => type.id)).toEqual(['User', 'Group']);
    expect((await scim('GET', '/ResourceTypes/Group')).json().endpoint).toBe('/Groups');
    const schemas = (await scim('GET', '/Schemas')).json();
    expect(schemas.Resources.map((schema: { id: string }) => schema.id)).toEqual([USER_SCHEMA, GROUP_SCHEMA]);
    const user = (await scim('GET', `/Schemas/${USER_SCHEMA}`)).json();
    expect(user.attributes.find((a: { name: string }) => a.name === 'userName')).toMatchObject({
      required: true,
      uniqueness: 'server',
    });
    expect((await scim('POST', '/Bulk', { Operations: [] })).statusCode).toBe(501);
  });
});

describe('paging', () => {
  it('pages with startIndex and count in a stable order, count capped at 200', async () => {
    const client = scimClient(t, globex.token);
    for (let i = 0; i < 4; i += 1) await provisionUser(client);
    const all = (await client('GET', '/Users')).json();
    const ids = all.Resources.map((user: { id: string }) => user.id);
    expect(ids).toEqual([...ids].sort());
    const second = (await client('GET', '/Users?startIndex=2&count=2')).json();
    expect(second).toMatchObject({ totalResults: all.totalResults, startIndex: 2, itemsPerPage: 2 });
    expect(second.Resources.map((user: { id: string }) => user.id)).toEqual(ids.slice(1, 3));
    const none = (await client('GET', '/Users?count=0')).json();
    expect(none).toMatchObject({ totalResults: all.totalResults, itemsPerPage: 0, Resources: [] });
    const past = (await client('GET', `/Users?startIndex=${all.totalResults + 5}`)).json();
    expect(past.Resources).toEqual([]);
    expect((await client('GET', '/Users?count=5000')).json().itemsPerPage).toBe(all.totalResults);
    expect((await client('GET', '/Users?startIndex=0&count=1')).json().startIndex).toBe(1);
    // Integers of any size are clamped, not refused (RFC 7644 §3.4.2.4): a huge count is one page.
    expect((await client('GET', '/Users?count=99999999999')).json().itemsPerPage).toBe(all.totalResults);
    const farPast = await client('GET', '/Users?startIndex=999999999999999999999');
    expect(farPast.statusCode).toBe(200);
    expect(farPast.json()).toMatchObject({ totalResults: all.totalResults, Resources: [] });
    for (const query of ['count=many', 'count=1.5', 'startIndex=1e3']) {
      const bad = await client('GET', `/Users?${query}`);
      expect(bad.json(), query).toMatchObject({ status: '400', scimType: 'invalidValue' });
    }
  });
});

describe('deprovisioning ends access at once', () => {
  it('deactivating a member the IdP adopted ends their memberships and SSO tokens here, only here', async () => {
    const member = await t.signUp({ name: 'Mia Member' });
    await addMember(t.db, { organizationId: acme.organizationId, userId: member.id, name: 'Earlier Team' });
    await addMember(t.db, { organizationId: globex.organizationId, userId: member.id, name: 'Elsewhere' });
    const adopted = await scim('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: member.email.toUpperCase(),
    });
    expect(adopted.statusCode).toBe(201);
    expect(adopted.json()).toMatchObject({ id: member.id, userName: member.email, active: true });
    expect((await t.call('GET', `/auth/users/${member.id}`, { token: member.token })).statusCode).toBe(200);
    const sso = await ssoToken(t, member, acme.organizationId);
    expect((await t.call('GET', `/auth/users/${member.id}`, { token: sso })).statusCode).toBe(200);

    const deactivated = await scim('PATCH', `/Users/${member.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(deactivated.statusCode).toBe(200);
    // Nothing of this organization answers their token any more; their other organization still does
    // (this directory cannot sign them out of an organization it does not run).
    const here = await t.call('GET', `/auth/organizations/${acme.organizationId}/roles`, {
      token: member.token,
    });
    expect([403, 404]).toContain(here.statusCode);
    const there = await t.call('GET', `/auth/organizations/${globex.organizationId}/roles`, {
      token: member.token,
    });
    expect(there.statusCode).toBe(200);
    // The session this organization's identity provider vouched for is over.
    expect((await t.call('GET', `/auth/users/${member.id}`, { token: sso })).statusCode).toBe(401);
    // No role here any more; their other organization keeps them.
    const held = await t.db
      .select({ organizationId: roles.organizationId })
      .from(memberships)
      .innerJoin(roles, eq(memberships.roleId, roles.id))
      .where(eq(memberships.userId, member.id));
    expect(held.map((row) => row.organizationId)).toEqual([globex.organizationId]);
  });

  it('deleting a user ends their tokens; an account provisioning made goes with it', async () => {
    const member = await t.signUp({ name: 'Dora Deleted' });
    await addMember(t.db, { organizationId: acme.organizationId, userId: member.id, name: 'Earlier Team' });
    await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: member.email });
    expect((await scim('DELETE', `/Users/${member.id}`)).statusCode).toBe(204);
    expect((await t.call('GET', `/auth/users/${member.id}`, { token: member.token })).statusCode).toBe(401);
    // A member's own account stays theirs: they can still sign in, to no organization of ours.
    expect((await t.login(member.email, STRONG_PASSWORD)).statusCode).toBe(201);

    const made = await provisionUser();
    expect((await scim('DELETE', `/Users/${made.id}`)).statusCode).toBe(204);
    // The IdP may provision the address again, as a new user.
    const again = await provisionUser(scim, made.userName);
    expect(again.id).not.toBe(made.id);
  });

  it('gives a provisioned account no password anyone knows', async () => {
    const made = await provisionUser();
    const login = await t.login(made.userName, STRONG_PASSWORD);
    expect(login.statusCode).toBe(401);
  });
});

describe('who the IdP may take in', () => {
  it('refuses an account of someone who is not a member (they join by invitation first)', async () => {
    const stranger = await t.signUp();
    const response = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: stranger.email });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ scimType: 'uniqueness' });
    expect(response.json().detail).toContain('not a member of this organization');
    expect((await t.call('GET', `/auth/users/${stranger.id}`, { token: stranger.token })).statusCode).toBe(
      200,
    );
  });

  it('does not move an adopted member’s address, and keeps the last Account Owner', async () => {
    const adopted = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: acme.owner.email });
    expect(adopted.statusCode).toBe(201);
    const moved = await scim('PATCH', `/Users/${acme.owner.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', path: 'userName', value: t.uniqueEmail('takeover') }],
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().scimType).toBe('mutability');
    const deactivated = await scim('PATCH', `/Users/${acme.owner.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(deactivated.statusCode).toBe(400);
    expect(deactivated.json().detail).toContain('last Account Owner');
    // Nothing changed: still active, still signed in.
    expect((await scim('GET', `/Users/${acme.owner.id}`)).json().active).toBe(true);
    expect((await t.call('GET', '/auth/organizations', { token: acme.owner.token })).statusCode).toBe(200);
  });

  it('does not move the address of an account it made once that account joined another organization', async () => {
    const made = await provisionUser();
    await addMember(t.db, { organizationId: globex.organizationId, userId: made.id, name: 'Joined Later' });
    const moved = await scim('PATCH', `/Users/${made.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', path: 'userName', value: t.uniqueEmail('takeover') }],
    });
    // A reset mailed to the new address would hand Globex's member to whoever holds Acme's token.
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({ status: '400', scimType: 'mutability' });
    expect((await scim('GET', `/Users/${made.id}`)).json().userName).toBe(made.userName);
    // Its case may still follow the IdP: the address stays the same.
    const recased = await scim('PATCH', `/Users/${made.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', path: 'userName', value: made.userName.toUpperCase() }],
    });
    expect(recased.statusCode).toBe(200);
  });

  it('answers 404 for ids that name nothing, UUID or not', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', '1']) {
      expect((await scim('GET', `/Users/${id}`)).statusCode).toBe(404);
      expect((await scim('GET', `/Groups/${id}`)).statusCode).toBe(404);
    }
  });
});
