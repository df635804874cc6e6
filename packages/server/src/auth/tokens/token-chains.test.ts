import { TOKEN_LIFETIME_SECONDS } from '@berth/core';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokens } from '../../db/schema.ts';
import { STRONG_PASSWORD, type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

/** A token as the tests hold it: its id, bearer and (when one was set) its session cookie header. */
interface Held {
  id: string;
  token: string;
  cookie: string;
  expiresAt: number;
}

function held(response: LightMyRequestResponse): Held {
  const body = response.json();
  const cookie = response.cookies.find((c) => c.name === 'berth_session');
  return {
    id: body.id,
    token: body.access_token,
    cookie: cookie ? `berth_session=${cookie.value}` : '',
    expiresAt: Date.parse(body.expires_at),
  };
}

async function exchange(
  user: TestUser,
  from: { token: string; cookie?: string },
  options: { expiresIn?: number; scope?: string } = {},
): Promise<Held> {
  const response = await t.call('POST', '/auth/tokens', {
    cookie: from.cookie,
    body: {
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      actor_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      actor_token: from.token,
      subject_token_type: 'berth:user:href',
      subject_token: `http://berth.test/auth/users/${user.id}`,
      scope: options.scope ?? 'manage',
      sso_organization: '',
      expires_in: options.expiresIn ?? TOKEN_LIFETIME_SECONDS.exchange,
      _source: 'app-ui',
    },
  });
  expect(response.statusCode).toBe(201);
  return held(response);
}

async function newSession(user: TestUser): Promise<Held> {
  const response = await t.login(user.email, STRONG_PASSWORD);
  expect(response.statusCode).toBe(201);
  return held(response);
}

async function elevated(user: TestUser): Promise<Held> {
  const response = await t.login(user.email, STRONG_PASSWORD, 'elevated');
  expect(response.statusCode).toBe(201);
  return held(response);
}

const me = async (user: TestUser, token: string) =>
  (await t.call('GET', `/auth/users/${user.id}`, { token })).statusCode;
const restore = async (cookie: string) => (await t.call('GET', '/auth/current_token', { cookie })).statusCode;
const userHeld = (user: TestUser): Held => ({
  id: user.tokenId,
  token: user.token,
  cookie: user.sessionCookie,
  expiresAt: 0,
});

describe('token exchange binds the new token to the one it came from', () => {
  it('never outlives its parent nor a password login, and records the parent', async () => {
    const user = await t.signUp();
    const session = await newSession(user);
    const child = await exchange(user, session, { expiresIn: 86090 });
    expect(child.expiresAt).toBeLessThanOrEqual(session.expiresAt);
    expect(child.expiresAt - Date.now()).toBeLessThanOrEqual(TOKEN_LIFETIME_SECONDS.session * 1000);
    const [row] = await t.db.select().from(tokens).where(eq(tokens.id, child.id));
    expect(row?.parentId).toBe(session.id);

    // An elevated token lasts 30 minutes, and so does whatever is exchanged from it.
    const short = await elevated(user);
    const fromShort = await exchange(user, short);
    expect(fromShort.expiresAt).toBeLessThanOrEqual(short.expiresAt);
    expect(fromShort.expiresAt - Date.now()).toBeLessThanOrEqual(TOKEN_LIFETIME_SECONDS.elevated * 1000);
  });

  it('cannot extend a lifetime by exchanging an exchanged token again', async () => {
    const user = await t.signUp();
    const session = await newSession(user);
    const tenMinutes = await exchange(user, session, { expiresIn: 600 });
    expect(tenMinutes.expiresAt - Date.now()).toBeLessThanOrEqual(600_000);
    const again = await exchange(user, tenMinutes, { expiresIn: 86090 });
    expect(again.expiresAt).toBeLessThanOrEqual(tenMinutes.expiresAt);
    const thrice = await exchange(user, again, { expiresIn: 86090 });
    expect(thrice.expiresAt).toBeLessThanOrEqual(tenMinutes.expiresAt);
    const restored = await t.call('GET', '/auth/current_token', { cookie: thrice.cookie });
    expect(restored.statusCode).toBe(200);
    expect(restored.json().id).toBe(thrice.id);
    expect(restored.json().expires_in).toBeLessThanOrEqual(600);
  });

  it('moves the session cookie to the new token; the old cookie no longer restores the parent', async () => {
    const user = await t.signUp();
    const child = await exchange(user, userHeld(user));
    const restored = await t.call('GET', '/auth/current_token', { cookie: child.cookie });
    expect(restored.statusCode).toBe(200);
    expect(restored.json().id).toBe(child.id);
    expect(await restore(user.sessionCookie)).toBe(401);
    // The parent's bearer itself is still valid: only its cookie moved.
    expect(await me(user, user.token)).toBe(200);
  });

  it('refuses a token whose ancestor is revoked even when the revocation missed it', async () => {
    const user = await t.signUp();
    const child = await exchange(user, userHeld(user));
    const grandchild = await exchange(user, child);
    // As if the parent were revoked while the child was being made: only the parent row is marked.
    await t.db.update(tokens).set({ revokedAt: new Date() }).where(eq(tokens.id, user.tokenId));
    expect(await me(user, child.token)).toBe(401);
    expect(await me(user, grandchild.token)).toBe(401);
    expect(await restore(grandchild.cookie)).toBe(401);
  });
});

describe('DELETE /tokens/:id revokes the chain below the token', () => {
  it('logging out the parent revokes children and grandchildren and clears their cookie', async () => {
    const user = await t.signUp();
    const child = await exchange(user, userHeld(user));
    const grandchild = await exchange(user, child);
    const sibling = await exchange(user, { token: user.token }, { scope: 'read' });
    const logout = await t.call('DELETE', `/auth/tokens/${user.tokenId}`, {
      token: user.token,
      cookie: grandchild.cookie,
    });
    expect(logout.statusCode).toBe(204);
    // The browser's cookie was the grandchild's session, which ended with the parent.
    expect(logout.cookies.find((c) => c.name === 'berth_session')).toMatchObject({ value: '', maxAge: 0 });
    for (const token of [user.token, child.token, grandchild.token, sibling.token]) {
      const response = await t.call('GET', `/auth/users/${user.id}`, { token });
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe('Access token has been revoked');
    }
    expect(await restore(child.cookie)).toBe(401);
    expect(await restore(grandchild.cookie)).toBe(401);
    // A chain once revoked cannot be exchanged again.
    const denied = await t.call('POST', '/auth/tokens', {
      body: {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        actor_token: grandchild.token,
        subject_token_type: 'berth:user:href',
        subject_token: `http://berth.test/auth/users/${user.id}`,
        scope: 'manage',
      },
    });
    expect(denied.statusCode).toBe(401);
  });

  it('revoking a child leaves its parent alive but ends the child’s own descendants', async () => {
    const user = await t.signUp();
    const session = await newSession(user);
    const child = await exchange(user, session);
    const grandchild = await exchange(user, child);
    const logout = await t.call('DELETE', `/auth/tokens/${child.id}`, { token: child.token });
    expect(logout.statusCode).toBe(204);
    expect(await me(user, session.token)).toBe(200);
    expect(await me(user, child.token)).toBe(401);
    expect(await me(user, grandchild.token)).toBe(401);
    expect(await restore(grandchild.cookie)).toBe(401);
    // The parent can still start a new branch.
    const fresh = await exchange(user, session);
    expect(await me(user, fresh.token)).toBe(200);
  });

  it('404 for another user’s token or its derived token (which stay alive), 401 without a token', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    const othersChild = await exchange(other, userHeld(other));
    for (const id of [other.tokenId, othersChild.id]) {
      expect((await t.call('DELETE', `/auth/tokens/${id}`, { token: user.token })).statusCode).toBe(404);
      expect((await t.call('DELETE', `/auth/tokens/${id}`)).statusCode).toBe(401);
    }
    expect(await me(other, other.token)).toBe(200);
    expect(await me(other, othersChild.token)).toBe(200);
    expect(await restore(othersChild.cookie)).toBe(200);
  });
});

/**
 * The user's browser ("current": a login whose token was exchanged once, as the console does after
 * creating an organization, plus an elevated token), another place the user is signed in ("elsewhere":
 * a login, a token exchanged from it and one exchanged from that, each with a live cookie) and another user.
 */
async function twoBrowsers() {
  const user = await t.signUp();
  const current = await exchange(user, userHeld(user));
  const elevation = await elevated(user);
  const elsewhere = await newSession(user);
  // Exchanged without the cookie, so all three cookies of that browser restore a session.
  const elsewhereChild = await exchange(user, { token: elsewhere.token });
  const elsewhereGrandchild = await exchange(user, { token: elsewhereChild.token });
  const other = await t.signUp();
  return { user, current, elevation, elsewhere, elsewhereChild, elsewhereGrandchild, other };
}

type Browsers = Awaited<ReturnType<typeof twoBrowsers>>;

async function expectOnlyCurrentBrowser(b: Browsers) {
  for (const held of [b.elsewhere, b.elsewhereChild, b.elsewhereGrandchild]) {
    expect(await me(b.user, held.token)).toBe(401);
    expect(await restore(held.cookie)).toBe(401);
  }
  // The login token the current session was exchanged from ends too (a stolen copy of it included).
  expect(await me(b.user, b.user.token)).toBe(401);
  expect(await me(b.user, b.current.token)).toBe(200);
  expect(await me(b.user, b.elevation.token)).toBe(200);
  const restored = await t.call('GET', '/auth/current_token', { cookie: b.current.cookie });
  expect(restored.statusCode).toBe(200);
  expect(restored.json().id).toBe(b.current.id);
  // Another user's sessions are not touched.
  expect(await me(b.other, b.other.token)).toBe(200);
  expect(await restore(b.other.sessionCookie)).toBe(200);
}

async function expectAllAlive(b: Browsers) {
  for (const held of [b.current, b.elsewhere, b.elsewhereChild, b.elsewhereGrandchild]) {
    expect(await me(b.user, held.token)).toBe(200);
    expect(await restore(held.cookie)).toBe(200);
  }
}

describe('a password change ends every other session', () => {
  const changePassword = (b: Browsers, options: { token?: string; cookie?: string; userId?: string }) =>
    t.call('PATCH', `/auth/users/${options.userId ?? b.user.id}`, {
      token: options.token,
      cookie: options.cookie,
      body: { type: 'update-password', password: 'Another-pass7' },
    });

  it('keeps the caller’s session and elevated token; other tokens, derived ones and cookies get 401', async () => {
    const b = await twoBrowsers();
    const response = await changePassword(b, { token: b.elevation.token, cookie: b.current.cookie });
    expect(response.statusCode).toBe(200);
    await expectOnlyCurrentBrowser(b);
    // What derives from the kept session after the change still works.
    expect(await me(b.user, (await exchange(b.user, b.current)).token)).toBe(200);
  });

  it('without a session cookie only the elevated token of the request stays', async () => {
    const b = await twoBrowsers();
    expect((await changePassword(b, { token: b.elevation.token })).statusCode).toBe(200);
    expect(await me(b.user, b.elevation.token)).toBe(200);
    for (const held of [b.current, b.elsewhere, b.elsewhereChild, b.elsewhereGrandchild]) {
      expect(await me(b.user, held.token)).toBe(401);
      expect(await restore(held.cookie)).toBe(401);
    }
    expect(await me(b.user, b.user.token)).toBe(401);
    expect(await restore(b.user.sessionCookie)).toBe(401);
  });

  it('denied without a token (401), without elevation (403) or for another user (404): nothing ends', async () => {
    const b = await twoBrowsers();
    expect((await changePassword(b, { cookie: b.current.cookie })).statusCode).toBe(401);
    const notElevated = await changePassword(b, { token: b.current.token, cookie: b.current.cookie });
    expect(notElevated.statusCode).toBe(403);
    expect(notElevated.json().error).toBe('access_denied');
    const otherUser = await changePassword(b, { token: b.elevation.token, userId: b.other.id });
    expect(otherUser.statusCode).toBe(404);
    await expectAllAlive(b);
    expect(await me(b.other, b.other.token)).toBe(200);
    expect((await t.login(b.user.email, STRONG_PASSWORD)).statusCode).toBe(201);
  });
});

describe('an email change ends every other session', () => {
  async function requestChange(b: Browsers) {
    const email = t.uniqueEmail('moved');
    const response = await t.call('POST', `/auth/users/${b.user.id}/email_verification_challenges`, {
      token: b.elevation.token,
      cookie: b.current.cookie,
      body: { email },
    });
    expect(response.statusCode).toBe(204);
    // Asking is not changing: every session still works until the link is followed.
    await expectAllAlive(b);
    return { email, ...(await t.verificationLink(email)) };
  }

  const complete = (link: { challengeId: string; code: string }, from: { token?: string; cookie?: string }) =>
    t.call('POST', '/auth/verifications', {
      token: from.token,
      cookie: from.cookie,
      body: {
        type: 'email_verification_challenge',
        challenge_id: link.challengeId,
        verification_code: link.code,
      },
    });

  it('keeps the browser that follows the link; other tokens, derived ones and cookies get 401', async () => {
    const b = await twoBrowsers();
    const link = await requestChange(b);
    expect((await complete(link, { token: b.current.token, cookie: b.current.cookie })).statusCode).toBe(204);
    // The elevated token is not this request's, so it ends too.
    expect(await me(b.user, b.elevation.token)).toBe(401);
    for (const held of [b.elsewhere, b.elsewhereChild, b.elsewhereGrandchild]) {
      expect(await me(b.user, held.token)).toBe(401);
      expect(await restore(held.cookie)).toBe(401);
    }
    const restored = await t.call('GET', '/auth/current_token', { cookie: b.current.cookie });
    expect(restored.statusCode).toBe(200);
    const user = await t.call('GET', `/auth/users/${b.user.id}`, { token: restored.json().access_token });
    expect(user.json().email).toBe(link.email);
    expect(await restore(b.other.sessionCookie)).toBe(200);
  });

  it('a link followed without a session ends every session of the user', async () => {
    const b = await twoBrowsers();
    const link = await requestChange(b);
    expect((await complete(link, {})).statusCode).toBe(204);
    for (const held of [b.current, b.elevation, b.elsewhere, b.elsewhereChild, b.elsewhereGrandchild]) {
      expect(await me(b.user, held.token)).toBe(401);
    }
    expect(await restore(b.current.cookie)).toBe(401);
    expect(await me(b.other, b.other.token)).toBe(200);
  });

  it('another user’s session following the link keeps nothing of this user', async () => {
    const b = await twoBrowsers();
    const link = await requestChange(b);
    expect((await complete(link, { token: b.other.token, cookie: b.other.sessionCookie })).statusCode).toBe(
      204,
    );
    expect(await me(b.user, b.current.token)).toBe(401);
    expect(await restore(b.current.cookie)).toBe(401);
    expect(await me(b.other, b.other.token)).toBe(200);
  });

  it('denied without a token (401), without elevation (403) or for another user (404): nothing ends', async () => {
    const b = await twoBrowsers();
    const url = `/auth/users/${b.user.id}/email_verification_challenges`;
    const email = t.uniqueEmail('denied');
    expect((await t.call('POST', url, { body: { email } })).statusCode).toBe(401);
    const notElevated = await t.call('POST', url, { token: b.current.token, body: { email } });
    expect(notElevated.statusCode).toBe(403);
    const otherUser = await t.call('POST', `/auth/users/${b.other.id}/email_verification_challenges`, {
      token: b.elevation.token,
      body: { email },
    });
    expect(otherUser.statusCode).toBe(404);
    await expectAllAlive(b);
    // A plain re-verification of the current address is no change of address.
    const resend = await t.call('POST', url, { token: b.current.token, body: {} });
    expect(resend.statusCode).toBe(204);
    expect((await complete(await t.verificationLink(b.user.email), {})).statusCode).toBe(204);
    await expectAllAlive(b);
  });
});

describe('POST /tokens/revoke_all_accessible ends every other session', () => {
  const revokeAll = (token: string | undefined, except: string[], cookie?: string) =>
    t.call('POST', '/auth/tokens/revoke_all_accessible', {
      token,
      cookie,
      body: { except_tokens: except.map((id) => `http://berth.test/auth/tokens/${id}`) },
    });

  it('keeps the listed tokens and what derives from them; others, derived ones and cookies get 401', async () => {
    const b = await twoBrowsers();
    const response = await revokeAll(b.elevation.token, [b.current.id, b.elevation.id], b.current.cookie);
    expect(response.statusCode).toBe(204);
    expect(response.cookies.find((c) => c.name === 'berth_session')).toBeUndefined();
    await expectOnlyCurrentBrowser(b);
  });

  it('a kept token is re-rooted: the earlier token it came from ends with the others', async () => {
    const user = await t.signUp();
    // Exchanged without the browser's cookie (an API client), so the parent's cookie was not moved.
    const current = await exchange(user, { token: user.token });
    const below = await exchange(user, { token: current.token });
    const sibling = await exchange(user, { token: user.token });
    expect(await restore(user.sessionCookie)).toBe(200);
    const elevation = await elevated(user);
    expect((await revokeAll(elevation.token, [current.id, elevation.id])).statusCode).toBe(204);
    expect(await me(user, current.token)).toBe(200);
    expect(await me(user, below.token)).toBe(200);
    expect(await restore(current.cookie)).toBe(200);
    expect(await restore(below.cookie)).toBe(200);
    expect(await me(user, sibling.token)).toBe(401);
    expect(await restore(sibling.cookie)).toBe(401);
    expect(await restore(user.sessionCookie)).toBe(401);
    // The login token the kept one was exchanged from is over too: a stolen copy is worth nothing.
    expect(await me(user, user.token)).toBe(401);
  });

  it('clears the cookie of the request when its session was not kept', async () => {
    const b = await twoBrowsers();
    const response = await revokeAll(b.elevation.token, [b.elevation.id], b.elsewhereGrandchild.cookie);
    expect(response.statusCode).toBe(204);
    expect(response.cookies.find((c) => c.name === 'berth_session')).toMatchObject({ value: '', maxAge: 0 });
    expect(await me(b.user, b.current.token)).toBe(401);
    expect(await me(b.user, b.elevation.token)).toBe(200);
  });

  it('denied without a token (401) or elevation (403); another user’s ids protect nothing of theirs', async () => {
    const b = await twoBrowsers();
    expect((await revokeAll(undefined, [])).statusCode).toBe(401);
    const notElevated = await revokeAll(b.current.token, [b.current.id]);
    expect(notElevated.statusCode).toBe(403);
    expect(notElevated.json().error).toBe('access_denied');
    await expectAllAlive(b);
    // Listing another user's token (or an id that is no token) keeps nothing and touches nothing of theirs.
    const response = await revokeAll(b.elevation.token, [b.other.tokenId, 'not-a-token', b.elevation.id]);
    expect(response.statusCode).toBe(204);
    expect(await me(b.user, b.current.token)).toBe(401);
    expect(await me(b.other, b.other.token)).toBe(200);
    expect(await restore(b.other.sessionCookie)).toBe(200);
  });
});
