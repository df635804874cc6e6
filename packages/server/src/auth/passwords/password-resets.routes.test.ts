import { passwordMessages } from '@berth/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResetChallenges } from '../../db/schema.ts';
import { type TestApp, testApp } from '../../testing/test-app.ts';
import { passwordResetMessages } from './password-reset.service.ts';

const NEW_PASSWORD = 'Brand-New-Pass7';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ passwordResetRateLimit: { perEmail: 3, perAddress: 10_000, windowSeconds: 3600 } });
});
afterAll(() => t.close());

const requestReset = (email: string) =>
  t.call('POST', '/auth/password/resets/new', { body: { email, origin: 'app' } });

const completeReset = (challengeId: string, code: string, password: string) =>
  t.call('POST', '/auth/verifications', {
    body: { type: 'password_reset_challenge', challenge_id: challengeId, verification_code: code, password },
  });

/** The newest reset link mailed to the address (the mail is written just after the answer). */
async function resetLink(email: string) {
  for (let i = 0; i < 100; i++) {
    const mail = (await t.mailer.recent(500)).find(
      (m) => m.to === email && m.subject === 'Reset your Berth password',
    );
    const match = mail && /\/password\/update\/([^/\s]+)\/([^/\s]+)/.exec(mail.text);
    if (mail && match?.[1] && match[2]) return { challengeId: match[1], code: match[2], text: mail.text };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`No reset mail to ${email}`);
}

async function resetMailsTo(email: string) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  return (await t.mailer.recent(500)).filter((m) => m.to === email && m.subject.includes('Reset'));
}

describe('POST /password/resets/new', () => {
  it('answers the same for a known and an unknown address, and mails only the known one', async () => {
    const user = await t.signUp();
    const unknown = t.uniqueEmail('nobody');
    const known = await requestReset(user.email.toUpperCase());
    const stranger = await requestReset(unknown);
    expect(known.statusCode).toBe(204);
    expect(stranger.statusCode).toBe(known.statusCode);
    expect(stranger.body).toBe(known.body);
    const { text } = await resetLink(user.email);
    expect(text).toContain(`${t.config.publicUrl}/password/update/`);
    expect(await resetMailsTo(unknown)).toHaveLength(0);
  });

  it('refuses a malformed address with the spec messages', async () => {
    const empty = await t.call('POST', '/auth/password/resets/new', { body: { email: '' } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().message).toBe('Email must not be empty');
    const invalid = await t.call('POST', '/auth/password/resets/new', { body: { email: 'not-an-email' } });
    expect(invalid.json().message).toBe('Must provide valid email');
    const long = await t.call('POST', '/auth/password/resets/new', {
      body: { email: `${'a'.repeat(300)}@example.com` },
    });
    expect(long.statusCode).toBe(422);
  });

  it('limits requests per email address, known or not, with the same 429', async () => {
    const user = await t.signUp();
    const unknown = t.uniqueEmail('ghost');
    for (let i = 0; i < 3; i++) {
      expect((await requestReset(user.email)).statusCode).toBe(204);
      expect((await requestReset(unknown)).statusCode).toBe(204);
    }
    const knownRefused = await requestReset(user.email);
    const unknownRefused = await requestReset(unknown);
    expect(knownRefused.statusCode).toBe(429);
    expect(unknownRefused.statusCode).toBe(429);
    expect(knownRefused.headers['retry-after']).toBeDefined();
    expect(unknownRefused.json().message).toBe(knownRefused.json().message);
    expect(await resetMailsTo(user.email)).toHaveLength(3);
  });
});

describe('POST /verifications (password_reset_challenge)', () => {
  it('sets the new password, ends every session and token, and works once', async () => {
    const user = await t.signUp();
    const elevated = await t.elevate(user);
    await requestReset(user.email);
    const { challengeId, code } = await resetLink(user.email);
    expect((await completeReset(challengeId, code, NEW_PASSWORD)).statusCode).toBe(204);

    expect((await t.call('GET', `/auth/users/${user.id}`, { token: user.token })).statusCode).toBe(401);
    expect((await t.call('GET', '/auth/current_token', { cookie: user.sessionCookie })).statusCode).toBe(401);
    expect((await t.call('GET', `/auth/users/${user.id}`, { token: elevated })).statusCode).not.toBe(200);
    expect((await t.login(user.email, user.password)).statusCode).toBe(401);
    expect((await t.login(user.email, NEW_PASSWORD)).statusCode).toBe(201);

    const reused = await completeReset(challengeId, code, 'Another-Pass8');
    expect(reused.statusCode).toBe(422);
    expect(reused.json().message).toBe(passwordResetMessages.invalid);
    expect((await t.login(user.email, 'Another-Pass8')).statusCode).toBe(401);
  });

  it('refuses an expired link, a wrong code and an unknown challenge, and keeps the password', async () => {
    const user = await t.signUp();
    await requestReset(user.email);
    const { challengeId, code } = await resetLink(user.email);
    const wrong = await completeReset(challengeId, 'wrong-code', NEW_PASSWORD);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toBe(passwordResetMessages.invalid);
    expect((await completeReset('00000000-0000-0000-0000-000000000000', code, NEW_PASSWORD)).statusCode).toBe(
      422,
    );
    expect((await completeReset('garbage', code, NEW_PASSWORD)).statusCode).toBe(422);
    await t.db
      .update(passwordResetChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetChallenges.id, challengeId));
    const expired = await completeReset(challengeId, code, NEW_PASSWORD);
    expect(expired.statusCode).toBe(422);
    expect(expired.json().message).toBe(passwordResetMessages.invalid);
    expect((await t.login(user.email, user.password)).statusCode).toBe(201);
  });

  it('checks the new password with the spec rules before using the link', async () => {
    const user = await t.signUp();
    await requestReset(user.email);
    const { challengeId, code } = await resetLink(user.email);
    const cases: [unknown, string][] = [
      ['Short1', passwordMessages.tooShort],
      [`${'A'.repeat(40)}${'a'.repeat(40)}1`, passwordMessages.tooLong],
      ['lowercase-only1', passwordMessages.uppercase],
      ['UPPERCASE-ONLY1', passwordMessages.lowercase],
      ['NoDigitsOrSymbols', passwordMessages.digitOrSpecial],
      [undefined, 'Password must not be empty'],
    ];
    for (const [password, message] of cases) {
      const response = await completeReset(challengeId, code, password as string);
      expect(response.statusCode).toBe(422);
      expect(response.json().message).toBe(message);
    }
    // None of them used the link.
    expect((await completeReset(challengeId, code, NEW_PASSWORD)).statusCode).toBe(204);
  });

  it('kills the link after too many wrong codes', async () => {
    const user = await t.signUp();
    await requestReset(user.email);
    const { challengeId, code } = await resetLink(user.email);
    for (let i = 0; i < t.config.verificationRateLimit.perCode; i++) {
      await completeReset(challengeId, `wrong-${i}`, NEW_PASSWORD);
    }
    const locked = await completeReset(challengeId, code, NEW_PASSWORD);
    expect(locked.statusCode).toBe(422);
    expect(locked.json().message).toBe(passwordResetMessages.locked);
  });

  it('ends the other links of the user once one is used', async () => {
    const user = await t.signUp();
    await requestReset(user.email);
    const first = await resetLink(user.email);
    await requestReset(user.email);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await resetLink(user.email);
    expect(second.challengeId).not.toBe(first.challengeId);
    expect((await completeReset(second.challengeId, second.code, NEW_PASSWORD)).statusCode).toBe(204);
    expect((await completeReset(first.challengeId, first.code, 'Another-Pass8')).statusCode).toBe(422);
  });

  it('refuses a link mailed to an address the account has since left', async () => {
    const user = await t.signUp();
    await requestReset(user.email);
    const { challengeId, code } = await resetLink(user.email);
    const newEmail = t.uniqueEmail('moved');
    await t.call('POST', `/auth/users/${user.id}/email_verification_challenges`, {
      token: await t.elevate(user),
      body: { email: newEmail },
    });
    const change = await t.verificationLink(newEmail);
    await t.call('POST', '/auth/verifications', {
      body: {
        type: 'email_verification_challenge',
        challenge_id: change.challengeId,
        verification_code: change.code,
      },
    });
    expect((await completeReset(challengeId, code, NEW_PASSWORD)).statusCode).toBe(422);
  });
});
