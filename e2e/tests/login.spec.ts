import type { Request } from '@playwright/test';
import { HOME_URL, organizationSwitcher, passwordField, submitCredentials } from '../fixtures/console.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 1 §2 "Login", §4 "Login" and the redirect rules, §5 login validation; spec 3 §4 session restore.

test.describe('login', () => {
  test('shows the login form and logs a verified owner into Home', async ({ page, account }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Log in to Berth' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Email' })).toBeEditable();
    await expect(passwordField(page)).toHaveAttribute('type', 'password');
    await expect(page.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');

    await submitCredentials(page, account);

    await expect(page).toHaveURL(HOME_URL);
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
    await expect(organizationSwitcher(page, account.organization.name)).toBeVisible();
  });

  test("a wrong password shows the server's error and signs nobody in", async ({ page, account }) => {
    await page.goto('/login');
    await submitCredentials(page, { email: account.email, password: `${account.password}-wrong` });

    await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Log In' })).toBeEnabled();

    await page.goto('/environments');
    await expect(page).toHaveURL(/\/login$/);

    // The right password then works (on to the page tried before), and the old error is gone.
    await submitCredentials(page, { email: account.email, password: account.password });
    await expect(page).toHaveURL(/\/environments$/);
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password' })).toHaveCount(0);
  });

  test('checks the email and password before calling the server', async ({ page }) => {
    const tokenRequests: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/auth/tokens') {
        tokenRequests.push(request);
      }
    });
    await page.goto('/login');

    await submitCredentials(page, {});
    await expect(page.getByText('Email must not be empty', { exact: true })).toBeVisible();
    await expect(page.getByText('Password must not be empty', { exact: true })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveAttribute('aria-invalid', 'true');

    await submitCredentials(page, { email: 'not-an-email', password: 'anything at all' });
    await expect(page.getByText('Must provide valid email', { exact: true })).toBeVisible();
    await expect(page.getByText('Email must not be empty')).toBeHidden();
    await expect(page.getByText('Password must not be empty')).toBeHidden();

    expect(tokenRequests).toHaveLength(0);
  });

  test('a protected page sends a signed-out visitor to login and back after logging in', async ({
    page,
    account,
  }) => {
    await page.goto('/create/environment');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Log in to Berth' })).toBeVisible();

    await submitCredentials(page, account);

    await expect(page).toHaveURL(/\/create\/environment$/);
    await expect(page.getByRole('heading', { name: 'Name your Environment' })).toBeVisible();
    // The remembered page is used once.
    expect(await page.evaluate(() => window.localStorage.getItem('redirectPath'))).toBeNull();
  });

  test('a reload keeps the session through the session cookie', async ({ page, account }) => {
    await page.goto('/login');
    await submitCredentials(page, account);
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();

    const restored = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/auth/current_token',
    );
    await page.reload();
    expect((await restored).status()).toBe(200);

    await expect(page).toHaveURL(HOME_URL);
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
    await expect(organizationSwitcher(page, account.organization.name)).toBeVisible();
  });

  test('a browser that logged in before gets through the lock of an attacked account; others do not', async ({
    page,
    account,
    request,
  }) => {
    await page.goto('/login');
    await submitCredentials(page, account);
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
    const device = (await page.context().cookies()).find((cookie) => cookie.name === 'berth_device');
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/auth/tokens' });

    // Signed out (only the session cookie goes), while an attacker locks the account out.
    await page.context().clearCookies({ name: 'berth_session' });
    const attempt = (password: string) =>
      request.post('/auth/tokens', {
        headers: { 'content-type': 'application/hal+json' },
        data: JSON.stringify({ username: account.email, password, grant_type: 'password', scope: 'manage' }),
      });
    for (let i = 0; i < 10; i += 1) expect((await attempt(`${account.password}-wrong`)).status()).toBe(401);
    // A browser without the device cookie is locked out, even with the right password.
    expect((await attempt(account.password)).status()).toBe(429);

    // The console sends the device cookie with its login, and gets in.
    await page.goto('/login');
    const login = page.waitForRequest(
      (sent) => sent.method() === 'POST' && new URL(sent.url()).pathname === '/auth/tokens',
    );
    await submitCredentials(page, account);
    expect(await (await login).headerValue('cookie')).toContain(`berth_device=${device?.value}`);
    await expect(page).toHaveURL(HOME_URL);
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  });

  test('tells a signed-in visitor of /login that they are already logged in', async ({ signedInPage }) => {
    const page = signedInPage;
    await page.goto('/login');

    await expect(page.getByText('You are already logged in!', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log In' })).toHaveCount(0);

    await page.getByRole('link', { name: 'Continue to the dashboard' }).click();
    await expect(page).toHaveURL(HOME_URL);
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  });
});
