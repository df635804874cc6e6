import { passwordMessages } from '@berth/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, type TestApp, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const signup = (body: Record<string, unknown>) =>
  t.call('POST', '/auth/users', {
    body: { name: 'Grace Hopper', company: 'Navy', challengeToken: '', origin: 'app', ...body },
  });

describe('POST /users (sign-up)', () => {
  it('creates an unverified user and mails a verification link to the console', async () => {
    const email = t.uniqueEmail('grace');
    const response = await signup({ email, password: STRONG_PASSWORD });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ _type: 'user', email, name: 'Grace Hopper', verified: false });
    const mail = await t.latestMailTo(email);
    expect(mail.subject).toBe('Verify your email for Berth');
    expect(mail.text).toMatch(/http:\/\/berth\.test\/verify\/[0-9a-f-]{36}\/[\w-]+/);
  });

  it.each([
    ['short1A', passwordMessages.tooShort],
    ['alllowercase1', passwordMessages.uppercase],
    ['ALLUPPERCASE1', passwordMessages.lowercase],
    ['NoDigitsOrSpecials', passwordMessages.digitOrSpecial],
    [`Aa1${'x'.repeat(70)}`, passwordMessages.tooLong],
    [`Aa1${'é'.repeat(35)}`, 'Too long: Passwords are limited to 72 bytes'],
  ])('refuses the password %j with 422 "%s"', async (password, message) => {
    const response = await signup({ email: t.uniqueEmail(), password });
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toBe('unprocessable_entity');
    expect(response.json().details.password).toContain(message);
  });

  it.each([
    [{ email: '' }, 'Email must not be empty'],
    [{ email: 'not-an-email' }, 'Must provide valid email'],
    [{ name: 'Bobby; DROP TABLE' }, 'Cannot have symbols in name'],
    [{ name: '   ' }, 'Name must not be empty'],
  ])('refuses %j with 422 "%s"', async (fields, message) => {
    const response = await signup({ email: t.uniqueEmail(), password: STRONG_PASSWORD, ...fields });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(message);
  });

  it('refuses an email that is already taken, whatever its case, and keeps the first account', async () => {
    const email = t.uniqueEmail('taken');
    expect((await signup({ email, password: STRONG_PASSWORD })).statusCode).toBe(201);
    const again = await signup({ email: email.toUpperCase(), password: STRONG_PASSWORD });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('An account with this email already exists');
    expect((await t.login(email, STRONG_PASSWORD)).statusCode).toBe(201);
  });

  it('refuses an invitation code that matches no invitation', async () => {
    const response = await signup({
      email: t.uniqueEmail(),
      password: STRONG_PASSWORD,
      challengeToken: 'abc',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('This invitation code is invalid or has expired');
  });
});

describe('POST /claims/user', () => {
  it('answers {} for a free email and 422 for a taken one', async () => {
    const email = t.uniqueEmail();
    const free = await t.call('POST', '/auth/claims/user', {
      body: { name: 'A B', email, password: STRONG_PASSWORD, challengeToken: '' },
    });
    expect(free.statusCode).toBe(200);
    expect(free.json()).toEqual({});
    await t.signUp({ email });
    const taken = await t.call('POST', '/auth/claims/user', {
      body: { name: 'A B', email, password: STRONG_PASSWORD, challengeToken: '' },
    });
    expect(taken.statusCode).toBe(422);
  });
});

describe('GET, PATCH and PUT /users/:id', () => {
  it('returns the caller, and 404 for another user’s id', async () => {
    const user = await t.signUp({ name: 'Alan Turing' });
    const other = await t.signUp();
    const me = await t.call('GET', `/auth/users/${user.id}`, { token: user.token });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      id: user.id,
      name: 'Alan Turing',
      verified: true,
      _links: { self: {} },
    });
    expect((await t.call('GET', `/auth/users/${other.id}`, { token: user.token })).statusCode).toBe(404);
    expect((await t.call('GET', '/auth/users/not-a-uuid', { token: user.token })).statusCode).toBe(404);
    expect((await t.call('GET', `/auth/users/${user.id}`)).statusCode).toBe(401);
  });

  it('renames the caller and validates the name', async () => {
    const user = await t.signUp();
    const renamed = await t.call('PATCH', `/auth/users/${user.id}`, {
      token: user.token,
      body: { name: 'New Name' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('New Name');
    const bad = await t.call('PATCH', `/auth/users/${user.id}`, {
      token: user.token,
      body: { name: 'x<y>' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe('Cannot have symbols in name');
  });

  it('changes the password only with an elevated token', async () => {
    const user = await t.signUp();
    const body = { type: 'update-password', password: 'Another-pass7' };
    const denied = await t.call('PATCH', `/auth/users/${user.id}`, { token: user.token, body });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toBe('access_denied');
    const elevated = await t.elevate(user);
    const weak = await t.call('PATCH', `/auth/users/${user.id}`, {
      token: elevated,
      body: { type: 'update-password', password: 'weak' },
    });
    expect(weak.statusCode).toBe(422);
    expect((await t.call('PATCH', `/auth/users/${user.id}`, { token: elevated, body })).statusCode).toBe(200);
    expect((await t.login(user.email, 'Another-pass7')).statusCode).toBe(201);
    expect((await t.login(user.email, STRONG_PASSWORD)).statusCode).toBe(401);
  });

  it('selects an organization the caller belongs to, and refuses one they do not', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    const mine = await t.createOrganization(user, 'Mine');
    const theirs = await t.createOrganization(other, 'Theirs');
    const ok = await t.call('PUT', `/auth/users/${user.id}`, {
      token: user.token,
      body: { selected_organization_id: mine.id },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()._links.selected_organization.href).toBe(
      `http://berth.test/auth/organizations/${mine.id}`,
    );
    const refused = await t.call('PUT', `/auth/users/${user.id}`, {
      token: user.token,
      body: { selected_organization_id: theirs.id },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('You are not a member of that organization');
  });

  it('lists the caller’s roles across organizations', async () => {
    const user = await t.signUp();
    await t.createOrganization(user, 'One');
    const response = await t.call('GET', `/auth/users/${user.id}/roles`, { token: user.token });
    expect(response.statusCode).toBe(200);
    expect(response.json()._embedded.roles.map((r: { type: string }) => r.type)).toEqual(['owner']);
  });
});
