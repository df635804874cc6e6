import { twoFactorMessages } from '@berth/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { u2fChallenges } from '../../db/schema.ts';
import { TEST_PUBLIC_URL, type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';
import { clearOfStepEnd, codeAt } from '../../testing/totp.ts';
import { softwareAuthenticator } from '../../testing/webauthn-authenticator.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const passwordLogin = (user: TestUser, extra: Record<string, unknown> = {}, scope = 'manage') =>
  t.call('POST', '/auth/tokens', {
    body: {
      username: user.email,
      password: user.password,
      otp_token: '',
      grant_type: 'password',
      scope,
      expires_in: 43200,
      ...extra,
    },
  });

/** A user with 2FA on, and an elevated token from before it was on. */
async function withTwoFactor() {
  const user = await t.signUp();
  const elevated = await t.elevate(user);
  const created = await t.call('POST', `/auth/users/${user.id}/otp_configurations`, { token: elevated });
  const configuration = created.json();
  await clearOfStepEnd();
  // From the browser of the user's session, as the console does: that session stays (others end).
  const enabled = await t.call('PATCH', `/auth/users/${user.id}`, {
    token: elevated,
    cookie: user.sessionCookie,
    body: {
      type: 'otp',
      otp_enabled: true,
      current_otp_configuration: configuration._links.self.href,
      current_otp_configuration_id: configuration.id,
      otp_token: codeAt(configuration.otp_uri, -1),
    },
  });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return { user, elevated };
}

async function challenge(user: TestUser, token: string) {
  const response = await t.call('POST', `/auth/users/${user.id}/u2f_challenges`, { token });
  expect(response.statusCode).toBe(201);
  return response.json();
}

/** A user with 2FA on and one registered software key. */
async function withKey() {
  const { user, elevated } = await withTwoFactor();
  const key = softwareAuthenticator({ origin: TEST_PUBLIC_URL });
  const { payload } = await challenge(user, elevated);
  const added = await t.call('POST', `/auth/users/${user.id}/u2f_devices`, {
    token: elevated,
    body: { name: 'YubiKey', version: 'WEBAUTHN', u2f: key.attest(payload) },
  });
  expect(added.statusCode).toBe(201);
  return { user, elevated, key, device: added.json() };
}

describe('security key challenges', () => {
  it('returns creation options for the public URL relying party, stored and expiring in 5 minutes', async () => {
    const { user, elevated } = await withTwoFactor();
    const body = await challenge(user, elevated);
    expect(body.payload.rp).toEqual({ id: 'berth.test', name: 'Berth' });
    expect(body.payload.challenge).toBe(body.challenge);
    expect(body.payload.user.name).toBe(user.email);
    expect(body.payload.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toContain(-7);
    const [row] = await t.db.select().from(u2fChallenges).where(eq(u2fChallenges.id, body.id));
    expect(row?.userId).toBe(user.id);
    expect(row?.purpose).toBe('registration');
    const ttl = (row?.expiresAt.getTime() ?? 0) - Date.now();
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
    const again = await challenge(user, elevated);
    expect(again.challenge).not.toBe(body.challenge);
  });

  it('refuses without a token, with a manage token, and for another user', async () => {
    const { user } = await withTwoFactor();
    const other = await t.signUp();
    const key = softwareAuthenticator({ origin: TEST_PUBLIC_URL, rpId: 'berth.test' });
    const body = { name: 'Key', u2f: key.attest({ challenge: 'AAAA' }) };
    for (const path of [`/auth/users/${user.id}/u2f_challenges`, `/auth/users/${user.id}/u2f_devices`]) {
      expect((await t.call('POST', path, { body })).statusCode).toBe(401);
      const manage = await t.call('POST', path, { token: user.token, body });
      expect(manage.statusCode).toBe(403);
      expect(manage.json().error).toBe('access_denied');
      expect((await t.call('POST', path, { token: await t.elevate(other), body })).statusCode).toBe(404);
    }
    expect((await t.call('GET', `/auth/users/${user.id}/u2f_devices`)).statusCode).toBe(401);
    expect(
      (await t.call('GET', `/auth/users/${user.id}/u2f_devices`, { token: user.token })).statusCode,
    ).toBe(403);
  });

  it('refuses a key while 2FA is off, with the spec message', async () => {
    const user = await t.signUp();
    const elevated = await t.elevate(user);
    const refused = await t.call('POST', `/auth/users/${user.id}/u2f_challenges`, { token: elevated });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(twoFactorMessages.securityKeyNeedsOtp);
    const key = softwareAuthenticator({ origin: TEST_PUBLIC_URL, rpId: 'berth.test' });
    const added = await t.call('POST', `/auth/users/${user.id}/u2f_devices`, {
      token: elevated,
      body: { name: 'Key', u2f: key.attest({ challenge: 'AAAA' }) },
    });
    expect(added.statusCode).toBe(422);
    expect(added.json().message).toBe(twoFactorMessages.securityKeyNeedsOtp);
  });
});

describe('security key registration', () => {
  it('adds, lists and deletes a key', async () => {
    const { user, elevated, key, device } = await withKey();
    expect(device._type).toBe('u2f_device');
    expect(device.name).toBe('YubiKey');
    expect(device.version).toBe('WEBAUTHN');
    expect(device.key_handle).toBe(key.credentialId);
    const listed = await t.call('GET', `/auth/users/${user.id}/u2f_devices`, { token: elevated });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()._embedded.u2f_devices.map((d: { id: string }) => d.id)).toEqual([device.id]);
    const other = await t.signUp();
    const othersDelete = await t.call('DELETE', `/auth/u2f_devices/${device.id}`, {
      token: await t.elevate(other),
    });
    expect(othersDelete.statusCode).toBe(404);
    expect((await t.call('DELETE', `/auth/u2f_devices/${device.id}`, { token: user.token })).statusCode).toBe(
      403,
    );
    expect((await t.call('DELETE', `/auth/u2f_devices/${device.id}`, { token: elevated })).statusCode).toBe(
      204,
    );
    const after = await t.call('GET', `/auth/users/${user.id}/u2f_devices`, { token: elevated });
    expect(after.json()._embedded.u2f_devices).toEqual([]);
  });

  it('refuses an attestation from another origin', async () => {
    const { user, elevated } = await withTwoFactor();
    const key = softwareAuthenticator({ origin: TEST_PUBLIC_URL });
    const { payload } = await challenge(user, elevated);
    const added = await t.call('POST', `/auth/users/${user.id}/u2f_devices`, {
      token: elevated,
      body: { name: 'Key', u2f: key.attest(payload, { origin: 'https://evil.example' }) },
    });
    expect(added.statusCode).toBe(422);
  });

  it('refuses a reused challenge, and one of another user', async () => {
    const { user, elevated } = await withTwoFactor();
    const key = softwareAuthenticator({ origin: TEST_PUBLIC_URL });
    const { payload } = await challenge(user, elevated);
    const body = { name: 'Key', u2f: key.attest(payload) };
    const path = `/auth/users/${user.id}/u2f_devices`;
    expect((await t.call('POST', path, { token: elevated, body })).statusCode).toBe(201);
    const second = softwareAuthenticator({ origin: TEST_PUBLIC_URL });
    const replay = await t.call('POST', path, {
      token: elevated,
      body: { name: 'Again', u2f: second.attest(payload) },
    });
    expect(replay.statusCode).toBe(422);

    const other = await withTwoFactor();
    const theirs = await challenge(other.user, other.elevated);
    const stolen = await t.call('POST', path, {
      token: elevated,
      body: { name: 'Stolen', u2f: second.attest(theirs.payload) },
    });
    expect(stolen.statusCode).toBe(422);
  });

  it('requires a name', async () => {
    const { user, elevated } = await withTwoFactor();
    const key = softwareAuthenticator({ origin: TEST_PUBLIC_URL });
    const { payload } = await challenge(user, elevated);
    const added = await t.call('POST', `/auth/users/${user.id}/u2f_devices`, {
      token: elevated,
      body: { name: ' ', u2f: key.attest(payload) },
    });
    expect(added.statusCode).toBe(422);
    expect(added.json().message).toBe('Name must not be blank');
  });
});

describe('login with a security key', () => {
  it('offers request options with otp_token_required and accepts a signed assertion', async () => {
    const { user, key } = await withKey();
    const asked = await passwordLogin(user);
    expect(asked.statusCode).toBe(401);
    expect(asked.json().error).toBe('otp_token_required');
    const payload = asked.json().exception_context.u2f.payload;
    expect(payload.rpId).toBe('berth.test');
    expect(payload.allowCredentials).toEqual([
      expect.objectContaining({ type: 'public-key', id: key.credentialId }),
    ]);
    const session = await passwordLogin(user, { u2f: key.assert(payload) });
    expect(session.statusCode).toBe(201);
    expect(session.cookies.some((c) => c.name === 'berth_session')).toBe(true);

    // Elevation the same way.
    const again = (await passwordLogin(user, {}, 'elevated')).json().exception_context.u2f.payload;
    const elevated = await passwordLogin(user, { u2f: key.assert(again) }, 'elevated');
    expect(elevated.statusCode).toBe(201);
    expect(elevated.json().scope).toBe('elevated');
  });

  it('refuses a reused challenge, a wrong origin and a counter that does not increase', async () => {
    const { user, key } = await withKey();
    const payload = (await passwordLogin(user)).json().exception_context.u2f.payload;
    const assertion = key.assert(payload);
    expect((await passwordLogin(user, { u2f: assertion })).statusCode).toBe(201);
    const replay = await passwordLogin(user, { u2f: assertion });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe('invalid_credentials');

    const next = (await passwordLogin(user)).json().exception_context.u2f.payload;
    const foreign = await passwordLogin(user, { u2f: key.assert(next, { origin: 'https://evil.example' }) });
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json().error).toBe('invalid_credentials');

    const third = (await passwordLogin(user)).json().exception_context.u2f.payload;
    key.setCounter(0);
    const cloned = await passwordLogin(user, { u2f: key.assert(third) });
    expect(cloned.statusCode).toBe(401);
  });

  it('refuses a key of another user and leaves users without keys as before', async () => {
    const { user } = await withKey();
    const stranger = softwareAuthenticator({ origin: TEST_PUBLIC_URL });
    const payload = (await passwordLogin(user)).json().exception_context.u2f.payload;
    expect((await passwordLogin(user, { u2f: stranger.assert(payload) })).statusCode).toBe(401);
    const { user: plain } = await withTwoFactor();
    const asked = await passwordLogin(plain);
    expect(asked.json().error).toBe('otp_token_required');
    expect(asked.json().exception_context.u2f).toBeUndefined();
  });
});
