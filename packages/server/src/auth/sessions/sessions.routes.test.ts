import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const UA = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0';

async function secondLogin(user: TestUser) {
  const response = await t.call('POST', '/auth/tokens', {
    headers: { 'user-agent': UA },
    body: {
      username: user.email,
      password: user.password,
      otp_token: '',
      grant_type: 'password',
      scope: 'manage',
    },
  });
  expect(response.statusCode).toBe(201);
  const cookie = response.cookies.find((c) => c.name === 'berth_session');
  return {
    id: response.json().id as string,
    token: response.json().access_token as string,
    cookie: `berth_session=${cookie?.value}`,
  };
}

describe('GET /users/:id/sessions', () => {
  it('lists the live sessions with the current one marked, and never the tokens themselves', async () => {
    const user = await t.signUp();
    const other = await secondLogin(user);
    await t.elevate(user);
    const response = await t.call('GET', `/auth/users/${user.id}/sessions`, {
      token: user.token,
      cookie: user.sessionCookie,
    });
    expect(response.statusCode).toBe(200);
    const sessions = response.json()._embedded.sessions as Record<string, unknown>[];
    // The elevated token is not a session of its own.
    expect(sessions.map((s) => s.id).sort()).toEqual([user.tokenId, other.id].sort());
    const current = sessions.find((s) => s.id === user.tokenId);
    const second = sessions.find((s) => s.id === other.id);
    expect(current).toMatchObject({ _type: 'session', current: true, impersonated: false, scope: 'manage' });
    expect(second).toMatchObject({ current: false, user_agent: UA });
    expect(second?.ip_address).toBeTruthy();
    expect(JSON.stringify(sessions)).not.toContain(other.token);
    // Using a token records when.
    expect(current?.last_used_at).toBeTruthy();
  });

  it('denies without a token and for another user', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    expect((await t.call('GET', `/auth/users/${user.id}/sessions`)).statusCode).toBe(401);
    expect((await t.call('GET', `/auth/users/${user.id}/sessions`, { token: other.token })).statusCode).toBe(
      404,
    );
  });
});

describe('revoking sessions', () => {
  it('revokes one other session: its token is refused at once, on every family, and its cookie is dead', async () => {
    const user = await t.signUp();
    const other = await secondLogin(user);
    const revoked = await t.call('DELETE', `/auth/tokens/${other.id}`, { token: user.token });
    expect(revoked.statusCode).toBe(204);
    expect((await t.call('GET', `/auth/users/${user.id}`, { token: other.token })).statusCode).toBe(401);
    expect((await t.call('GET', '/api/accounts', { token: other.token })).statusCode).toBe(401);
    expect((await t.call('GET', '/auth/current_token', { cookie: other.cookie })).statusCode).toBe(401);
    expect((await t.call('GET', `/auth/users/${user.id}`, { token: user.token })).statusCode).toBe(200);
  });

  it('“log out other sessions” keeps the current session and its elevated token, ends the rest', async () => {
    const user = await t.signUp();
    const other = await secondLogin(user);
    const third = await secondLogin(user);
    const elevatedResponse = await t.login(user.email, user.password, 'elevated');
    const elevated = elevatedResponse.json();
    const response = await t.call('POST', '/auth/tokens/revoke_all_accessible', {
      token: elevated.access_token,
      body: {
        except_tokens: [
          `http://berth.test/auth/tokens/${user.tokenId}`,
          `http://berth.test/auth/tokens/${elevated.id}`,
        ],
      },
    });
    expect(response.statusCode).toBe(204);
    for (const gone of [other, third]) {
      expect((await t.call('GET', `/auth/users/${user.id}`, { token: gone.token })).statusCode).toBe(401);
      expect((await t.call('GET', '/auth/current_token', { cookie: gone.cookie })).statusCode).toBe(401);
    }
    expect((await t.call('GET', `/auth/users/${user.id}`, { token: user.token })).statusCode).toBe(200);
    expect((await t.call('GET', '/auth/current_token', { cookie: user.sessionCookie })).statusCode).toBe(200);
    const list = await t.call('GET', `/auth/users/${user.id}/sessions`, { token: user.token });
    expect(list.json()._embedded.sessions.map((s: { id: string }) => s.id)).toEqual([user.tokenId]);
  });

  it('cannot revoke another user’s session', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    const response = await t.call('DELETE', `/auth/tokens/${other.tokenId}`, { token: user.token });
    expect(response.statusCode).toBe(404);
    expect((await t.call('GET', `/auth/users/${other.id}`, { token: other.token })).statusCode).toBe(200);
  });
});

describe('superuser flag', () => {
  it('is not settable through the API', async () => {
    const user = await t.signUp();
    await t.call('PATCH', `/auth/users/${user.id}`, {
      token: user.token,
      body: { name: 'Sneaky', superuser: true },
    });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.superuser).toBe(false);
  });
});
