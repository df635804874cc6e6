import { seedAccount } from '../fixtures/accounts.ts';
import { accountNavigation, HOME_URL, organizationSwitcher, submitCredentials } from '../fixtures/console.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 3 §2 "Bottom of the menu: ... Logout"; contract §3.5: logout revokes the tokens and clears the store.

test.describe('logout', () => {
  test('Logout in the sidebar ends the session for good', async ({ signedInPage }) => {
    const page = signedInPage;
    await page.goto('/environments');
    await expect(page.getByRole('heading', { name: 'Environments', exact: true })).toBeVisible();
    // The device cookie is the browser's, not the session's: it outlives a logout (issue 34).
    const sessionOnly = <T extends { name: string; httpOnly: boolean }>(cookies: T[]) =>
      cookies.filter((cookie) => cookie.httpOnly && cookie.name !== 'berth_device');
    const sessionCookies = sessionOnly(await page.context().cookies());
    expect(sessionCookies.length).toBeGreaterThan(0);

    await accountNavigation(page).getByRole('link', { name: 'Logout' }).click();

    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Log in to Berth' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
    // The server dropped the session cookie along with the token.
    await expect.poll(async () => sessionOnly(await page.context().cookies())).toHaveLength(0);
    expect((await page.context().cookies()).map((cookie) => cookie.name)).toContain('berth_device');

    await page.goto('/environments');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();

    // Even the cookie of the old session, put back, no longer restores it: the token was revoked.
    await page.context().addCookies(sessionCookies);
    const restore = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/auth/current_token',
    );
    await page.goto('/environments');
    expect((await restore).status()).toBe(401);
    await expect(page).toHaveURL(/\/login$/);
    await page.reload();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
  });

  test('after a logout, the next user in the same tab sees only their own organization', async ({
    page,
    request,
  }) => {
    const first = await seedAccount(request, { organization: 'First Dock' });
    const second = await seedAccount(request, { organization: 'Second Dock' });

    await page.goto('/login');
    await submitCredentials(page, first);
    await expect(organizationSwitcher(page, 'First Dock')).toBeVisible();
    await accountNavigation(page).getByRole('link', { name: 'Logout' }).click();
    await expect(page.getByRole('heading', { name: 'Log in to Berth' })).toBeVisible();

    await submitCredentials(page, second);
    await expect(page).toHaveURL(HOME_URL);
    await expect(organizationSwitcher(page, 'Second Dock')).toBeVisible();
    await organizationSwitcher(page, 'Second Dock').click();
    const menu = page.getByRole('menu', { name: 'Organizations' });
    await expect(menu.getByRole('menuitemradio')).toHaveText(['Second Dock']);
  });
});
