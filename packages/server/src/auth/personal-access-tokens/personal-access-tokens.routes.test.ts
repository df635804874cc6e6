import { MAX_PERSONAL_ACCESS_TOKENS, personalAccessTokenMessages } from '@berth/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokens } from '../../db/schema.ts';
import { TEST_PUBLIC_URL, type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';

// Personal access tokens (issue 35): named, with a scope and an expiry, made with the password entered
// again, shown once, listed with their last use, revocable, and usable for the API (this file) and git
// (personal-access-tokens.git.test.ts).

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const DAY_MS = 86_400_000;

interface Made {
  id: string;
  accessToken: string;
}

const listOf = (user: TestUser, token = user.token) =>
  t.call('GET', `/auth/users/${user.id}/personal_access_tokens`, { token });

async function make(
  user: TestUser,
  body: Record<string, unknown> = { name: 'CI', scope: 'manage', expires_in_days: 30 },
  elevated?: string,
): Promise<Made> {
  const response = await t.call('POST', `/auth/users/${user.id}/personal_access_tokens`, {
    token: elevated ?? (await t.elevate(user)),
    body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return { id: response.json().id, accessToken: response.json().access_token };
}

const mailsTo = async (email: string) => (await t.mailer.recent(500)).filter((mail) => mail.to === email);

describe('making a personal access token', () => {
  it('answers the token once, with its name, scope and expiry; the list never shows it', async () => {
    const user = await t.signUp();
    const startedAt = Date.now();
    const response = await t.call('POST', `/auth/users/${user.id}/personal_access_tokens`, {
      token: await t.elevate(user),
      body: { name: ' Deploys from CI ', scope: 'manage', expires_in_days: 90 },
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const made = response.json();
    expect(made).toMatchObject({
      _type: 'personal_access_token',
      name: 'Deploys from CI',
      scope: 'manage',
      last_used_at: null,
      expired: false,
      _links: {
        self: { href: `${TEST_PUBLIC_URL}/auth/tokens/${made.id}` },
        user: { href: `${TEST_PUBLIC_URL}/auth/users/${user.id}` },
      },
    });
    expect(made.access_token).toEqual(expect.any(String));
    const expiresAt = Date.parse(made.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(startedAt + 90 * DAY_MS);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 90 * DAY_MS);

    const list = await listOf(user);
    expect(list.statusCode).toBe(200);
    const listed = list.json()._embedded.personal_access_tokens;
    const { access_token: secret, ...shown } = made;
    expect(listed).toEqual([shown]);
    expect(list.body).not.toContain(secret);
  });

  it('is mailed to the owner, as every new credential is (and its revocation too)', async () => {
    const user = await t.signUp();
    const made = await make(user, { name: 'Laptop scripts', scope: 'read', expires_in_days: 7 });
    const added = (await mailsTo(user.email)).find((mail) => mail.subject.includes('access token was made'));
    expect(added?.text).toContain('The personal access token "Laptop scripts" (scope read) was made');
    expect(added?.text).toContain(`${TEST_PUBLIC_URL}/settings/tokens`);
    expect(added?.text).not.toContain(made.accessToken);

    expect((await t.call('DELETE', `/auth/tokens/${made.id}`, { token: user.token })).statusCode).toBe(204);
    const revoked = (await mailsTo(user.email)).find((mail) => mail.subject.includes('was revoked'));
    expect(revoked?.text).toContain(
      'The personal access token "Laptop scripts" of your Berth account was revoked',
    );
  });

  it('is 401 without a token, 403 without the password entered again, 404 for another user', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    const body = { name: 'CI', scope: 'manage', expires_in_days: 30 };
    const url = `/auth/users/${user.id}/personal_access_tokens`;
    expect((await t.call('POST', url, { body })).statusCode).toBe(401);
    expect((await t.call('GET', url)).statusCode).toBe(401);

    const plain = await t.call('POST', url, { token: user.token, body });
    expect(plain.statusCode).toBe(403);
    expect(plain.json()).toMatchObject({
      error: 'access_denied',
      message: 'Re-enter your credentials to continue',
    });

    const elsewhere = await t.call('POST', url, { token: await t.elevate(other), body });
    expect(elsewhere.statusCode).toBe(404);
    expect((await t.call('GET', url, { token: other.token })).statusCode).toBe(404);
    expect((await listOf(user)).json()._embedded.personal_access_tokens).toEqual([]);
  });

  it('refuses a bad body with the rule it breaks', async () => {
    const user = await t.signUp();
    const elevated = await t.elevate(user);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '', scope: 'manage', expires_in_days: 30 }, 'Name must not be empty'],
      [
        { name: 'x'.repeat(101), scope: 'manage', expires_in_days: 30 },
        'Name must be at most 100 characters',
      ],
      [{ name: 'CI', scope: 'elevated', expires_in_days: 30 }, personalAccessTokenMessages.scope],
      [{ name: 'CI', scope: 'manage', expires_in_days: 0 }, personalAccessTokenMessages.expiry],
      [{ name: 'CI', scope: 'manage', expires_in_days: 366 }, personalAccessTokenMessages.expiry],
      [{ name: 'CI', scope: 'manage' }, personalAccessTokenMessages.expiry],
    ];
    for (const [body, message] of cases) {
      const response = await t.call('POST', `/auth/users/${user.id}/personal_access_tokens`, {
        token: elevated,
        body,
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().message).toContain(message);
    }
    expect((await listOf(user)).json()._embedded.personal_access_tokens).toEqual([]);
  });

  it(`holds at most ${MAX_PERSONAL_ACCESS_TOKENS} live tokens; a revoked or expired one makes room`, async () => {
    const user = await t.signUp();
    const now = Date.now();
    const rows = await t.db
      .insert(tokens)
      .values(
        Array.from({ length: MAX_PERSONAL_ACCESS_TOKENS }, (_, i) => ({
          userId: user.id,
          name: `token ${i}`,
          scope: 'read',
          expiresAt: new Date(now + DAY_MS),
        })),
      )
      .returning();
    const elevated = await t.elevate(user);
    const body = { name: 'one more', scope: 'manage', expires_in_days: 30 };
    const url = `/auth/users/${user.id}/personal_access_tokens`;
    const refused = await t.call('POST', url, { token: elevated, body });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(personalAccessTokenMessages.tooMany);

    // An expired token no longer counts (it stays listed, marked, for a while).
    await t.db
      .update(tokens)
      .set({ expiresAt: new Date(now - DAY_MS) })
      .where(eq(tokens.id, rows[0]?.id ?? ''));
    expect((await t.call('POST', url, { token: elevated, body })).statusCode).toBe(201);
    expect((await t.call('POST', url, { token: elevated, body })).statusCode).toBe(422);
    expect((await t.call('DELETE', `/auth/tokens/${rows[1]?.id}`, { token: user.token })).statusCode).toBe(
      204,
    );
    expect((await t.call('POST', url, { token: elevated, body })).statusCode).toBe(201);

    const listed = (await listOf(user)).json()._embedded.personal_access_tokens as {
      id: string;
      expired: boolean;
    }[];
    expect(listed).toHaveLength(MAX_PERSONAL_ACCESS_TOKENS + 1);
    expect(listed.find((token) => token.id === rows[0]?.id)?.expired).toBe(true);
    expect(listed.some((token) => token.id === rows[1]?.id)).toBe(false);
  });

  it('lets only one of several requests at once take the last place', async () => {
    const user = await t.signUp();
    await t.db.insert(tokens).values(
      Array.from({ length: MAX_PERSONAL_ACCESS_TOKENS - 1 }, (_, i) => ({
        userId: user.id,
        name: `token ${i}`,
        scope: 'read',
        expiresAt: new Date(Date.now() + DAY_MS),
      })),
    );
    const elevated = await t.elevate(user);
    const answers = await Promise.all(
      [1, 2, 3].map((n) =>
        t.call('POST', `/auth/users/${user.id}/personal_access_tokens`, {
          token: elevated,
          body: { name: `racer ${n}`, scope: 'manage', expires_in_days: 7 },
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 422, 422]);
    expect((await listOf(user)).json()._embedded.personal_access_tokens).toHaveLength(
      MAX_PERSONAL_ACCESS_TOKENS,
    );
  });

  it('lists a token that expired long ago no more', async () => {
    const user = await t.signUp();
    const made = await make(user);
    await t.db
      .update(tokens)
      .set({ expiresAt: new Date(Date.now() - 31 * DAY_MS) })
      .where(eq(tokens.id, made.id));
    expect((await listOf(user)).json()._embedded.personal_access_tokens).toEqual([]);
  });
});

describe('using a personal access token', () => {
  it('is a bearer for the API, whose last use the list shows', async () => {
    const user = await t.signUp();
    const made = await make(user);
    expect((await listOf(user)).json()._embedded.personal_access_tokens[0].last_used_at).toBeNull();
    const organizations = await t.call('GET', '/auth/organizations', { token: made.accessToken });
    expect(organizations.statusCode).toBe(200);
    const created = await t.call('POST', '/auth/organizations', {
      token: made.accessToken,
      body: { name: 'Made with a token' },
    });
    expect(created.statusCode).toBe(201);
    expect((await t.call('GET', '/api/accounts', { token: made.accessToken })).statusCode).toBe(200);
    const [listed] = (await listOf(user)).json()._embedded.personal_access_tokens;
    expect(Date.parse(listed.last_used_at)).toBeGreaterThan(Date.parse(listed.created_at) - 1);
  });

  it('reads only, with scope read', async () => {
    const user = await t.signUp();
    const made = await make(user, { name: 'Dashboards', scope: 'read', expires_in_days: 7 });
    expect((await t.call('GET', '/api/accounts', { token: made.accessToken })).statusCode).toBe(200);
    const write = await t.call('POST', '/auth/organizations', {
      token: made.accessToken,
      body: { name: 'Nope' },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json().message).toBe(personalAccessTokenMessages.readOnly);
  });

  it('is refused (401) once revoked, and once expired', async () => {
    const user = await t.signUp();
    const revoked = await make(user);
    const expired = await make(user);
    expect((await t.call('GET', '/api/accounts', { token: revoked.accessToken })).statusCode).toBe(200);
    expect((await t.call('DELETE', `/auth/tokens/${revoked.id}`, { token: user.token })).statusCode).toBe(
      204,
    );
    await t.db
      .update(tokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(tokens.id, expired.id));
    for (const token of [revoked.accessToken, expired.accessToken]) {
      expect((await t.call('GET', '/api/accounts', { token })).statusCode).toBe(401);
      expect((await t.call('GET', `/auth/users/${user.id}`, { token })).statusCode).toBe(401);
    }
    // The revoked one is off the list; the expired one is listed as expired.
    const listed = (await listOf(user)).json()._embedded.personal_access_tokens;
    expect(listed.map((token: { id: string; expired: boolean }) => [token.id, token.expired])).toEqual([
      [expired.id, true],
    ]);
  });

  it('is revoked by its owner only (404 for another user), and by itself', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    const made = await make(user);
    expect((await t.call('DELETE', `/auth/tokens/${made.id}`, { token: other.token })).statusCode).toBe(404);
    expect((await t.call('GET', '/api/accounts', { token: made.accessToken })).statusCode).toBe(200);
    expect((await t.call('DELETE', `/auth/tokens/${made.id}`, { token: made.accessToken })).statusCode).toBe(
      204,
    );
    expect((await t.call('GET', '/api/accounts', { token: made.accessToken })).statusCode).toBe(401);
  });

  it('makes no elevated token, no other token and no session', async () => {
    const user = await t.signUp();
    const made = await make(user);
    // Another personal access token needs the password entered again.
    const another = await t.call('POST', `/auth/users/${user.id}/personal_access_tokens`, {
      token: made.accessToken,
      body: { name: 'CI', scope: 'manage', expires_in_days: 30 },
    });
    expect(another.statusCode).toBe(403);
    // No exchange: neither a refresh of its own user nor anything else.
    const exchanged = await t.call('POST', '/auth/tokens', {
      body: {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        actor_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        actor_token: made.accessToken,
        subject_token_type: 'berth:user:href',
        subject_token: `${TEST_PUBLIC_URL}/auth/users/${user.id}`,
        scope: 'manage',
        expires_in: 86090,
      },
    });
    expect(exchanged.statusCode).toBe(403);
    expect(exchanged.json().message).toBe(personalAccessTokenMessages.notExchangeable);
    expect(exchanged.cookies.find((c) => c.name === 'berth_session')).toBeUndefined();
    // Ending every other session needs an elevated token too.
    const revokeAll = await t.call('POST', '/auth/tokens/revoke_all_accessible', {
      token: made.accessToken,
      body: { except_tokens: [] },
    });
    expect(revokeAll.statusCode).toBe(403);
    expect((await t.call('GET', '/api/accounts', { token: user.token })).statusCode).toBe(200);
  });
});

describe('personal access tokens and sessions', () => {
  it('outlive the session that made them: logging out ends the session and its elevation only', async () => {
    const user = await t.signUp();
    const elevated = await t.login(user.email, user.password, 'elevated');
    const made = await make(user, undefined, elevated.json().access_token);
    // The console's logout: both of its tokens.
    expect((await t.call('DELETE', `/auth/tokens/${user.tokenId}`, { token: user.token })).statusCode).toBe(
      204,
    );
    expect(
      (await t.call('DELETE', `/auth/tokens/${elevated.json().id}`, { token: elevated.json().access_token }))
        .statusCode,
    ).toBe(204);
    expect((await t.call('GET', '/api/accounts', { token: user.token })).statusCode).toBe(401);
    expect((await t.call('GET', '/api/accounts', { token: made.accessToken })).statusCode).toBe(200);
  });

  it('are no sessions in the list, and “log out other sessions” ends them unless kept (contract §3.5)', async () => {
    const user = await t.signUp();
    const made = await make(user);
    const kept = await make(user);
    const sessions = await t.call('GET', `/auth/users/${user.id}/sessions`, { token: user.token });
    expect(sessions.json()._embedded.sessions.map((s: { id: string }) => s.id)).toEqual([user.tokenId]);

    const elevated = (await t.login(user.email, user.password, 'elevated')).json();
    const response = await t.call('POST', '/auth/tokens/revoke_all_accessible', {
      token: elevated.access_token,
      body: {
        except_tokens: [
          `${TEST_PUBLIC_URL}/auth/tokens/${user.tokenId}`,
          `${TEST_PUBLIC_URL}/auth/tokens/${elevated.id}`,
          `${TEST_PUBLIC_URL}/auth/tokens/${kept.id}`,
        ],
      },
    });
    expect(response.statusCode).toBe(204);
    // "Every other token and session of the caller": an access token not listed ends, a listed one stays.
    expect((await t.call('GET', '/api/accounts', { token: made.accessToken })).statusCode).toBe(401);
    expect((await t.call('GET', '/api/accounts', { token: kept.accessToken })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/accounts', { token: user.token })).statusCode).toBe(200);
  });

  it('end with a password change, which the mail says', async () => {
    const user = await t.signUp();
    const made = await make(user);
    const elevated = await t.elevate(user);
    const changed = await t.call('PATCH', `/auth/users/${user.id}`, {
      token: elevated,
      body: { type: 'update-password', password: 'Another-Horse7' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await t.call('GET', '/api/accounts', { token: made.accessToken })).statusCode).toBe(401);
    // The request's own token stays (contract §3.5): it reads the list, now empty.
    expect((await listOf(user, elevated)).json()._embedded.personal_access_tokens).toEqual([]);
    const notice = (await mailsTo(user.email)).find(
      (mail) => mail.subject === 'Your Berth password was changed',
    );
    expect(notice?.text).toContain('Its other sessions were logged out and its access tokens revoked.');
  });
});

describe('a personal access token and the account lock', () => {
  const PER_ACCOUNT = 3;
  let locked: TestApp;
  beforeAll(async () => {
    locked = await testApp({
      loginRateLimit: { perAccount: PER_ACCOUNT, perAddress: 1000, windowSeconds: 900 },
    });
  });
  afterAll(() => locked.close());

  /** The console's elevation: a bearer, no cookies (contract §3.2). */
  const elevate = (email: string, password: string, bearer: string) =>
    locked.call('POST', '/auth/tokens', {
      token: bearer,
      body: { username: email, password, otp_token: '', grant_type: 'password', scope: 'elevated' },
    });

  it('buys no guesses past the lock, where the account’s own session would pass', async () => {
    const user = await locked.signUp();
    const response = await locked.call('POST', `/auth/users/${user.id}/personal_access_tokens`, {
      token: await locked.elevate(user),
      body: { name: 'leaked', scope: 'manage', expires_in_days: 7 },
    });
    expect(response.statusCode).toBe(201);
    const leaked = response.json().access_token as string;
    // Someone else's wrong passwords lock the account for clients it does not know.
    for (let i = 0; i < PER_ACCOUNT; i += 1) {
      const wrong = await locked.login(user.email, 'Wrong-password1');
      expect(wrong.statusCode).toBe(401);
    }
    // Whoever holds a leaked token is no device the owner signed in on: the lock holds for them.
    const withToken = await elevate(user.email, user.password, leaked);
    expect(withToken.statusCode, withToken.body).toBe(429);
    // The owner's session re-enters the password (the session counts on its own).
    expect((await elevate(user.email, user.password, user.token)).statusCode).toBe(201);
  });
});
