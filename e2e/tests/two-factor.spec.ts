import { Secret, TOTP } from 'otpauth';
import { HOME_URL, passwordField, submitCredentials } from '../fixtures/console.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 1 §2 2FA setup and recovery codes, §4 "2FA" and "Login" step 5, §8 the 2FA warning.

const totpOf = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });

test('a user turns on 2FA, then logs in with a code and with a recovery code', async ({
  signedInPage: page,
  account,
  request,
}) => {
  const meWith = (token: string) =>
    request.get(`/auth/users/${account.id}`, { headers: { authorization: `Bearer ${token}` } });
  // The account's session made through the API: another browser, as far as the server knows.
  expect((await meWith(account.token.accessToken)).status()).toBe(200);

  // The setup page needs an elevated token: the password again first.
  await page.goto('/settings/otp-setup');
  await expect(page).toHaveURL(/\/elevate\?redirect=/);
  await passwordField(page).fill(account.password);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/settings\/otp-setup$/);

  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await page.getByTestId('otp-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const totp = totpOf(secret);

  // "must enter token" before anything is sent.
  await page.getByRole('button', { name: 'Enable 2FA' }).click();
  await expect(page.getByText('must enter token', { exact: true })).toBeVisible();

  // The current step's code. (The previous step's was refused when a step ended between making it and
  // the server checking it: then it was two steps old.)
  await page.getByRole('textbox', { name: '2FA Code' }).fill(totp.generate());
  await page.getByRole('button', { name: 'Enable 2FA' }).click();
  await expect(page).toHaveURL(/\/settings\/otp-recovery-codes$/);
  // Issue 34: turning 2FA on ends the other sessions (this one stays), and the toast says so (spec 1 §8).
  await expect(
    page.getByRole('status').filter({ hasText: 'Other sessions have been logged out.' }),
  ).toContainText('Two-factor authentication is now enabled.');
  expect((await meWith(account.token.accessToken)).status()).toBe(401);
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCode = ((await codes.first().textContent()) ?? '').trim();
  expect(recoveryCode).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);

  // Log out, then in with a code: the server asks for it after the password.
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login/);
  await submitCredentials(page, { email: account.email, password: account.password });
  await expect(page.getByText('You must enter your 2FA token to continue')).toBeVisible();
  // The next step's code (one step of skew is allowed): newer than the one spent above, whenever this runs.
  await page
    .getByRole('textbox', { name: '2FA Code' })
    .fill(totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(HOME_URL);

  // And again with a recovery code in place of the code.
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login/);
  await submitCredentials(page, { email: account.email, password: account.password });
  await expect(page.getByText('You must enter your 2FA token to continue')).toBeVisible();
  await page.getByRole('textbox', { name: '2FA Code' }).fill(recoveryCode);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(HOME_URL);
});
