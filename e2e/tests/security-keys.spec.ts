import type { APIRequestContext } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { type SeededAccount, seedAccount } from '../fixtures/accounts.ts';
import { HOME_URL, passwordField, submitCredentials } from '../fixtures/console.ts';
import { type OwnServer, startOwnServer } from '../fixtures/own-server.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 1 §2 Security Settings "Security Keys" and Add Security Key, §4 "Login" step 5 (a key instead of
// the code), §8 "Security keys need 2FA". Chromium's virtual authenticator stands in for the key.
//
// WebAuthn refuses an IP address as relying party id, and the shared server runs at 127.0.0.1. So this
// spec starts its own server whose PUBLIC_URL is http://localhost:<port> (same build, its own data).

const totpOf = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });

let server: OwnServer | undefined;
let api: APIRequestContext;
let origin = '';

test.describe.configure({ timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer({ name: 'security-keys', host: 'localhost' });
  api = server.api;
  origin = server.origin;
});

test.afterAll(async () => {
  await server?.stop();
});

test('a user with 2FA adds a security key and logs in with it', async ({ page }) => {
  const account: SeededAccount = await seedAccount(api);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'usb',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });

  const settingsNav = page.getByRole('navigation', { name: 'Settings' });
  const section = page.getByRole('region', { name: 'Security Keys' });
  await page.goto(`${origin}/login`);
  await submitCredentials(page, { email: account.email, password: account.password });
  await expect(page).toHaveURL(HOME_URL);
  // Logging in with the password is an elevation too, so it opens the session's sudo window (issue 41):
  // the Security page opens after a reload without asking for the password again.
  await page.goto(`${origin}/settings/security`);
  await expect(page).toHaveURL(/\/settings\/security$/);
  await expect(section.getByText('No security keys added.')).toBeVisible();
  await expect(passwordField(page)).toHaveCount(0);

  // Without 2FA the server refuses the key with the spec's message.
  await section.getByRole('link', { name: 'Add Security Key' }).click();
  await expect(page).toHaveURL(/\/settings\/add-security-key$/);
  await page.getByRole('textbox', { name: 'Name' }).fill('Desk key');
  await page.getByRole('button', { name: 'Add Security Key' }).click();
  await expect(
    page.getByText('In order to add a hardware security key, you must set up 2FA authentication first.'),
  ).toBeVisible();

  // Turn 2FA on.
  await settingsNav.getByRole('link', { name: 'Security' }).click();
  await page.getByRole('link', { name: 'Set up 2FA' }).click();
  await expect(page).toHaveURL(/\/settings\/otp-setup$/);
  const secret = (await page.getByTestId('otp-secret').textContent()) ?? '';
  const totp = totpOf(secret);
  // The current step's code: a previous step's is two steps old if a step ends before the server checks it.
  await page.getByRole('textbox', { name: '2FA Code' }).fill(totp.generate());
  await page.getByRole('button', { name: 'Enable 2FA' }).click();
  await expect(page).toHaveURL(/\/settings\/otp-recovery-codes$/);

  // Add the key: a name, then the browser's prompt (answered by the virtual authenticator).
  await settingsNav.getByRole('link', { name: 'Security' }).click();
  await section.getByRole('link', { name: 'Add Security Key' }).click();
  await page.getByRole('button', { name: 'Add Security Key' }).click();
  await expect(page.getByText('Name must not be blank')).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill('Desk key');
  await page.getByRole('button', { name: 'Add Security Key' }).click();
  await expect(page).toHaveURL(/\/settings\/security$/);
  await expect(section.getByText('Desk key')).toBeVisible();

  // Log out, then in with the key instead of a code.
  await page.goto(`${origin}/logout`);
  await expect(page).toHaveURL(/\/login/);
  await submitCredentials(page, { email: account.email, password: account.password });
  await expect(page.getByText('You must enter your 2FA token to continue')).toBeVisible();
  await page.getByRole('button', { name: 'Use a security key' }).click();
  await expect(page).toHaveURL(HOME_URL);
});
