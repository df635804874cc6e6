import { decodeTokenClaims, ELEVATION_WINDOW_SECONDS, SESSION_ELEVATION_GRANT } from '@berth/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { STRONG_PASSWORD, type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';

// Issue 41: the sudo window. An elevation with credentials, made with a session's bearer, lets that same
// browser session get elevated tokens without credentials for 15 minutes (grant `session_elevation`).

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

interface Session {
  token: string;
  tokenId: string;
  cookie: string;
}

const sessionOf = (user: TestUser): Session => ({
  token: user.token,
  tokenId: user.tokenId,
  cookie: user.sessionCookie,
});

/** A second browser session of the same user (another login). */
async function anotherSession(user: TestUser): Promise<Session> {
  const response = await t.login(user.email, STRONG_PASSWORD);
  expect(response.statusCode).toBe(201);
  const cookie = response.cookies.find((c) => c.name === 'berth_session');
  return {
    token: response.json().access_token,
    tokenId: response.json().id,
    cookie: `berth_session=${cookie?.value}`,
  };
}

/** The console's elevation (contract §3.2): credentials, the session's bearer, no cookies. */
async function elevateWithPassword(user: TestUser, session: Session) {
  const response = await t.call('POST', '/auth/tokens', {
    token: session.token,
    body: {
      username: user.email,
      password: STRONG_PASSWORD,
      otp_token: '',
      grant_type: 'password',
      scope: 'elevated',
      expires_in: 1800,
    },
  });
  expect(response.statusCode).toBe(201);
  return response.json().access_token as string;
}

/** Token exchange for the user's own token (contract §3.2 a): the session moves to the new token. */
async function exchange(session: Session, scope: 'manage' | 'read'): Promise<Session> {
  const userHref = decodeTokenClaims(session.token)?.sub ?? '';
  const response = await t.call('POST', '/auth/tokens', {
    token: session.token,
    cookie: session.cookie,
    body: {
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      actor_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      actor_token: session.token,
      subject_token_type: 'berth:user:href',
      subject_token: userHref,
      scope,
      expires_in: 86090,
    },
  });
  expect(response.statusCode).toBe(201);
  const cookie = response.cookies.find((c) => c.name === 'berth_session');
  return {
    token: response.json().access_token,
    tokenId: response.json().id,
    cookie: `berth_session=${cookie?.value}`,
  };
}

function fromWindow(options: { token?: string; cookie?: string; body?: Record<string, unknown> }) {
  return t.call('POST', '/auth/tokens', {
    token: options.token,
    cookie: options.cookie,
    body: { grant_type: SESSION_ELEVATION_GRANT, scope: 'elevated', ...options.body },
  });
}

const fromSession = (session: Session) => fromWindow({ token: session.token, cookie: session.cookie });

function expectRefused(response: Awaited<ReturnType<typeof fromWindow>>) {
  expect(response.statusCode).toBe(403);
  expect(response.json()).toMatchObject({
    code: 403,
    error: 'access_denied',
    message: 'Re-enter your credentials to continue',
  });
}

describe('POST /tokens grant session_elevation', () => {
  it('gives the elevated session a fresh elevated token without credentials, usable where elevation is needed', async () => {
    const user = await t.signUp();
    const session = sessionOf(user);
    await elevateWithPassword(user, session);

    const response = await fromSession(session);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ _type: 'token', scope: 'elevated', token_type: 'bearer' });
    expect(body._links.user.href).toBe(`http://berth.test/auth/users/${user.id}`);
    // Within the window: never longer than what is left of it.
    expect(body.expires_in).toBeLessThanOrEqual(ELEVATION_WINDOW_SECONDS);
    expect(body.expires_in).toBeGreaterThan(ELEVATION_WINDOW_SECONDS - 60);
    expect(decodeTokenClaims(body.access_token)?.scope).toBe('elevated');
    // The grant sets no cookie: the session stays the one it was.
    expect(response.cookies).toEqual([]);

    const devices = await t.call('GET', `/auth/users/${user.id}/u2f_devices`, { token: body.access_token });
    expect(devices.statusCode).toBe(200);
  });

  it('is refused to a session that never elevated, and after an elevation made without its bearer', async () => {
    const user = await t.signUp();
    expectRefused(await fromSession(sessionOf(user)));
    // An elevation that names no session (no bearer) opens no window.
    await t.elevate(user);
    expectRefused(await fromSession(sessionOf(user)));
  });

  it('lasts 15 minutes from the elevation, and using it does not extend it', async () => {
    const user = await t.signUp();
    const session = sessionOf(user);
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    await elevateWithPassword(user, session);

    vi.setSystemTime(start + 10 * 60_000);
    const used = await fromSession(session);
    expect(used.statusCode).toBe(201);
    expect(used.json().expires_in).toBeLessThanOrEqual(5 * 60);
    expect(used.json().expires_in).toBeGreaterThan(4 * 60);

    vi.setSystemTime(start + 13 * 60_000 + 30_000);
    const last = await fromSession(session);
    expect(last.statusCode).toBe(201);
    expect(last.json().expires_in).toBeLessThanOrEqual(90);
    // An asked-for shorter lifetime is kept.
    const shorter = await fromWindow({
      token: session.token,
      cookie: session.cookie,
      body: { expires_in: 10 },
    });
    expect(shorter.json().expires_in).toBeLessThanOrEqual(10);

    // In its last minute the window gives nothing: a token that lapses at once would send the console
    // from the page to the elevate page and back; the form asks for the password instead.
    vi.setSystemTime(start + 14 * 60_000 + 30_000);
    expectRefused(await fromSession(session));

    vi.setSystemTime(start + ELEVATION_WINDOW_SECONDS * 1000 + 1000);
    expectRefused(await fromSession(session));

    // A new elevation with credentials opens a new window.
    await elevateWithPassword(user, session);
    expect((await fromSession(session)).statusCode).toBe(201);
  });

  it('is bound to one session: another session, or a bearer and a cookie of two sessions, are refused', async () => {
    const user = await t.signUp();
    const first = sessionOf(user);
    const second = await anotherSession(user);
    await elevateWithPassword(user, first);

    expectRefused(await fromSession(second));
    expectRefused(await fromWindow({ token: first.token, cookie: second.cookie }));
    expectRefused(await fromWindow({ token: second.token, cookie: first.cookie }));
    // Another user's session with this user's cookie.
    const other = await t.signUp();
    expectRefused(await fromWindow({ token: other.token, cookie: first.cookie }));
    expect((await fromSession(first)).statusCode).toBe(201);
  });

  it('needs both the cookie and the bearer: a stolen bearer alone cannot use it', async () => {
    const user = await t.signUp();
    const session = sessionOf(user);
    await elevateWithPassword(user, session);

    expectRefused(await fromWindow({ token: session.token }));
    const cookieOnly = await fromWindow({ cookie: session.cookie });
    expect(cookieOnly.statusCode).toBe(401);
    expect(cookieOnly.json()).toMatchObject({ code: 401 });
    // An elevated token is no session: it cannot stand in for the bearer.
    const elevated = await elevateWithPassword(user, session);
    expectRefused(await fromWindow({ token: elevated, cookie: session.cookie }));
  });

  it('ends with the session: after logout the session and the tokens it gave are refused', async () => {
    const user = await t.signUp();
    const session = sessionOf(user);
    await elevateWithPassword(user, session);
    const given = (await fromSession(session)).json().access_token as string;

    const logout = await t.call('DELETE', `/auth/tokens/${session.tokenId}`, {
      token: session.token,
      cookie: session.cookie,
    });
    expect(logout.statusCode).toBe(204);
    const after = await fromSession(session);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 401, error: expect.any(String), message: expect.any(String) });
    expect((await t.call('GET', `/auth/users/${user.id}/u2f_devices`, { token: given })).statusCode).toBe(
      401,
    );
  });

  it('ends for the other sessions when the user logs them out, and when the password changes', async () => {
    const user = await t.signUp();
    const first = sessionOf(user);
    await elevateWithPassword(user, first);
    const second = await anotherSession(user);
    const secondElevated = await elevateWithPassword(user, second);

    const revoke = await t.call('POST', '/auth/tokens/revoke_all_accessible', {
      token: secondElevated,
      cookie: second.cookie,
      body: { except_tokens: [`http://berth.test/auth/tokens/${second.tokenId}`] },
    });
    expect(revoke.statusCode).toBe(204);
    expect((await fromSession(first)).statusCode).toBe(401);
    // The session that asked keeps its own window.
    expect((await fromSession(second)).statusCode).toBe(201);

    const third = await anotherSession(user);
    await elevateWithPassword(user, third);
    const changed = await t.call('PATCH', `/auth/users/${user.id}`, {
      token: (await fromSession(second)).json().access_token,
      cookie: second.cookie,
      body: { type: 'update-password', password: 'Another-pass7' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await fromSession(third)).statusCode).toBe(401);
  });

  it('follows the session into a token exchanged from it, with the same end', async () => {
    const user = await t.signUp();
    const session = sessionOf(user);
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    await elevateWithPassword(user, session);
    vi.setSystemTime(start + 5 * 60_000);
    const next = await exchange(session, 'manage');
    const given = await fromSession(next);
    expect(given.statusCode).toBe(201);
    expect(given.json().expires_in).toBeLessThanOrEqual(10 * 60);
    vi.setSystemTime(start + ELEVATION_WINDOW_SECONDS * 1000 + 1000);
    expectRefused(await fromSession(next));
  });

  it('refuses other scopes, and read-only sessions', async () => {
    const user = await t.signUp();
    const session = sessionOf(user);
    await elevateWithPassword(user, session);
    const manage = await fromWindow({
      token: session.token,
      cookie: session.cookie,
      body: { scope: 'manage' },
    });
    expect(manage.statusCode).toBe(400);
    expect(manage.json()).toMatchObject({ code: 400, error: 'invalid_scope' });
    const long = await fromWindow({
      token: session.token,
      cookie: session.cookie,
      body: { scope: 'x'.repeat(10_000) },
    });
    expect(long.statusCode).toBe(422);

    // A read-only session (exchanged for scope read) neither opens a window nor uses one.
    const read = await exchange(session, 'read');
    await elevateWithPassword(user, read);
    const refused = await fromSession(read);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'access_denied', message: 'This session is read-only' });
  });
});
