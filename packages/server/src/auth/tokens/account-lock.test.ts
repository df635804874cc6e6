import { count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loginAttempts } from '../../db/schema.ts';
import { STRONG_PASSWORD, TEST_PUBLIC_URL, type TestApp, testApp } from '../../testing/test-app.ts';
import { clearOfStepEnd, codeAt } from '../../testing/totp.ts';
import { softwareAuthenticator } from '../../testing/webauthn-authenticator.ts';

// Issue 34 §3: an attacker's wrong passwords must not keep the rightful user out.
const PER_ACCOUNT = 10;
const PER_ADDRESS = 5;
const WRONG = 'Wrong-password1';
const LOCKED = /^Too many failed login attempts\. Please wait (a minute|\d+ minutes) and try again\.$/;

let t: TestApp;
beforeAll(async () => {
  t = await testApp({
    loginRateLimit: { perAccount: PER_ACCOUNT, perAddress: PER_ADDRESS, windowSeconds: 900 },
  });
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

/** A client address of its own for each call that names none, so address limits stay out of the way. */
let addresses = 0;
const freshAddress = () => {
  addresses += 1;
  return `10.77.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

interface LoginOptions {
  address?: string;
  cookie?: string;
  otp?: string;
  u2f?: unknown;
}

const login = (username: string, password: string, options: LoginOptions = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/auth/tokens',
    remoteAddress: options.address ?? freshAddress(),
    headers: {
      'content-type': 'application/hal+json',
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    payload: JSON.stringify({
      username,
      password,
      otp_token: options.otp ?? '',
      ...(options.u2f ? { u2f: options.u2f } : {}),
      grant_type: 'password',
      scope: 'manage',
    }),
  });

/** The `Cookie` header a browser sends with later logins, from a successful login's answer. */
function deviceCookieOf(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'berth_device');
  if (!cookie) throw new Error(`No device cookie in ${response.statusCode} ${response.body}`);
  return `berth_device=${cookie.value}`;
}

function expectLocked(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(429);
  expect(response.json()).toMatchObject({ error: 'rate_limited', message: expect.stringMatching(LOCKED) });
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

/** An attacker's wrong passwords from addresses of their own until the account is locked. */
async function lockOut(email: string) {
  for (let i = 0; i < PER_ACCOUNT; i += 1) expect((await login(email, WRONG)).statusCode).toBe(401);
  expectLocked(await login(email, WRONG));
}

/** The attempts counted in the window under a limiter key (`email:…`, `ip:…`). */
async function counted(key: string): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(loginAttempts).where(eq(loginAttempts.key, key));
  return row?.n ?? 0;
}

/** A user with 2FA on, the elevated token that turned it on, and the configuration. */
async function withTwoFactor() {
  const user = await t.signUp();
  const elevated = await t.elevate(user);
  const created = await t.call('POST', `/auth/users/${user.id}/otp_configurations`, { token: elevated });
  expect(created.statusCode).toBe(201);
  const configuration = created.json();
  await clearOfStepEnd();
  const enabled = await t.call('PATCH', `/auth/users/${user.id}`, {
    token: elevated,
    body: {
      type: 'otp',
      otp_enabled: true,
      current_otp_configuration: configuration._links.self.href,
      current_otp_configuration_id: configuration.id,
      // The step before: the current one stays unspent for the test's own login.
      otp_token: codeAt(configuration.otp_uri, -1),
    },
  });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return { user, elevated, configuration, uri: configuration.otp_uri as string };
}

describe('known devices', () => {
  it("an attacker's 100 wrong passwords from 40 addresses lock new devices out, not the user's known one", async () => {
    const user = await t.signUp();
    const home = '10.34.0.1';
    const first = await login(user.email, STRONG_PASSWORD, { address: home });
    expect(first.statusCode).toBe(201);
    const known = deviceCookieOf(first);

    const statuses: number[] = [];
    for (let i = 0; i < 100; i += 1) {
      statuses.push((await login(user.email, WRONG, { address: `10.34.1.${i % 40}` })).statusCode);
    }
    // Only the limit's worth of passwords was checked; the rest were refused unchecked.
    expect(statuses.filter((s) => s === 401)).toHaveLength(PER_ACCOUNT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - PER_ACCOUNT);

    // A new device is locked out, even with the right password.
    expectLocked(await login(user.email, STRONG_PASSWORD, { address: '10.34.0.2' }));
    // The user's own device logs in, and gets a fresh cookie.
    const back = await login(user.email, STRONG_PASSWORD, { address: home, cookie: known });
    expect(back.statusCode, back.body).toBe(201);
    const renewed = deviceCookieOf(back);
    expect(renewed).not.toBe(known);
    // The fresh cookie works as well (with the name typed in capitals); new devices stay locked out.
    const again = await login(user.email.toUpperCase(), STRONG_PASSWORD, { address: home, cookie: renewed });
    expect(again.statusCode).toBe(201);
    expectLocked(await login(user.email, STRONG_PASSWORD, { address: '10.34.0.3' }));
    // A hundred and more Argon2 hashes (the lock hashes even what it refuses, so it answers in the same
    // time): more than the default 30 s on a loaded machine.
  }, 120_000);

  it('forgets every known device when the password changes', async () => {
    const user = await t.signUp();
    const known = deviceCookieOf(await login(user.email, STRONG_PASSWORD));
    const elevated = await t.elevate(user);
    const changed = await t.call('PATCH', `/auth/users/${user.id}`, {
      token: elevated,
      body: { type: 'update-password', password: 'Another-pass7' },
    });
    expect(changed.statusCode).toBe(200);
    await lockOut(user.email);
    // The cookie of before the change is no longer a known device: the lock holds for it.
    expectLocked(await login(user.email, 'Another-pass7', { cookie: known }));
  });

  it('sets the device cookie httpOnly, strict, for the login route only, for a year', async () => {
    const user = await t.signUp();
    const response = await login(user.email, STRONG_PASSWORD);
    const cookie = response.cookies.find((c) => c.name === 'berth_device');
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/auth/tokens',
      maxAge: 365 * 24 * 60 * 60,
    });
    expect(cookie?.secure).toBeFalsy();
    expect(cookie?.value).toMatch(/^[\w-]{22}\.[\w-]{43}$/);
    // No cookie for a failed login.
    const failed = await login(user.email, WRONG);
    expect(failed.cookies.some((c) => c.name === 'berth_device')).toBe(false);
  });

  it('sets the device cookie Secure when PUBLIC_URL is https', async () => {
    const secure = await testApp({ publicUrl: 'https://berth.test' });
    try {
      const user = await secure.signUp();
      const response = await secure.login(user.email, STRONG_PASSWORD);
      expect(response.cookies.find((c) => c.name === 'berth_device')).toMatchObject({ secure: true });
    } finally {
      await secure.close();
    }
  });

  it("a cookie opens only its own account's lock; forged, altered and oversized ones open none", async () => {
    const owner = await t.signUp();
    const ownCookie = deviceCookieOf(await login(owner.email, STRONG_PASSWORD));
    const victim = await t.signUp();
    await lockOut(victim.email);
    const value = ownCookie.slice('berth_device='.length);
    const [nonce = '', signature = ''] = value.split('.');
    const otherNonce = `${nonce.slice(1)}${nonce[0] === 'A' ? 'B' : 'A'}`;
    for (const cookie of [
      ownCookie,
      `berth_device=${otherNonce}.${signature}`,
      `berth_device=${'A'.repeat(22)}.${'A'.repeat(43)}`,
      `berth_device=${value}${'A'.repeat(5000)}`,
      'berth_device=not-a-cookie',
    ]) {
      expectLocked(await login(victim.email, STRONG_PASSWORD, { cookie }));
    }
  });

  it("a known device has a limit of its own, and its failures do not lock the account's other devices", async () => {
    const user = await t.signUp();
    const cookie = deviceCookieOf(await login(user.email, STRONG_PASSWORD));
    for (let i = 0; i < PER_ACCOUNT; i += 1) {
      expect((await login(user.email, WRONG, { cookie })).statusCode).toBe(401);
    }
    // The device is locked out now (a stolen cookie gets no more guesses than the account would)...
    expectLocked(await login(user.email, STRONG_PASSWORD, { cookie }));
    // ...the account is not: another device logs in.
    expect((await login(user.email, STRONG_PASSWORD)).statusCode).toBe(201);
  });
});

describe('refused attempts', () => {
  it('do not extend the lock: it ends a window after the last password checked', async () => {
    const user = await t.signUp();
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    await lockOut(user.email);
    // The attacker keeps trying every minute; every try is refused, and the wait only shrinks.
    let lastWait = Number.POSITIVE_INFINITY;
    for (let minute = 1; minute <= 14; minute += 1) {
      vi.setSystemTime(start + minute * 60_000);
      const refused = await login(user.email, WRONG);
      expectLocked(refused);
      const wait = Number(refused.headers['retry-after']);
      expect(wait).toBeLessThanOrEqual((15 - minute) * 60);
      expect(wait).toBeLessThan(lastWait);
      lastWait = wait;
    }
    expect(await counted(`email:${user.email}`)).toBe(PER_ACCOUNT);
    // A window after the last password checked, the user logs in from a new device.
    vi.setSystemTime(start + 15 * 60_000 + 1000);
    expect((await login(user.email, STRONG_PASSWORD)).statusCode).toBe(201);
  });
});

describe('the second factor opens the lock', () => {
  it('lets the right password with a valid 2FA code in from a new device; without the code it stays shut', async () => {
    const { user, uri } = await withTwoFactor();
    await lockOut(user.email);
    expectLocked(await login(user.email, STRONG_PASSWORD));
    await clearOfStepEnd();
    const through = await login(user.email, STRONG_PASSWORD, { otp: codeAt(uri) });
    expect(through.statusCode, through.body).toBe(201);
    deviceCookieOf(through);
    // It forgave nothing of the attacker's: new devices without the code stay locked out.
    expectLocked(await login(user.email, STRONG_PASSWORD));
  });

  it('answers a wrong password with a valid code exactly as a wrong code, and spends the code', async () => {
    const { user, uri } = await withTwoFactor();
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    await lockOut(user.email);
    // A minute on, so the lock's end would move if either attempt were counted toward the account.
    vi.setSystemTime(start + 60_000);
    await clearOfStepEnd();
    const code = codeAt(uri);
    const wrongCode = await login(user.email, WRONG, { otp: '000000' });
    const rightCode = await login(user.email, WRONG, { otp: code });
    expectLocked(wrongCode);
    expectLocked(rightCode);
    // Nothing tells them apart: the same answer, the same wait, the same count.
    expect(rightCode.body).toBe(wrongCode.body);
    expect(rightCode.headers['retry-after']).toBe(wrongCode.headers['retry-after']);
    expect(await counted(`email:${user.email}`)).toBe(PER_ACCOUNT);
    // The code was spent on that one password: it cannot buy a second guess, the right one included.
    expectLocked(await login(user.email, STRONG_PASSWORD, { otp: code }));
  });

  it('turns a wrong code away: counted per address only, never toward the 2FA limit', async () => {
    const { user, uri } = await withTwoFactor();
    await lockOut(user.email);
    // More wrong codes than the user's 2FA limit (10), each from its own address.
    for (let i = 0; i < 12; i += 1) {
      expectLocked(await login(user.email, STRONG_PASSWORD, { otp: '000000' }));
    }
    expect(await counted(`email:${user.email}`)).toBe(PER_ACCOUNT);
    // From one address, wrong codes use up its allowance: then even a valid code is refused there.
    const address = '10.36.0.1';
    for (let i = 0; i < PER_ADDRESS; i += 1) {
      expectLocked(await login(user.email, STRONG_PASSWORD, { otp: '000000', address }));
    }
    expect(await counted(`ip:${address}`)).toBe(PER_ADDRESS);
    await clearOfStepEnd();
    expectLocked(await login(user.email, STRONG_PASSWORD, { otp: codeAt(uri), address }));
    // Elsewhere the valid code opens the lock: the wrong ones did not lock the user's 2FA.
    expect((await login(user.email, STRONG_PASSWORD, { otp: codeAt(uri) })).statusCode).toBe(201);
  });

  it('opens to a recovery code with the right password; a wrong password leaves it unspent', async () => {
    const { user, elevated, configuration } = await withTwoFactor();
    const listed = await t.call('GET', `/auth/otp_configurations/${configuration.id}/otp_recovery_codes`, {
      token: elevated,
    });
    const recovery = listed.json()._embedded.otp_recovery_codes[0].value as string;
    await lockOut(user.email);
    // A typo costs its owner no recovery code (it cannot be guessed, so it buys an attacker nothing).
    const typo = await login(user.email, WRONG, { otp: recovery });
    expectLocked(typo);
    expect(typo.body).toBe((await login(user.email, WRONG, { otp: '000000' })).body);
    expect((await login(user.email, STRONG_PASSWORD, { otp: recovery })).statusCode).toBe(201);
    // Spent now: it opens nothing any more.
    expectLocked(await login(user.email, STRONG_PASSWORD, { otp: recovery }));
  });

  it('does not open for an account without 2FA, whatever code comes along', async () => {
    const user = await t.signUp();
    await lockOut(user.email);
    expectLocked(await login(user.email, STRONG_PASSWORD, { otp: '123456' }));
    expect(await counted(`email:${user.email}`)).toBe(PER_ACCOUNT);
  });

  it('opens to a security key assertion on a challenge the server gave', async () => {
    const { user, elevated } = await withTwoFactor();
    const key = softwareAuthenticator({ origin: TEST_PUBLIC_URL });
    const registration = await t.call('POST', `/auth/users/${user.id}/u2f_challenges`, { token: elevated });
    const added = await t.call('POST', `/auth/users/${user.id}/u2f_devices`, {
      token: elevated,
      body: { name: 'Key', version: 'WEBAUTHN', u2f: key.attest(registration.json().payload) },
    });
    expect(added.statusCode).toBe(201);
    // The login asked for the key before the attacker locked the account.
    const asked = await login(user.email, STRONG_PASSWORD);
    expect(asked.json().error).toBe('otp_token_required');
    const { payload } = asked.json().exception_context.u2f;
    await lockOut(user.email);
    // An assertion of another key is turned away, and leaves the challenge for the right one.
    const stranger = softwareAuthenticator({ origin: TEST_PUBLIC_URL });
    expectLocked(await login(user.email, STRONG_PASSWORD, { u2f: stranger.assert(payload) }));
    expect((await login(user.email, STRONG_PASSWORD, { u2f: key.assert(payload) })).statusCode).toBe(201);
  });
});

describe('logins refused for their input', () => {
  it('count against the address (a 100 KB username, an overlong one, a broken body), not an account', async () => {
    const user = await t.signUp();
    const address = '10.35.0.1';
    const huge = `${'a'.repeat(100 * 1024)}@example.com`;
    expect((await login(huge, WRONG, { address })).statusCode).toBe(422);
    expect((await login(`${'a'.repeat(300)}@example.com`, WRONG, { address })).statusCode).toBe(422);
    const broken = await t.app.inject({
      method: 'POST',
      url: '/auth/tokens',
      remoteAddress: address,
      headers: { 'content-type': 'application/hal+json' },
      payload: '{"username":',
    });
    expect(broken.statusCode).toBe(400);
    for (let i = 3; i < PER_ADDRESS; i += 1) {
      expect((await login(huge, WRONG, { address })).statusCode).toBe(422);
    }
    expect(await counted(`ip:${address}`)).toBe(PER_ADDRESS);
    // The address has used its allowance: even the right password is refused from it...
    expectLocked(await login(user.email, STRONG_PASSWORD, { address }));
    // ...while the account is not locked.
    expect((await login(user.email, STRONG_PASSWORD, { address: '10.35.0.2' })).statusCode).toBe(201);
  });

  it('leave token exchanges alone: they are no logins', async () => {
    const address = '10.35.1.1';
    for (let i = 0; i < PER_ADDRESS + 1; i += 1) {
      const refused = await t.app.inject({
        method: 'POST',
        url: '/auth/tokens',
        remoteAddress: address,
        headers: { 'content-type': 'application/hal+json' },
        payload: JSON.stringify({ grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange' }),
      });
      expect(refused.statusCode).toBe(422);
    }
    expect(await counted(`ip:${address}`)).toBe(0);
  });
});

describe('elevation from a signed-in session', () => {
  /** The console's elevation: the session's bearer, no cookies. */
  const elevate = (email: string, password: string, bearer: string) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/tokens',
      remoteAddress: freshAddress(),
      headers: { 'content-type': 'application/hal+json', authorization: `Bearer ${bearer}` },
      payload: JSON.stringify({
        username: email,
        password,
        otp_token: '',
        grant_type: 'password',
        scope: 'elevated',
        expires_in: 1800,
      }),
    });

  it("lets the account's own session re-enter the password while an attacker holds the lock", async () => {
    const user = await t.signUp();
    await lockOut(user.email);
    // Without a session, and with another account's session, the lock holds.
    expectLocked(
      await t.app.inject({
        method: 'POST',
        url: '/auth/tokens',
        remoteAddress: freshAddress(),
        headers: { 'content-type': 'application/hal+json' },
        payload: JSON.stringify({
          username: user.email,
          password: STRONG_PASSWORD,
          otp_token: '',
          grant_type: 'password',
          scope: 'elevated',
        }),
      }),
    );
    const stranger = await t.signUp();
    expectLocked(await elevate(user.email, STRONG_PASSWORD, stranger.token));

    const elevated = await elevate(user.email, STRONG_PASSWORD, user.token);
    expect(elevated.statusCode, elevated.body).toBe(201);
    expect(elevated.json().scope).toBe('elevated');
  });

  it('counts the session on its own: its wrong passwords lock it, not the account for its other devices', async () => {
    const user = await t.signUp();
    const device = deviceCookieOf(await login(user.email, STRONG_PASSWORD));
    for (let i = 0; i < PER_ACCOUNT; i += 1)
      expect((await elevate(user.email, WRONG, user.token)).statusCode).toBe(401);
    expectLocked(await elevate(user.email, STRONG_PASSWORD, user.token));
    expect(await counted(`email:${user.email.toLowerCase()}`)).toBe(0);
    // The same account from its known browser is not held by that session's failures.
    expect((await login(user.email, STRONG_PASSWORD, { cookie: device })).statusCode).toBe(201);
  });
});
