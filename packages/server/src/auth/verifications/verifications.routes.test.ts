import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailVerificationChallenges } from '../../db/schema.ts';
import { type TestApp, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const verify = (challengeId: string, code: string) =>
  t.call('POST', '/auth/verifications', {
    body: { type: 'email_verification_challenge', challenge_id: challengeId, verification_code: code },
  });

describe('email verification', () => {
  it('verifies the user with the mailed link, once', async () => {
    const user = await t.signUp({ verified: false });
    const before = await t.call('GET', `/auth/users/${user.id}`, { token: user.token });
    expect(before.json().verified).toBe(false);
    const { challengeId, code } = await t.verificationLink(user.email);
    expect((await verify(challengeId, code)).statusCode).toBe(204);
    const after = await t.call('GET', `/auth/users/${user.id}`, { token: user.token });
    expect(after.json().verified).toBe(true);
    const reused = await verify(challengeId, code);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().message).toBe('This verification link is invalid or has expired');
  });

  it('refuses a wrong code, an unknown challenge and an expired code', async () => {
    const user = await t.signUp({ verified: false });
    const { challengeId, code } = await t.verificationLink(user.email);
    expect((await verify(challengeId, 'wrong-code')).statusCode).toBe(422);
    expect((await verify('00000000-0000-0000-0000-000000000000', code)).statusCode).toBe(422);
    expect((await verify('garbage', code)).statusCode).toBe(422);
    await t.db
      .update(emailVerificationChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailVerificationChallenges.id, challengeId));
    expect((await verify(challengeId, code)).statusCode).toBe(422);
    const still = await t.call('GET', `/auth/users/${user.id}`, { token: user.token });
    expect(still.json().verified).toBe(false);
  });

  it('refuses bodies without the challenge, and types it does not handle', async () => {
    const missing = await t.call('POST', '/auth/verifications', {
      body: { type: 'email_verification_challenge' },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toBe('challenge_id and verification_code must not be empty');
    const other = await t.call('POST', '/auth/verifications', { body: { type: 'something_else' } });
    expect(other.statusCode).toBe(422);
  });

  it('resends a fresh link that works (POST /users/:id/email_verification_challenges)', async () => {
    const user = await t.signUp({ verified: false });
    const first = await t.verificationLink(user.email);
    const resent = await t.call('POST', `/auth/users/${user.id}/email_verification_challenges`, {
      token: user.token,
      body: { origin: 'app' },
    });
    expect(resent.statusCode).toBe(204);
    const second = await t.verificationLink(user.email);
    expect(second.challengeId).not.toBe(first.challengeId);
    expect((await verify(second.challengeId, second.code)).statusCode).toBe(204);
  });

  it('sends at most five verification mails an hour to one account', async () => {
    const user = await t.signUp({ verified: false });
    const resend = () =>
      t.call('POST', `/auth/users/${user.id}/email_verification_challenges`, {
        token: user.token,
        body: { origin: 'app' },
      });
    // Sign-up sent the first; four resends make five.
    for (let sent = 1; sent < 5; sent += 1) expect((await resend()).statusCode).toBe(204);
    const refused = await resend();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(
      'Too many verification emails were sent. Please wait an hour and try again.',
    );
    const mails = (await t.mailer.recent(500)).filter((mail) => mail.to === user.email);
    expect(mails).toHaveLength(5);
  });

  it('keeps the limit under parallel resends and when changes are cancelled', async () => {
    const user = await t.signUp({ verified: false });
    const url = `/auth/users/${user.id}/email_verification_challenges`;
    const burst = await Promise.all(
      Array.from({ length: 10 }, () => t.call('POST', url, { token: user.token, body: { origin: 'app' } })),
    );
    // Sign-up sent one; of ten at once, four more go out.
    expect(burst.filter((response) => response.statusCode === 204)).toHaveLength(4);
    expect(burst.filter((response) => response.statusCode === 429)).toHaveLength(6);

    const verified = await t.signUp();
    const elevated = await t.elevate(verified);
    const changes = `/auth/users/${verified.id}/email_verification_challenges`;
    for (let sent = 1; sent < 5; sent += 1) {
      const asked = await t.call('POST', changes, { token: elevated, body: { email: t.uniqueEmail('to') } });
      expect(asked.statusCode).toBe(204);
      const [pending] = (await t.call('GET', changes, { token: verified.token })).json()._embedded
        .email_verification_challenges;
      const cancel = `/auth/email_verification_challenges/${pending.id}`;
      expect((await t.call('DELETE', cancel, { token: elevated })).statusCode).toBe(204);
    }
    const refused = await t.call('POST', changes, { token: elevated, body: { email: t.uniqueEmail('to') } });
    expect(refused.statusCode).toBe(429);
  });

  it('refuses to resend for another user (404) or without a token (401)', async () => {
    const user = await t.signUp({ verified: false });
    const other = await t.signUp({ verified: false });
    const url = `/auth/users/${other.id}/email_verification_challenges`;
    expect((await t.call('POST', url, { token: user.token, body: { origin: 'app' } })).statusCode).toBe(404);
    expect((await t.call('POST', url, { body: { origin: 'app' } })).statusCode).toBe(401);
  });

  it('changes the email through a verified challenge, which needs an elevated token', async () => {
    const user = await t.signUp();
    const newEmail = t.uniqueEmail('moved');
    const url = `/auth/users/${user.id}/email_verification_challenges`;
    const denied = await t.call('POST', url, { token: user.token, body: { email: newEmail } });
    expect(denied.statusCode).toBe(403);
    const elevated = await t.elevate(user);
    expect((await t.call('POST', url, { token: elevated, body: { email: newEmail } })).statusCode).toBe(204);
    const pending = await t.call('GET', url, { token: user.token });
    expect(pending.json()._embedded.email_verification_challenges).toMatchObject([
      { _type: 'email_verification_challenge', email: newEmail },
    ]);
    const { challengeId, code } = await t.verificationLink(newEmail);
    // Opened in the signed-in console (bearer and cookie), whose session outlives the change of address.
    const done = await t.call('POST', '/auth/verifications', {
      token: user.token,
      cookie: user.sessionCookie,
      body: { type: 'email_verification_challenge', challenge_id: challengeId, verification_code: code },
    });
    expect(done.statusCode).toBe(204);
    const me = await t.call('GET', `/auth/users/${user.id}`, { token: user.token });
    expect(me.json().email).toBe(newEmail);
  });

  it('refuses to finish an email change to an address another account took meanwhile', async () => {
    const user = await t.signUp();
    const wanted = t.uniqueEmail('contested');
    await t.call('POST', `/auth/users/${user.id}/email_verification_challenges`, {
      token: await t.elevate(user),
      body: { email: wanted },
    });
    const { challengeId, code } = await t.verificationLink(wanted);
    await t.signUp({ email: wanted });
    const response = await verify(challengeId, code);
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('An account with this email already exists');
  });

  it('cancels a pending email change with an elevated token only', async () => {
    const user = await t.signUp();
    const elevated = await t.elevate(user);
    const url = `/auth/users/${user.id}/email_verification_challenges`;
    await t.call('POST', url, { token: elevated, body: { email: t.uniqueEmail('pending') } });
    const [pending] = (await t.call('GET', url, { token: user.token })).json()._embedded
      .email_verification_challenges;
    const path = `/auth/email_verification_challenges/${pending.id}`;
    expect((await t.call('DELETE', path, { token: user.token })).statusCode).toBe(403);
    expect((await t.call('DELETE', path, { token: elevated })).statusCode).toBe(204);
    expect((await t.call('DELETE', path, { token: elevated })).statusCode).toBe(404);
  });
});
