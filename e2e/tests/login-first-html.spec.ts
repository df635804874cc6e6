import type { Page } from '@playwright/test';
import { HOME_URL, passwordField } from '../fixtures/console.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 40: the sign-in pages arrive with their form in the HTML the server sends (built from the same
// React components), usable with JavaScript off, and taken over by the console without losing what was
// typed or the focus.

/** The console's entry module, as index.html names it (fingerprinted by the build). */
const ENTRY_SCRIPT = /\/assets\/index-[\w-]+\.js$/;

/**
 * Holds the console's entry script back until `release` is called, and at least 1.5 s: the visitor acts on
 * the page the server sent. (Typing key by key on a busy machine can outlast a fixed delay.)
 */
async function holdEntryScript(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(ENTRY_SCRIPT, async (route) => {
    await Promise.all([released, new Promise((resolve) => setTimeout(resolve, 1500))]);
    await route.continue();
  });
  return release;
}

test.describe('the login form in the first HTML', () => {
  test('with JavaScript off, /login shows the form and a post answers that the console needs JavaScript', async ({
    browser,
    baseURL,
    account,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    try {
      const page = await context.newPage();
      await page.goto('/login');
      const email = page.getByRole('textbox', { name: 'Email' });
      await expect(email).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Log in to Berth' })).toBeVisible();

      await email.fill(account.email);
      await passwordField(page).fill(account.password);
      const answer = page.waitForResponse(
        (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/login',
      );
      await page.getByRole('button', { name: 'Log In' }).click();
      expect((await answer).status()).toBe(200);

      await expect(page.getByRole('alert')).toContainText('does this with JavaScript');
      await expect(page).toHaveURL(/\/login$/);
      // The typed email comes back; the password is never sent back.
      await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(account.email);
      await expect(passwordField(page)).toHaveValue('');
    } finally {
      await context.close();
    }
  });

  test('with JavaScript on, an email typed before the scripts run survives the takeover, focused, and login works', async ({
    page,
    account,
  }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      // The browser's own line for an answered request (the signed-out session check is a 401) is no script error.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    // Hold the console's entry script back, so the visitor types into the page the server sent.
    const release = await holdEntryScript(page);

    // `load` waits for the held module: only the page's arrival is awaited.
    await page.goto('/login', { waitUntil: 'commit' });
    const email = page.getByRole('textbox', { name: 'Email' });
    await expect(email).toBeVisible();
    await email.click();
    await page.keyboard.type(account.email);
    // Typed while the server's markup was still the page: the console has not taken it over yet.
    await expect(page.locator('#root[data-prerendered]')).toHaveCount(1);
    release();

    await expect(page.locator('#root[data-prerendered]')).toHaveCount(0, { timeout: 15_000 });
    await expect(email).toHaveValue(account.email);
    await expect(email).toBeFocused();

    // The form is React's now: logging in works as ever.
    await passwordField(page).fill(account.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page).toHaveURL(HOME_URL);
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('a submit pressed before the scripts run is held and sent by the console once it has loaded', async ({
    page,
    account,
  }) => {
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
    });
    const release = await holdEntryScript(page);

    await page.goto('/login', { waitUntil: 'commit' });
    await page.getByRole('textbox', { name: 'Email' }).fill(account.email);
    await passwordField(page).fill(account.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.locator('#root[data-prerendered]')).toHaveCount(1);
    release();

    await expect(page).toHaveURL(HOME_URL, { timeout: 15_000 });
    // Signed in through the API (tokens in memory), never by posting the page.
    expect(posts).not.toContain('/login');
  });

  test('/signup and /forgot-password arrive with their forms, without JavaScript', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    try {
      const page = await context.newPage();
      await page.goto('/signup');
      await expect(page.getByRole('textbox', { name: 'Name' })).toBeVisible();
      await page.goto('/forgot-password');
      await expect(page.getByRole('textbox', { name: 'Email' })).toBeVisible();
      await page.getByRole('textbox', { name: 'Email' }).fill('someone@example.com');
      await page.getByRole('button', { name: 'Send Reset Instructions' }).click();
      await expect(page.getByRole('alert')).toContainText('does this with JavaScript');
      await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue('someone@example.com');
    } finally {
      await context.close();
    }
  });

  test('the pages of mailed links (password reset, 2FA reset) arrive with their forms, without JavaScript', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    try {
      const page = await context.newPage();
      await page.goto('/password/update/a-challenge/a-code');
      await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
      await page.getByLabel('New Password', { exact: true }).fill('Another password 1');
      await page.getByLabel('Confirm New Password').fill('Another password 1');
      // Pressable: the button is disabled until both are filled only once the console's code runs.
      await page.getByRole('button', { name: 'Reset Password' }).click();
      await expect(page.getByRole('alert')).toContainText('does this with JavaScript');
      await expect(page).toHaveURL(/\/password\/update\/a-challenge\/a-code$/);
      await expect(page.getByLabel('New Password', { exact: true })).toHaveValue('');

      await page.goto('/otp-reset-verify/a-challenge/a-code');
      await expect(page.getByRole('heading', { name: 'Reset two-factor authentication' })).toBeVisible();
      await page.getByRole('button', { name: 'Reset 2FA' }).click();
      await expect(page.getByRole('alert')).toContainText('does this with JavaScript');
    } finally {
      await context.close();
    }
  });
});
