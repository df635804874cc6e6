import { twoFactorMessages } from '@berth/core';
import { eq } from 'drizzle-orm';
import { Secret } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otpConfigurations, otpResetChallenges } from '../../db/schema.ts';
import { addMember } from '../../testing/factories.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';
import { clearOfStepEnd, codeAt } from '../../testing/totp.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const login = (user: TestUser, otpToken: string, scope = 'manage') =>
  t.call('POST', '/auth/tokens', {
    body: {
      username: user.email,
      password: user.password,
      otp_token: otpToken,
      grant_type: 'password',
      scope,
      expires_in: 43200,
    },
  });

/** A user with 2FA turned on; the code used to enable it is spent, so later codes take the next step. */
async function withTwoFactor() {
  const user = await t.signUp();
  const elevated = await t.elevate(user);
  const created = await t.call('POST', `/auth/users/${user.id}/otp_configurations`, { token: elevated });
  expect(created.statusCode).toBe(201);
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
  return { user, elevated, configuration, uri: configuration.otp_uri as string };
}

describe('2FA setup', () => {
  it('creates a pending configuration with an otpauth URI (Berth, the email, 160-bit secret)', async () => {
    const user = await t.signUp();
    const elevated = await t.elevate(user);
    const created = await t.call('POST', `/auth/users/${user.id}/otp_configurations`, { token: elevated });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body._type).toBe('otp_configuration');
    const uri = new URL(body.otp_uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/Berth:${user.email}`);
    expect(uri.searchParams.get('issuer')).toBe('Berth');
    expect(Secret.fromBase32(uri.searchParams.get('secret') ?? '').bytes.length).toBe(20);
    expect(body._links.self.href).toBe(`http://berth.test/auth/otp_configurations/${body.id}`);
    expect(body._links.otp_recovery_codes.href).toBe(`${body._links.self.href}/otp_recovery_codes`);
    // Pending: not on yet.
    const me = await t.call('GET', `/auth/users/${user.id}`, { token: user.token });
    expect(me.json().otp_enabled).toBe(false);
    expect(me.json()._links.current_otp_configuration).toBeUndefined();
  });

  it('refuses setup without a token, with a manage token, and for another user', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    const path = `/auth/users/${user.id}/otp_configurations`;
    expect((await t.call('POST', path)).statusCode).toBe(401);
    const manage = await t.call('POST', path, { token: user.token });
    expect(manage.statusCode).toBe(403);
    expect(manage.json().error).toBe('access_denied');
    const others = await t.call('POST', path, { token: await t.elevate(other) });
    expect(others.statusCode).toBe(404);
  });

  it('enables 2FA only with a valid code, from an elevated token', async () => {
    const user = await t.signUp();
    const elevated = await t.elevate(user);
    const configuration = (
      await t.call('POST', `/auth/users/${user.id}/otp_configurations`, { token: elevated })
    ).json();
    const enable = (token: string, otp_token?: string) =>
      t.call('PATCH', `/auth/users/${user.id}`, {
        token,
        body: {
          type: 'otp',
          otp_enabled: true,
          current_otp_configuration: configuration._links.self.href,
          ...(otp_token === undefined ? {} : { otp_token }),
        },
      });
    const missing = await enable(elevated);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toBe(twoFactorMessages.tokenRequired);
    const wrong = await enable(elevated, '000000' === codeAt(configuration.otp_uri) ? '111111' : '000000');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(twoFactorMessages.invalidToken);
    const manage = await enable(user.token, codeAt(configuration.otp_uri));
    expect(manage.statusCode).toBe(403);
    const ok = await enable(elevated, codeAt(configuration.otp_uri));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().otp_enabled).toBe(true);
    expect(ok.json()._links.current_otp_configuration.href).toBe(configuration._links.self.href);
  });

  it('refuses another user’s configuration', async () => {
    const { configuration, uri } = await withTwoFactor();
    const other = await t.signUp();
    const response = await t.call('PATCH', `/auth/users/${other.id}`, {
      token: await t.elevate(other),
      body: {
        type: 'otp',
        otp_enabled: true,
        current_otp_configuration: configuration._links.self.href,
        otp_token: codeAt(uri),
      },
    });
    expect(response.statusCode).toBe(422);
  });
});

describe('login and elevation with 2FA', () => {
  it('asks for the code, accepts a valid one once, and allows one step of skew', async () => {
    const { user, uri } = await withTwoFactor();
    const without = await login(user, '');
    expect(without.statusCode).toBe(401);
    expect(without.json().error).toBe('otp_token_required');
    expect(without.json().message).toBe(twoFactorMessages.otpRequired);
    const elevation = await login(user, '', 'elevated');
    expect(elevation.statusCode).toBe(401);
    expect(elevation.json().error).toBe('otp_token_required');

    const current = codeAt(uri);
    expect((await login(user, current)).statusCode).toBe(201);
    // Replayed within its window: refused.
    const replay = await login(user, current, 'elevated');
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe('invalid_credentials');
    // One step ahead (clock skew) is accepted; an older step than the last used one is not.
    expect((await login(user, codeAt(uri, 1), 'elevated')).statusCode).toBe(201);
    expect((await login(user, codeAt(uri, -1))).statusCode).toBe(401);
  });

  it('refuses codes two steps away and a wrong password before any code', async () => {
    const { user, uri } = await withTwoFactor();
    expect((await login(user, codeAt(uri, 3))).statusCode).toBe(401);
    const wrongPassword = await t.call('POST', '/auth/tokens', {
      body: { username: user.email, password: 'Wrong-password1', otp_token: '', grant_type: 'password' },
    });
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json().error).toBe('invalid_credentials');
  });

  it('rate-limits wrong codes apart from passwords', async () => {
    const { user, uri } = await withTwoFactor();
    const valid = new Set([codeAt(uri, -1), codeAt(uri), codeAt(uri, 1)]);
    const wrong = [
      '123456',
      '234567',
      '345678',
      '456789',
      '567890',
      '678901',
      '789012',
      '890123',
      '901234',
      '012345',
      '135791',
    ]
      .filter((code) => !valid.has(code))
      .slice(0, 10);
    for (const code of wrong) expect((await login(user, code)).statusCode).toBe(401);
    const limited = await login(user, codeAt(uri, 1));
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many wrong 2FA codes were tried/);
  });
});

describe('recovery codes', () => {
  it('lists 10 codes to the elevated owner; each works once at login', async () => {
    const { user, elevated, configuration } = await withTwoFactor();
    const path = `/auth/otp_configurations/${configuration.id}/otp_recovery_codes`;
    const listed = await t.call('GET', path, { token: elevated });
    expect(listed.statusCode).toBe(200);
    const codes = listed.json()._embedded.otp_recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes.map((c: { value: string }) => c.value)).size).toBe(10);
    const first = codes[0].value as string;
    expect((await login(user, first)).statusCode).toBe(201);
    expect((await login(user, first)).statusCode).toBe(401);
    // Typed in capitals without dashes works too.
    expect((await login(user, codes[1].value.replaceAll('-', '').toUpperCase())).statusCode).toBe(201);
    const after = (await t.call('GET', path, { token: elevated })).json()._embedded.otp_recovery_codes;
    expect(after[0]).toMatchObject({ used: true, value: '' });
    expect(after[2].used).toBe(false);
    const byUser = await t.call('GET', `/auth/users/${user.id}/otp_recovery_codes`, { token: elevated });
    expect(byUser.json()._embedded.otp_recovery_codes).toHaveLength(10);
  });

  it('regenerates codes: the old ones stop working', async () => {
    const { user, elevated, configuration } = await withTwoFactor();
    const path = `/auth/otp_configurations/${configuration.id}/otp_recovery_codes`;
    const old = (await t.call('GET', path, { token: elevated })).json()._embedded.otp_recovery_codes;
    const fresh = await t.call('POST', path, { token: elevated });
    expect(fresh.statusCode).toBe(201);
    const codes = fresh.json()._embedded.otp_recovery_codes;
    expect(codes).toHaveLength(10);
    expect((await login(user, old[0].value)).statusCode).toBe(401);
    expect((await login(user, codes[0].value)).statusCode).toBe(201);
  });

  it('refuses listing without a token, with a manage token, and to another user', async () => {
    const { user, configuration } = await withTwoFactor();
    const other = await t.signUp();
    const path = `/auth/otp_configurations/${configuration.id}/otp_recovery_codes`;
    expect((await t.call('GET', path)).statusCode).toBe(401);
    const manage = await t.call('GET', path, { token: user.token });
    expect(manage.statusCode).toBe(403);
    expect(manage.json().error).toBe('access_denied');
    expect((await t.call('GET', path, { token: await t.elevate(other) })).statusCode).toBe(404);
    expect((await t.call('POST', path, { token: await t.elevate(other) })).statusCode).toBe(404);
  });
});

describe('turning 2FA off', () => {
  it('needs an elevated token', async () => {
    const { user, uri } = await withTwoFactor();
    const off = { type: 'otp', otp_enabled: false };
    const manage = await t.call('PATCH', `/auth/users/${user.id}`, { token: user.token, body: off });
    expect(manage.statusCode).toBe(403);
    const elevated = (await login(user, codeAt(uri, 1), 'elevated')).json().access_token;
    const done = await t.call('PATCH', `/auth/users/${user.id}`, { token: elevated, body: off });
    expect(done.statusCode).toBe(200);
    expect(done.json().otp_enabled).toBe(false);
    expect((await login(user, '')).statusCode).toBe(201);
    expect(await t.db.select().from(otpConfigurations).where(eq(otpConfigurations.userId, user.id))).toEqual(
      [],
    );
  });
});

describe('turning 2FA on or off ends every other session (issue 34)', () => {
  const status = async (user: TestUser, token: string) =>
    (await t.call('GET', `/auth/users/${user.id}`, { token })).statusCode;
  const restore = async (cookie: string) =>
    (await t.call('GET', '/auth/current_token', { cookie })).statusCode;

  /** The user's browser (session and elevated token) and a session of theirs elsewhere. */
  async function twoPlaces() {
    const user = await t.signUp();
    const elsewhere = await t.login(user.email, user.password);
    expect(elsewhere.statusCode).toBe(201);
    const cookie = elsewhere.cookies.find((c) => c.name === 'berth_session');
    return {
      user,
      elevated: await t.elevate(user),
      elsewhere: { token: elsewhere.json().access_token as string, cookie: `berth_session=${cookie?.value}` },
    };
  }

  const turnOn = async (user: TestUser, elevated: string, cookie?: string) => {
    const configuration = (
      await t.call('POST', `/auth/users/${user.id}/otp_configurations`, { token: elevated })
    ).json();
    await clearOfStepEnd();
    return t.call('PATCH', `/auth/users/${user.id}`, {
      token: elevated,
      cookie,
      body: {
        type: 'otp',
        otp_enabled: true,
        current_otp_configuration: configuration._links.self.href,
        otp_token: codeAt(configuration.otp_uri),
      },
    });
  };

  it('on: the other sessions and their cookies end; the caller’s session and elevated token stay', async () => {
    const { user, elevated, elsewhere } = await twoPlaces();
    const enabled = await turnOn(user, elevated, user.sessionCookie);
    expect(enabled.statusCode).toBe(200);
    expect(await status(user, elsewhere.token)).toBe(401);
    expect(await restore(elsewhere.cookie)).toBe(401);
    expect(await status(user, user.token)).toBe(200);
    expect(await restore(user.sessionCookie)).toBe(200);
    expect(await status(user, elevated)).toBe(200);
  });

  it('on without a session cookie: only the elevated token of the request stays', async () => {
    const { user, elevated, elsewhere } = await twoPlaces();
    expect((await turnOn(user, elevated)).statusCode).toBe(200);
    expect(await status(user, elevated)).toBe(200);
    expect(await status(user, user.token)).toBe(401);
    expect(await status(user, elsewhere.token)).toBe(401);
  });

  it('off: the other sessions end too', async () => {
    const { user, configuration } = await withTwoFactor();
    const elsewhere = (await login(user, codeAt(configuration.otp_uri))).json().access_token;
    const elevated = (await login(user, codeAt(configuration.otp_uri, 1), 'elevated')).json().access_token;
    const off = await t.call('PATCH', `/auth/users/${user.id}`, {
      token: elevated,
      cookie: user.sessionCookie,
      body: { type: 'otp', otp_enabled: false },
    });
    expect(off.statusCode).toBe(200);
    expect(await status(user, elsewhere)).toBe(401);
    expect(await status(user, user.token)).toBe(200);
    expect(await status(user, elevated)).toBe(200);
  });

  it('a refused change ends nothing: without elevation, with a wrong code, for another user', async () => {
    const { user, elevated, elsewhere } = await twoPlaces();
    const configuration = (
      await t.call('POST', `/auth/users/${user.id}/otp_configurations`, { token: elevated })
    ).json();
    const body = (otp_token: string) => ({
      type: 'otp',
      otp_enabled: true,
      current_otp_configuration: configuration._links.self.href,
      otp_token,
    });
    const good = codeAt(configuration.otp_uri);
    const notElevated = await t.call('PATCH', `/auth/users/${user.id}`, {
      token: user.token,
      cookie: user.sessionCookie,
      body: body(good),
    });
    expect(notElevated.statusCode).toBe(403);
    const wrong = await t.call('PATCH', `/auth/users/${user.id}`, {
      token: elevated,
      cookie: user.sessionCookie,
      body: body(good === '000000' ? '111111' : '000000'),
    });
    expect(wrong.statusCode).toBe(401);
    const other = await t.signUp();
    const othersUser = await t.call('PATCH', `/auth/users/${other.id}`, {
      token: elevated,
      body: { type: 'otp', otp_enabled: false },
    });
    expect(othersUser.statusCode).toBe(404);
    expect((await t.call('PATCH', `/auth/users/${user.id}`, { body: body(good) })).statusCode).toBe(401);
    expect(await status(user, elsewhere.token)).toBe(200);
    expect(await restore(elsewhere.cookie)).toBe(200);
    expect(await status(other, other.token)).toBe(200);
  });
});

describe('owner-initiated 2FA reset', () => {
  async function team() {
    const { user: member, uri } = await withTwoFactor();
    const owner = await t.signUp({ name: 'Olive Owner' });
    const organization = await t.createOrganization(owner);
    await addMember(t.db, { organizationId: organization.id, userId: member.id });
    return { owner, member, organization, uri };
  }
  const resetLink = async (email: string) => {
    const { text } = await t.latestMailTo(email);
    const match = /\/otp-reset-verify\/([^/\s]+)\/([^/\s]+)/.exec(text);
    if (!match?.[1] || !match[2]) throw new Error('No reset link');
    return { challengeId: match[1], code: match[2] };
  };
  const confirm = (challengeId: string, code: string) =>
    t.call('POST', '/auth/verifications', {
      body: { type: 'otp_reset_challenge', challenge_id: challengeId, verification_code: code },
    });

  it('mails the member a link; 2FA stays on until they confirm, once', async () => {
    const { owner, member } = await team();
    const asked = await t.call('POST', '/auth/otp/resets/new', {
      token: owner.token,
      body: { user_id: member.id },
    });
    expect(asked.statusCode).toBe(204);
    const mail = await t.latestMailTo(member.email);
    expect(mail.text).toContain('Olive Owner');
    expect((await login(member, '')).json().error).toBe('otp_token_required');
    const { challengeId, code } = await resetLink(member.email);
    expect((await confirm(challengeId, 'wrong')).statusCode).toBe(422);
    expect((await confirm(challengeId, code)).statusCode).toBe(204);
    expect((await login(member, '')).statusCode).toBe(201);
    const reused = await confirm(challengeId, code);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().message).toBe(twoFactorMessages.resetFailed);
    // The member's earlier sessions ended with the reset.
    expect((await t.call('GET', `/auth/users/${member.id}`, { token: member.token })).statusCode).toBe(401);
  });

  it('refuses an expired link', async () => {
    const { owner, member } = await team();
    await t.call('POST', '/auth/otp/resets/new', { token: owner.token, body: { user_id: member.id } });
    const { challengeId, code } = await resetLink(member.email);
    await t.db
      .update(otpResetChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(otpResetChallenges.id, challengeId));
    const expired = await confirm(challengeId, code);
    expect(expired.statusCode).toBe(422);
    expect(expired.json().message).toBe(twoFactorMessages.resetFailed);
    expect((await login(member, '')).json().error).toBe('otp_token_required');
  });

  it('is for owners of an organization the member belongs to', async () => {
    const { owner, member, organization } = await team();
    const colleague = await t.signUp();
    await addMember(t.db, { organizationId: organization.id, userId: colleague.id });
    const stranger = await t.signUp();
    const ask = (token: string | undefined) =>
      t.call('POST', '/auth/otp/resets/new', { ...(token ? { token } : {}), body: { user_id: member.id } });
    expect((await ask(undefined)).statusCode).toBe(401);
    const notOwner = await ask(colleague.token);
    expect(notOwner.statusCode).toBe(403);
    expect(notOwner.json().message).toBe('Only organization owners can reset the 2FA of a member');
    expect((await ask(stranger.token)).statusCode).toBe(404);
    const invalid = await t.call('POST', '/auth/otp/resets/new', { token: owner.token, body: {} });
    expect(invalid.statusCode).toBe(422);
  });
});
