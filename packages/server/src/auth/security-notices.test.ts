import { generateKeyPairSync } from 'node:crypto';
import sshpk from 'sshpk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noticeTime } from '../mail/security-notice-mail.ts';
import { addMember } from '../testing/factories.ts';
import { TEST_PUBLIC_URL, type TestApp, type TestUser, testApp } from '../testing/test-app.ts';
import { clearOfStepEnd, codeAt } from '../testing/totp.ts';
import { softwareAuthenticator } from '../testing/webauthn-authenticator.ts';

// Issue 34 §5 (ASVS 5.0 6.3.7): each change to how an account signs in is mailed to its owner, once,
// saying what changed, when, and what to do if it was not them; no secret is ever in the mail.

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

type Kept = { subject: string; text: string; html: string };

async function mailsTo(email: string): Promise<Kept[]> {
  return (await t.mailer.recent(500)).filter((mail) => mail.to === email);
}

/** Runs `change` and answers the mail it sent to `email`, which must be exactly one message. */
async function onlyNoticeOf(email: string, change: () => Promise<unknown>): Promise<Kept> {
  const before = (await mailsTo(email)).length;
  const startedAt = new Date();
  await change();
  const after = await mailsTo(email);
  expect(after.length - before, after.map((mail) => mail.subject).join(' | ')).toBe(1);
  const notice = after[0] as Kept;
  // When it happened, to the minute, in words anyone can place.
  const minutes = [startedAt, new Date()].map(noticeTime);
  expect(minutes.some((minute) => notice.text.includes(`on ${minute}`))).toBe(true);
  expect(notice.text).toMatch(/^Hi Notice Reader,\n\n/);
  expect(notice.text).toContain('If ');
  expect(notice.text).toContain(`${TEST_PUBLIC_URL}/forgot-password`);
  return notice;
}

/** The newest mail to `email` with `subject`, waited for (some mail is written just after the answer). */
async function mailWith(email: string, subject: string): Promise<Kept> {
  for (let i = 0; i < 200; i++) {
    const found = (await mailsTo(email)).find((mail) => mail.subject === subject);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`No mail "${subject}" to ${email}`);
}

async function nothingMailedTo(email: string, attempt: () => Promise<unknown>): Promise<void> {
  const before = (await mailsTo(email)).length;
  await attempt();
  expect((await mailsTo(email)).length).toBe(before);
}

const signUp = () => t.signUp({ name: 'Notice Reader' });

const patchUser = (user: TestUser, token: string, body: Record<string, unknown>) =>
  t.call('PATCH', `/auth/users/${user.id}`, { token, cookie: user.sessionCookie, body });

const loginWith = (user: TestUser, otpToken: string, scope = 'manage') =>
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

/** A pending 2FA configuration of the user's. */
async function pendingTwoFactor(user: TestUser, elevated: string) {
  const created = await t.call('POST', `/auth/users/${user.id}/otp_configurations`, { token: elevated });
  expect(created.statusCode).toBe(201);
  return created.json() as { id: string; otp_uri: string; _links: { self: { href: string } } };
}

const enableBody = (configuration: Awaited<ReturnType<typeof pendingTwoFactor>>, code: string) => ({
  type: 'otp',
  otp_enabled: true,
  current_otp_configuration: configuration._links.self.href,
  current_otp_configuration_id: configuration.id,
  otp_token: code,
});

async function withTwoFactor() {
  const user = await signUp();
  const elevated = await t.elevate(user);
  const configuration = await pendingTwoFactor(user, elevated);
  await clearOfStepEnd();
  const enabled = await patchUser(
    user,
    elevated,
    enableBody(configuration, codeAt(configuration.otp_uri, -1)),
  );
  expect(enabled.statusCode, enabled.body).toBe(200);
  return { user, elevated, configuration };
}

function sshKeyLine(): string {
  const pair = generateKeyPairSync('ed25519');
  return sshpk
    .parseKey(pair.publicKey.export({ type: 'spki', format: 'pem' }) as string, 'pem')
    .toString('ssh');
}

describe('security notices', () => {
  it('a password change: the user is told, without the password', async () => {
    const user = await signUp();
    const elevated = await t.elevate(user);
    await nothingMailedTo(user.email, async () => {
      const denied = await patchUser(user, user.token, {
        type: 'update-password',
        password: 'Another-pass7',
      });
      expect(denied.statusCode).toBe(403);
    });
    const notice = await onlyNoticeOf(user.email, async () => {
      const changed = await patchUser(user, elevated, { type: 'update-password', password: 'Another-pass7' });
      expect(changed.statusCode).toBe(200);
    });
    expect(notice.subject).toBe('Your Berth password was changed');
    expect(notice.text).toContain('If you did not change it, reset your password at');
    expect(notice.text + notice.html).not.toContain('Another-pass7');
  });

  it('a password reset through the mailed link: the user is told once it is done', async () => {
    const user = await signUp();
    expect(
      (await t.call('POST', '/auth/password/resets/new', { body: { email: user.email, origin: 'app' } }))
        .statusCode,
    ).toBe(204);
    const { text } = await mailWith(user.email, 'Reset your Berth password');
    const [, challengeId, code] = /\/password\/update\/([^/\s]+)\/([^/\s]+)/.exec(text) ?? [];
    const reset = (verificationCode: string) =>
      t.call('POST', '/auth/verifications', {
        body: {
          type: 'password_reset_challenge',
          challenge_id: challengeId,
          verification_code: verificationCode,
          password: 'Reset-pass77',
        },
      });
    await nothingMailedTo(user.email, async () => expect((await reset('wrong')).statusCode).toBe(422));
    const notice = await onlyNoticeOf(user.email, async () =>
      expect((await reset(code ?? '')).statusCode).toBe(204),
    );
    expect(notice.subject).toBe('Your Berth password was reset');
    expect(notice.text + notice.html).not.toContain('Reset-pass77');
    expect(notice.text).not.toContain(code);
  });

  it('2FA turned on, and off: each is told; a wrong code tells nothing', async () => {
    const user = await signUp();
    const elevated = await t.elevate(user);
    const configuration = await pendingTwoFactor(user, elevated);
    await clearOfStepEnd();
    const good = codeAt(configuration.otp_uri);
    await nothingMailedTo(user.email, async () => {
      const wrong = await patchUser(
        user,
        elevated,
        enableBody(configuration, good === '000000' ? '111111' : '000000'),
      );
      expect(wrong.statusCode).toBe(401);
    });
    const on = await onlyNoticeOf(user.email, async () =>
      expect((await patchUser(user, elevated, enableBody(configuration, good))).statusCode).toBe(200),
    );
    expect(on.subject).toBe('Two-factor authentication was turned on for your Berth account');
    const secret = new URL(configuration.otp_uri).searchParams.get('secret') ?? '';
    expect(on.text + on.html).not.toContain(secret);

    const off = await onlyNoticeOf(user.email, async () =>
      expect((await patchUser(user, elevated, { type: 'otp', otp_enabled: false })).statusCode).toBe(200),
    );
    expect(off.subject).toBe('Two-factor authentication was turned off for your Berth account');
    expect(off.text).toContain(`turn 2FA on again at ${TEST_PUBLIC_URL}/settings/security`);
    // Turning off what is already off changes nothing, and says nothing.
    await nothingMailedTo(user.email, async () =>
      expect((await patchUser(user, elevated, { type: 'otp', otp_enabled: false })).statusCode).toBe(200),
    );
  });

  it('2FA reset through the link an owner asked for: the member is told once it is done', async () => {
    const { user: member } = await withTwoFactor();
    const owner = await t.signUp({ name: 'Olive Owner' });
    const organization = await t.createOrganization(owner);
    await addMember(t.db, { organizationId: organization.id, userId: member.id });
    await t.call('POST', '/auth/otp/resets/new', { token: owner.token, body: { user_id: member.id } });
    const { text } = await mailWith(member.email, 'Reset your Berth two-factor authentication');
    const [, challengeId, code] = /\/otp-reset-verify\/([^/\s]+)\/([^/\s]+)/.exec(text) ?? [];
    const notice = await onlyNoticeOf(member.email, async () => {
      const confirmed = await t.call('POST', '/auth/verifications', {
        body: { type: 'otp_reset_challenge', challenge_id: challengeId, verification_code: code },
      });
      expect(confirmed.statusCode).toBe(204);
    });
    expect(notice.subject).toBe('Two-factor authentication was reset for your Berth account');
    expect(notice.text).not.toContain(code);
  });

  it('new recovery codes, and a recovery code used to sign in, are told without a code', async () => {
    const { user, elevated, configuration } = await withTwoFactor();
    const path = `/auth/otp_configurations/${configuration.id}/otp_recovery_codes`;
    let codes: { value: string }[] = [];
    const renewed = await onlyNoticeOf(user.email, async () => {
      const made = await t.call('POST', path, { token: elevated });
      expect(made.statusCode).toBe(201);
      codes = made.json()._embedded.otp_recovery_codes;
    });
    expect(renewed.subject).toBe('New recovery codes were made for your Berth account');
    for (const { value } of codes) expect(renewed.text + renewed.html).not.toContain(value);

    const used = await onlyNoticeOf(user.email, async () =>
      expect((await loginWith(user, codes[0]?.value ?? '')).statusCode).toBe(201),
    );
    expect(used.subject).toBe('A recovery code was used to sign in to your Berth account');
    expect(used.text).toContain('9 unused recovery codes are left.');
    expect(used.text).not.toContain(codes[0]?.value);
    // A code of the authenticator app is the everyday way in: nothing to tell.
    await nothingMailedTo(user.email, async () =>
      expect((await loginWith(user, codeAt(configuration.otp_uri, 1))).statusCode).toBe(201),
    );
    // Neither is a wrong code.
    await nothingMailedTo(user.email, async () =>
      expect((await loginWith(user, 'aaaa-bbbb-cccc-dddd')).statusCode).toBe(401),
    );
  });

  it('a security key added and removed: each is told, by the key’s name', async () => {
    const { user, elevated } = await withTwoFactor();
    const key = softwareAuthenticator({ origin: TEST_PUBLIC_URL });
    const challenge = await t.call('POST', `/auth/users/${user.id}/u2f_challenges`, { token: elevated });
    let deviceId = '';
    const added = await onlyNoticeOf(user.email, async () => {
      const response = await t.call('POST', `/auth/users/${user.id}/u2f_devices`, {
        token: elevated,
        body: { name: 'Desk <YubiKey>', version: 'WEBAUTHN', u2f: key.attest(challenge.json().payload) },
      });
      expect(response.statusCode).toBe(201);
      deviceId = response.json().id;
    });
    expect(added.subject).toBe('A security key was added to your Berth account');
    expect(added.text).toContain('The security key "Desk <YubiKey>" was added');
    expect(added.html).toContain('Desk &#60;YubiKey&#62;');
    expect(added.html).not.toContain('<YubiKey>');

    await nothingMailedTo(user.email, async () =>
      expect(
        (await t.call('DELETE', `/auth/u2f_devices/${deviceId}`, { token: user.token })).statusCode,
      ).toBe(403),
    );
    const removed = await onlyNoticeOf(user.email, async () =>
      expect((await t.call('DELETE', `/auth/u2f_devices/${deviceId}`, { token: elevated })).statusCode).toBe(
        204,
      ),
    );
    expect(removed.subject).toBe('A security key was removed from your Berth account');
    expect(removed.text).toContain('The security key "Desk <YubiKey>" was removed');
  });

  it('an SSH key added and removed: each is told with its name and fingerprint, not the key', async () => {
    const user = await signUp();
    const elevated = await t.elevate(user);
    const line = sshKeyLine();
    let key = { id: '', sha256_fingerprint: '' };
    await nothingMailedTo(user.email, async () => {
      const denied = await t.call('POST', `/auth/users/${user.id}/ssh_keys`, {
        token: user.token,
        body: { name: 'Laptop', ssh_public_key: line },
      });
      expect(denied.statusCode).toBe(403);
    });
    const added = await onlyNoticeOf(user.email, async () => {
      const response = await t.call('POST', `/auth/users/${user.id}/ssh_keys`, {
        token: elevated,
        body: { name: 'Laptop', ssh_public_key: line },
      });
      expect(response.statusCode).toBe(201);
      key = response.json();
    });
    expect(added.subject).toBe('An SSH key was added to your Berth account');
    expect(added.text).toContain(`The SSH key "Laptop" (${key.sha256_fingerprint}) was added`);
    expect(added.text).toContain(`remove it at ${TEST_PUBLIC_URL}/settings/ssh`);
    expect(added.text).not.toContain(line.split(' ')[1]);

    const other = await t.signUp();
    await nothingMailedTo(user.email, async () =>
      expect(
        (await t.call('DELETE', `/auth/ssh_keys/${key.id}`, { token: await t.elevate(other) })).statusCode,
      ).toBe(404),
    );
    const removed = await onlyNoticeOf(user.email, async () =>
      expect((await t.call('DELETE', `/auth/ssh_keys/${key.id}`, { token: elevated })).statusCode).toBe(204),
    );
    expect(removed.subject).toBe('An SSH key was removed from your Berth account');
    expect(removed.text).toContain(`The SSH key "Laptop" (${key.sha256_fingerprint}) was removed`);
  });
});
