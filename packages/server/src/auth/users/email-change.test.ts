import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const challengesUrl = (userId: string) => `/auth/users/${userId}/email_verification_challenges`;

describe('changing the email address', () => {
  it('is refused without a token, with a manage token, and for another user', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    const body = { email: t.uniqueEmail('new') };
    const none = await t.call('POST', challengesUrl(user.id), { body });
    expect(none.statusCode).toBe(401);
    const manage = await t.call('POST', challengesUrl(user.id), { token: user.token, body });
    expect(manage.statusCode).toBe(403);
    expect(manage.json().error).toBe('access_denied');
    const elsewhere = await t.call('POST', challengesUrl(other.id), { token: await t.elevate(user), body });
    expect(elsewhere.statusCode).toBe(404);
    expect((await t.call('GET', challengesUrl(other.id), { token: user.token })).statusCode).toBe(404);
    expect((await t.call('GET', challengesUrl(user.id))).statusCode).toBe(401);
    await expect(t.latestMailTo(body.email)).rejects.toThrow();
  });

  it('refuses an address another account has, and a malformed one, with the spec messages', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    const elevated = await t.elevate(user);
    const taken = await t.call('POST', challengesUrl(user.id), {
      token: elevated,
      body: { email: other.email.toUpperCase() },
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().message).toBe('An account with this email already exists');
    const invalid = await t.call('POST', challengesUrl(user.id), {
      token: elevated,
      body: { email: 'nope' },
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().message).toBe('Must provide valid email');
  });

  it('mails the new address, applies on the link, tells the old address and ends other sessions', async () => {
    const user = await t.signUp();
    const otherSession = await t.login(user.email, user.password);
    const newEmail = t.uniqueEmail('moved');
    const elevated = await t.elevate(user);
    expect(
      (await t.call('POST', challengesUrl(user.id), { token: elevated, body: { email: newEmail } }))
        .statusCode,
    ).toBe(204);
    // Nothing changes before the link is used.
    const before = await t.call('GET', `/auth/users/${user.id}`, { token: user.token });
    expect(before.json().email).toBe(user.email);
    const { challengeId, code } = await t.verificationLink(newEmail);
    const done = await t.call('POST', '/auth/verifications', {
      token: user.token,
      cookie: user.sessionCookie,
      body: { type: 'email_verification_challenge', challenge_id: challengeId, verification_code: code },
    });
    expect(done.statusCode).toBe(204);
    const after = await t.call('GET', `/auth/users/${user.id}`, { token: user.token });
    expect(after.json().email).toBe(newEmail);
    const notice = await t.latestMailTo(user.email);
    expect(notice.subject).toBe('Your Berth email address was changed');
    expect(notice.text).toContain(newEmail);
    const ended = await t.call('GET', `/auth/users/${user.id}`, { token: otherSession.json().access_token });
    expect(ended.statusCode).toBe(401);
    // The link is single use, and the change is no longer pending.
    const reused = await t.call('POST', '/auth/verifications', {
      body: { type: 'email_verification_challenge', challenge_id: challengeId, verification_code: code },
    });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().message).toBe('This verification link is invalid or has expired');
    const pending = await t.call('GET', challengesUrl(user.id), { token: user.token });
    expect(pending.json()._embedded.email_verification_challenges).toEqual([]);
    expect((await t.login(newEmail, user.password)).statusCode).toBe(201);
  });

  it('a cancelled change is gone from the list and its link no longer works', async () => {
    const user = await t.signUp();
    const elevated = await t.elevate(user);
    const newEmail = t.uniqueEmail('cancelled');
    await t.call('POST', challengesUrl(user.id), { token: elevated, body: { email: newEmail } });
    const [pending] = (await t.call('GET', challengesUrl(user.id), { token: user.token })).json()._embedded
      .email_verification_challenges;
    expect(pending).toMatchObject({ email: newEmail });
    const other = await t.signUp();
    const foreign = await t.call('DELETE', `/auth/email_verification_challenges/${pending.id}`, {
      token: await t.elevate(other),
    });
    expect(foreign.statusCode).toBe(404);
    const cancelled = await t.call('DELETE', `/auth/email_verification_challenges/${pending.id}`, {
      token: elevated,
    });
    expect(cancelled.statusCode).toBe(204);
    const list = await t.call('GET', challengesUrl(user.id), { token: user.token });
    expect(list.json()._embedded.email_verification_challenges).toEqual([]);
    const { challengeId, code } = await t.verificationLink(newEmail);
    const used = await t.call('POST', '/auth/verifications', {
      body: { type: 'email_verification_challenge', challenge_id: challengeId, verification_code: code },
    });
    expect(used.statusCode).toBe(422);
    const me = await t.call('GET', `/auth/users/${user.id}`, { token: user.token });
    expect(me.json().email).toBe(user.email);
  });
});
