import { decodeTokenClaims } from '@berth/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokens } from '../../db/schema.ts';
import { STRONG_PASSWORD, type TestApp, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ loginRateLimit: { perAccount: 3, perAddress: 1000, windowSeconds: 900 } });
});
afterAll(() => t.close());

describe('POST /tokens (password grant)', () => {
  it('issues a manage token with the contract claims and sets the httpOnly session cookie', async () => {
    const user = await t.signUp();
    const response = await t.login(user.email, STRONG_PASSWORD);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ _type: 'token', token_type: 'bearer', scope: 'manage' });
    expect(body.expires_in).toBeGreaterThan(43100);
    expect(body._links.user.href).toBe(`http://berth.test/auth/users/${user.id}`);
    expect(body._links.self.href).toBe(`http://berth.test/auth/tokens/${body.id}`);
    const claims = decodeTokenClaims(body.access_token);
    expect(claims).toMatchObject({
      scope: 'manage',
      sub: `http://berth.test/auth/users/${user.id}`,
      email: user.email,
      id: body.id,
    });
    const cookie = response.cookies.find((c) => c.name === 'berth_session');
    expect(cookie).toMatchObject({ httpOnly: true, path: '/auth', sameSite: 'Lax' });
    // The signed-in hint goes to every path (the console page picks its preloads by it), with no token.
    const hint = response.cookies.find((c) => c.name === 'berth_signed_in');
    expect(hint).toMatchObject({ value: '1', httpOnly: true, path: '/', sameSite: 'Lax' });
    expect(hint?.maxAge).toBe(cookie?.maxAge);
  });

  it('refuses a wrong password with 401 invalid_credentials', async () => {
    const user = await t.signUp();
    const response = await t.login(user.email, 'Wrong-password1');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      code: 401,
      error: 'invalid_credentials',
      message: 'Invalid email or password',
    });
  });

  it('refuses an unknown email the same way as a wrong password', async () => {
    const response = await t.login(t.uniqueEmail('nobody'), STRONG_PASSWORD);
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('invalid_credentials');
  });

  it('answers 422 with the message when the password is missing', async () => {
    const response = await t.call('POST', '/auth/tokens', {
      body: { username: 'a@example.com', password: '', grant_type: 'password', scope: 'manage' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('Password must not be empty');
  });

  it('rate limits failed logins per account', async () => {
    const user = await t.signUp();
    for (let i = 0; i < 3; i += 1) expect((await t.login(user.email, 'Nope-nope-1')).statusCode).toBe(401);
    const limited = await t.login(user.email, STRONG_PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      error: 'rate_limited',
      message: 'Too many failed login attempts. Please wait 15 minutes and try again.',
    });
  });

  it('issues an elevated token for 1800 s without touching the session cookie', async () => {
    const user = await t.signUp();
    const response = await t.login(user.email, STRONG_PASSWORD, 'elevated');
    expect(response.statusCode).toBe(201);
    expect(response.json().scope).toBe('elevated');
    expect(response.json().expires_in).toBeLessThanOrEqual(1800);
    expect(decodeTokenClaims(response.json().access_token)?.scope).toBe('elevated');
    expect(response.cookies.find((c) => c.name === 'berth_session')).toBeUndefined();
  });

  it('refuses unsupported grants and scopes with 400', async () => {
    const grant = await t.call('POST', '/auth/tokens', { body: { grant_type: 'client_credentials' } });
    expect(grant.statusCode).toBe(400);
    expect(grant.json().error).toBe('unsupported_grant_type');
    const user = await t.signUp();
    const scope = await t.login(user.email, STRONG_PASSWORD, 'privileged');
    expect(scope.statusCode).toBe(400);
    expect(scope.json().error).toBe('invalid_scope');
  });

  it('accepts a bearer header on POST /tokens (elevation from a live session)', async () => {
    const user = await t.signUp();
    const response = await t.call('POST', '/auth/tokens', {
      token: user.token,
      body: { username: user.email, password: user.password, grant_type: 'password', scope: 'elevated' },
    });
    expect(response.statusCode).toBe(201);
  });
});

describe('token exchange', () => {
  it('refreshes the caller’s own token and makes it the session', async () => {
    const user = await t.signUp();
    const response = await t.call('POST', '/auth/tokens', {
      token: user.token,
      body: {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        actor_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        actor_token: user.token,
        subject_token_type: 'berth:user:href',
        subject_token: `http://berth.test/auth/users/${user.id}`,
        scope: 'manage',
        sso_organization: '',
        expires_in: 86090,
        _source: 'app-ui',
      },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().scope).toBe('manage');
    expect(response.cookies.find((c) => c.name === 'berth_session')).toBeDefined();
  });

  it('refuses to act as another user', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    const response = await t.call('POST', '/auth/tokens', {
      body: {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        actor_token: user.token,
        subject_token_type: 'aptible:user:href',
        subject_token: `http://berth.test/auth/users/${other.id}`,
        scope: 'manage',
      },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('access_denied');
  });
});

describe('GET /current_token', () => {
  it('restores the session from the cookie, with the same token id', async () => {
    const user = await t.signUp();
    const response = await t.call('GET', '/auth/current_token', { cookie: user.sessionCookie });
    expect(response.statusCode).toBe(200);
    expect(response.json().id).toBe(user.tokenId);
    const me = await t.call('GET', `/auth/users/${user.id}`, { token: response.json().access_token });
    expect(me.statusCode).toBe(200);
  });

  it('answers 401 without a cookie or with a forged one', async () => {
    expect((await t.call('GET', '/auth/current_token')).statusCode).toBe(401);
    const user = await t.signUp();
    const forged = `berth_session=${user.tokenId}.not-the-secret`;
    expect((await t.call('GET', '/auth/current_token', { cookie: forged })).statusCode).toBe(401);
  });
});

describe('refused tokens', () => {
  it('401 without a token, with a forged token, and with an expired token', async () => {
    const user = await t.signUp();
    expect((await t.call('GET', `/auth/users/${user.id}`)).statusCode).toBe(401);
    const [head, payload] = user.token.split('.');
    const forged = `${head}.${payload}.c2lnbmF0dXJl`;
    expect((await t.call('GET', `/auth/users/${user.id}`, { token: forged })).statusCode).toBe(401);
    await t.db
      .update(tokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(tokens.id, user.tokenId));
    const expired = await t.call('GET', `/auth/users/${user.id}`, { token: user.token });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe('Access token has expired');
  });

  it('403 access_denied (never 401) for an expired elevated token', async () => {
    const user = await t.signUp();
    const elevated = await t.login(user.email, STRONG_PASSWORD, 'elevated');
    await t.db
      .update(tokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(tokens.id, elevated.json().id));
    const response = await t.call('GET', `/auth/users/${user.id}`, { token: elevated.json().access_token });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('access_denied');
  });
});

describe('DELETE /tokens/:id and revoke_all_accessible', () => {
  it('logs out: the token is refused everywhere and the session cookie is cleared', async () => {
    const user = await t.signUp();
    const response = await t.call('DELETE', `/auth/tokens/${user.tokenId}`, {
      token: user.token,
      cookie: user.sessionCookie,
    });
    expect(response.statusCode).toBe(204);
    expect(response.cookies.find((c) => c.name === 'berth_session')).toMatchObject({ value: '', maxAge: 0 });
    expect(response.cookies.find((c) => c.name === 'berth_signed_in')).toMatchObject({
      value: '',
      maxAge: 0,
      path: '/',
    });
    const after = await t.call('GET', `/auth/users/${user.id}`, { token: user.token });
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe('Access token has been revoked');
    const gone = await t.call('GET', '/auth/current_token', {
      cookie: `${user.sessionCookie}; berth_signed_in=1`,
    });
    expect(gone.statusCode).toBe(401);
    // A hint that outlived its session (another browser logged it out) is cleared by the session check.
    expect(gone.cookies.find((c) => c.name === 'berth_signed_in')).toMatchObject({ value: '', maxAge: 0 });
  });

  it('gives a session from before the signed-in hint the hint at its next session check', async () => {
    const user = await t.signUp();
    const restored = await t.call('GET', '/auth/current_token', { cookie: user.sessionCookie });
    expect(restored.statusCode).toBe(200);
    expect(restored.cookies.find((c) => c.name === 'berth_signed_in')).toMatchObject({
      value: '1',
      path: '/',
    });
    const again = await t.call('GET', '/auth/current_token', {
      cookie: `${user.sessionCookie}; berth_signed_in=1`,
    });
    expect(again.cookies.find((c) => c.name === 'berth_signed_in')).toBeUndefined();
  });

  it('a read-only session may still log out', async () => {
    const user = await t.signUp();
    const exchanged = await t.call('POST', '/auth/tokens', {
      body: {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        actor_token: user.token,
        subject_token_type: 'berth:user:href',
        subject_token: `http://berth.test/auth/users/${user.id}`,
        scope: 'read',
      },
    });
    const readOnly = exchanged.json();
    expect(readOnly.scope).toBe('read');
    expect(
      (
        await t.call('PATCH', `/auth/users/${user.id}`, {
          token: readOnly.access_token,
          body: { name: 'X Y' },
        })
      ).statusCode,
    ).toBe(403);
    const logout = await t.call('DELETE', `/auth/tokens/${readOnly.id}`, { token: readOnly.access_token });
    expect(logout.statusCode).toBe(204);
  });

  it('404 for another user’s token, 401 without a token', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    expect((await t.call('DELETE', `/auth/tokens/${other.tokenId}`, { token: user.token })).statusCode).toBe(
      404,
    );
    expect((await t.call('DELETE', `/auth/tokens/${other.tokenId}`)).statusCode).toBe(401);
    expect((await t.call('GET', `/auth/users/${other.id}`, { token: other.token })).statusCode).toBe(200);
  });

  it('revokes every other token of the caller, only with an elevated token', async () => {
    const user = await t.signUp();
    const second = (await t.login(user.email, STRONG_PASSWORD)).json();
    const denied = await t.call('POST', '/auth/tokens/revoke_all_accessible', {
      token: user.token,
      body: { except_tokens: [] },
    });
    expect(denied.statusCode).toBe(403);
    const elevated = (await t.login(user.email, STRONG_PASSWORD, 'elevated')).json();
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
    expect((await t.call('GET', `/auth/users/${user.id}`, { token: user.token })).statusCode).toBe(200);
    expect((await t.call('GET', `/auth/users/${user.id}`, { token: second.access_token })).statusCode).toBe(
      401,
    );
  });

  it('answers a malformed token URL with 422 and revokes nothing', async () => {
    const user = await t.signUp();
    const elevated = (await t.login(user.email, STRONG_PASSWORD, 'elevated')).json();
    for (const href of ['not a url', '/auth/tokens/relative', '']) {
      const response = await t.call('POST', '/auth/tokens/revoke_all_accessible', {
        token: elevated.access_token,
        body: { except_tokens: [`http://berth.test/auth/tokens/${elevated.id}`, href] },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        code: 422,
        error: 'unprocessable_entity',
        message: 'except_tokens must list token URLs',
        details: { 'except_tokens.1': ['except_tokens must list token URLs'] },
      });
    }
    expect((await t.call('GET', `/auth/users/${user.id}`, { token: user.token })).statusCode).toBe(200);
    expect((await t.call('GET', `/auth/users/${user.id}`, { token: elevated.access_token })).statusCode).toBe(
      200,
    );
  });

  it('ignores URLs that are not the caller’s tokens', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    const elevated = (await t.login(user.email, STRONG_PASSWORD, 'elevated')).json();
    const response = await t.call('POST', '/auth/tokens/revoke_all_accessible', {
      token: elevated.access_token,
      body: {
        except_tokens: [
          `http://berth.test/auth/tokens/${elevated.id}`,
          `http://berth.test/auth/tokens/${other.tokenId}`,
          `http://berth.test/auth/users/${user.id}`,
          'http://berth.test/auth/tokens/00000000-0000-4000-8000-000000000000',
          'http://berth.test/auth/tokens/not-a-uuid',
        ],
      },
    });
    expect(response.statusCode).toBe(204);
    expect((await t.call('GET', `/auth/users/${user.id}`, { token: elevated.access_token })).statusCode).toBe(
      200,
    );
    expect((await t.call('GET', `/auth/users/${user.id}`, { token: user.token })).statusCode).toBe(401);
    // Another user's token named in the list is neither kept nor touched: it was never the caller's.
    expect((await t.call('GET', `/auth/users/${other.id}`, { token: other.token })).statusCode).toBe(200);
  });

  it('takes no body (all tokens but none kept), with or without a JSON content type', async () => {
    for (const headers of [{}, { 'content-type': 'application/hal+json' }]) {
      const user = await t.signUp();
      const elevated = (await t.login(user.email, STRONG_PASSWORD, 'elevated')).json();
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/tokens/revoke_all_accessible',
        headers: { ...headers, authorization: `Bearer ${elevated.access_token}` },
      });
      expect(response.statusCode).toBe(204);
      expect((await t.call('GET', `/auth/users/${user.id}`, { token: user.token })).statusCode).toBe(401);
    }
  });
});
