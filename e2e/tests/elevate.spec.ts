import { logInBrowser, seedAccount } from '../fixtures/accounts.ts';
import { passwordField, submitCredentials } from '../fixtures/console.ts';
import { type OwnServer, startOwnServer } from '../fixtures/own-server.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 1 §2 "Elevation: email read-only, password, 2FA code if required, and a redirect query parameter".

test.describe('elevation', () => {
  test('confirms the password and goes on to the redirect', async ({ signedInPage: page, account }) => {
    await page.goto('/elevate?redirect=/environments');
    await expect(page.getByRole('heading', { name: 'Confirm your identity' })).toBeVisible();
    const email = page.getByRole('textbox', { name: 'Email' });
    await expect(email).toHaveValue(account.email);
    await expect(email).not.toBeEditable();
    await expect(page.getByRole('textbox', { name: '2FA Code' })).toHaveCount(0);

    await passwordField(page).fill(account.password);
    const elevated = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && new URL(response.url()).pathname === '/auth/tokens',
    );
    await page.getByRole('button', { name: 'Confirm' }).click();
    const response = await elevated;
    expect(response.status()).toBe(201);
    expect(response.request().postDataJSON()).toMatchObject({ username: account.email, scope: 'elevated' });

    await expect(page).toHaveURL(/\/environments$/);
    await expect(page.getByRole('heading', { name: 'Environments', exact: true })).toBeVisible();
  });

  test('a wrong password shows the server error and stays', async ({ signedInPage: page, account }) => {
    await page.goto('/elevate?redirect=/environments');
    await passwordField(page).fill(`${account.password}-wrong`);
    await page.getByRole('button', { name: 'Confirm' }).click();

    await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
    await expect(page).toHaveURL(/\/elevate\?redirect=/);
    await expect(page.getByRole('heading', { name: 'Confirm your identity' })).toBeVisible();
    // The session itself is untouched.
    await page.goto('/environments');
    await expect(page.getByRole('heading', { name: 'Environments', exact: true })).toBeVisible();
  });

  test('an outside redirect is not followed', async ({ signedInPage: page, account }) => {
    await page.goto('/elevate?redirect=//example.com/phish');
    await passwordField(page).fill(account.password);
    await page.getByRole('button', { name: 'Confirm' }).click();

    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });
});

// Issue 41: the elevation is kept across reloads for 15 minutes on the server (the session's sudo window),
// since the console keeps its elevated token in memory only. The server's clock is moved past the window
// by restarting a server of this test's own with a clock that runs ahead (a test-only preload).
test.describe('the sudo window', () => {
  let server: OwnServer | undefined;
  test.afterAll(async () => {
    await server?.stop();
  });

  test('a reload within 15 minutes needs no password; past them the form asks again', async ({ browser }) => {
    // Two server starts on a loaded machine.
    test.setTimeout(300_000);
    server = await startOwnServer({
      name: 'sudo-window',
      preload: ['./packages/server/src/testing/shifted-clock.ts'],
      env: { BERTH_TEST_CLOCK_OFFSET_MS: '0' },
    });
    const account = await seedAccount(server.api);
    const context = await browser.newContext({ baseURL: server.origin });
    await logInBrowser(context, account);
    const page = await context.newPage();
    // Whether the credentials form ever showed, however briefly, since the page last loaded.
    await page.addInitScript(() => {
      // By its heading: the Security page itself has password fields (Change Password).
      const seen = () => {
        const headings = Array.from(document.querySelectorAll('h1, h2'));
        if (headings.some((heading) => heading.textContent?.trim() === 'Confirm your identity')) {
          document.documentElement.dataset.formShown = 'yes';
        }
      };
      new MutationObserver(seen).observe(document, { childList: true, subtree: true });
    });
    const formShown = () => page.evaluate(() => document.documentElement.dataset.formShown === 'yes');
    const security = page.getByRole('heading', { name: 'Security Settings' });

    await page.goto('/settings/security');
    await submitCredentials(page, { password: account.password }, 'Confirm');
    await expect(security).toBeVisible();

    const fromWindow = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' &&
        new URL(response.url()).pathname === '/auth/tokens' &&
        response.request().postDataJSON()?.grant_type === 'session_elevation',
    );
    await page.reload();
    expect((await fromWindow).status()).toBe(201);
    await expect(page).toHaveURL(/\/settings\/security$/);
    await expect(security).toBeVisible();
    expect(await formShown()).toBe(false);

    // Sixteen minutes on, on the server's clock: the window has closed, the session has not.
    await server.stop();
    server.env.BERTH_TEST_CLOCK_OFFSET_MS = String(16 * 60_000);
    await server.restart();
    await page.goto('/settings/security');
    await expect(page.getByRole('heading', { name: 'Confirm your identity' })).toBeVisible();
    await expect(page).toHaveURL(/\/elevate\?redirect=/);
    await submitCredentials(page, { password: account.password }, 'Confirm');
    await expect(security).toBeVisible();
    await context.close();
  });
});
