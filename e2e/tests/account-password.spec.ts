import type { Page } from '@playwright/test';
import { logInBrowser } from '../fixtures/accounts.ts';
import { passwordField, submitCredentials } from '../fixtures/console.ts';
import { uniqueEmail } from '../fixtures/emails.ts';
import { verificationLink } from '../fixtures/mailbox.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 1 §2 Security Settings (Change Password, Change Email), /forgot-password and /password/update.

const NEW_PASSWORD = 'Lighthouse-Keeper-77';

/** The security page asks for the password again first (spec 1 §6), then comes back. */
async function openSecurity(page: Page, password: string) {
  await page.goto('/settings/security');
  await expect(page.getByRole('heading', { name: 'Confirm your identity' })).toBeVisible();
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/settings\/security$/);
  await expect(page.getByRole('heading', { name: 'Security Settings' })).toBeVisible();
}

/** Asks for a change of address on the security page: the form says the link was sent, and it is pending. */
async function requestEmailChange(page: Page, newEmail: string) {
  const form = page.getByRole('form', { name: 'Change Email' });
  await form.getByLabel('New Email').fill(newEmail);
  await form.getByRole('button', { name: 'Change Email' }).click();
  await expect(form.getByText(`We sent a verification link to ${newEmail}`, { exact: false })).toBeVisible();
  const pending = page.getByRole('region', { name: 'Pending email changes' });
  await expect(pending.getByText(newEmail, { exact: false })).toBeVisible();
}

test.describe('account security', () => {
  test('changes the password after elevation, and another browser is logged out', async ({
    signedInPage: page,
    account,
    browser,
  }) => {
    // Two browsers and six password checks (each a deliberate Argon2 hash): on a loaded CI machine this
    // takes longer than the suite's default 30 s.
    test.setTimeout(90_000);
    const other = await browser.newContext();
    await logInBrowser(other, account);
    const otherPage = await other.newPage();
    await otherPage.goto('/environments');
    await expect(otherPage.getByRole('heading', { name: 'Environments', exact: true })).toBeVisible();

    await openSecurity(page, account.password);
    const form = page.getByRole('form', { name: 'Change Password' });
    await form.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
    await form.getByLabel('Confirm New Password').fill(`${NEW_PASSWORD}x`);
    await form.getByRole('button', { name: 'Change Password' }).click();
    await expect(form.getByText('Passwords do not match')).toBeVisible();
    await form.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
    await form.getByRole('button', { name: 'Change Password' }).click();
    await expect(
      form.getByText('Successfully updated your password! Other sessions have been logged out.'),
    ).toBeVisible();

    // The other browser's session ended; this one's stays.
    await otherPage.reload();
    await expect(otherPage.getByRole('heading', { name: 'Log in to Berth' })).toBeVisible();
    await page.goto('/environments');
    await expect(page.getByRole('heading', { name: 'Environments', exact: true })).toBeVisible();

    // The new password logs in; the old one no longer does.
    await otherPage.goto('/login');
    await submitCredentials(otherPage, { email: account.email, password: account.password });
    await expect(otherPage.getByRole('alert')).toBeVisible();
    await submitCredentials(otherPage, { email: account.email, password: NEW_PASSWORD });
    await expect(otherPage).not.toHaveURL(/\/login/);
    await other.close();
  });

  test('resets a forgotten password from the mailed link, once', async ({ page, account, mailbox }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByRole('textbox', { name: 'Email' }).fill(account.email);
    await page.getByRole('button', { name: 'Send Reset Instructions' }).click();
    const neutral =
      'If an account exists for that email address, we will email you instructions for resetting your password.';
    await expect(page.getByText(neutral)).toBeVisible();

    const mail = await mailbox.waitFor({ to: account.email, subject: 'Reset your Berth password' });
    const link = /\/password\/update\/[^/\s]+\/[^/\s]+/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();
    await page.goto(link ?? '/');
    await page.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByText('Your password was reset.', { exact: false })).toBeVisible();

    await page.getByRole('link', { name: 'Log In' }).click();
    await submitCredentials(page, { email: account.email, password: NEW_PASSWORD });
    await expect(page).not.toHaveURL(/\/login/);

    // The link works once.
    await page.goto(link ?? '/');
    await page.getByLabel('New Password', { exact: true }).fill('Another-Harbour-88');
    await page.getByLabel('Confirm New Password').fill('Another-Harbour-88');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(
      page.getByText('This password reset link is invalid, has expired or was already used.', {
        exact: false,
      }),
    ).toBeVisible();
  });

  test('answers the same for an address without an account, and mails nothing', async ({ page, mailbox }) => {
    const nobody = uniqueEmail('nobody');
    await page.goto('/forgot-password');
    await page.getByRole('textbox', { name: 'Email' }).fill(nobody);
    await page.getByRole('button', { name: 'Send Reset Instructions' }).click();
    await expect(
      page.getByText('If an account exists for that email address', { exact: false }),
    ).toBeVisible();
    await page.waitForTimeout(500);
    expect((await mailbox.all()).filter((mail) => mail.to === nobody)).toHaveLength(0);
  });

  test('changes the email through the link mailed to the new address', async ({
    signedInPage: page,
    account,
    mailbox,
  }) => {
    const newEmail = uniqueEmail('moved');
    await openSecurity(page, account.password);
    await requestEmailChange(page, newEmail);

    const mail = await mailbox.waitFor({ to: newEmail, subject: 'Verify your email' });
    await page.goto(verificationLink(mail).path);
    await page.waitForURL((url) => !url.pathname.startsWith('/verify'));
    await page.goto('/settings/profile');
    await expect(page.getByText(newEmail)).toBeVisible();
    const notice = await mailbox.waitFor({
      to: account.email,
      subject: 'Your Berth email address was changed',
    });
    expect(notice.text).toContain(newEmail);
  });

  test('shows a new pending change even when the list’s first answer was read before the request', async ({
    signedInPage: page,
    account,
  }) => {
    // On a busy machine the list's first fetch can still be on its way back when the request is answered
    // (CI saw it). Here the server reads that first fetch at once, and its answer is held until the request
    // has been answered, every time.
    const newEmail = uniqueEmail('raced');
    let requestAnswered!: () => void;
    const answered = new Promise<void>((resolve) => {
      requestAnswered = resolve;
    });
    let firstListFetch = true;
    await page.route('**/users/*/email_verification_challenges', async (route) => {
      if (route.request().method() !== 'GET' || !firstListFetch) return route.fallback();
      firstListFetch = false;
      const response = await route.fetch();
      expect(await response.json()).toMatchObject({ _embedded: { email_verification_challenges: [] } });
      await answered;
      await route.fulfill({ response });
    });
    page.on('response', (response) => {
      if (response.request().method() === 'POST' && response.url().endsWith('/email_verification_challenges'))
        requestAnswered();
    });
    await openSecurity(page, account.password);
    await requestEmailChange(page, newEmail);
    expect(firstListFetch).toBe(false);
  });
});
