import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { mainNavigation, sidebar } from '../fixtures/console.ts';
import { expect, test } from '../fixtures/test.ts';

// Walking the console as a new user: no entry leads to a dead page. A destination not built yet is
// disabled with a tooltip saying so; an unknown page, or an unknown sub-path of a resource, shows
// Page Not Found (spec 1 §8) inside the shell, with the menu still there.
const NOT_AVAILABLE = 'Not available in this installation yet';
const PAGE_NOT_FOUND =
  "We can't find the page you're looking for. Maybe you mistyped the address? If not, the page may have moved.";

test.describe('no dead ends', () => {
  test('Security & Compliance and SUPPORT say they are not available yet', async ({
    signedInPage: page,
    account,
    request,
  }) => {
    // An environment gives the owner Full Visibility, so only "not built" keeps Security & Compliance off.
    await createAccountEnvironment(request, account);
    await page.goto('/environments');
    // Databases is built (issue 9): a live entry.
    await mainNavigation(page).getByRole('link', { name: 'Databases' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Databases' })).toBeVisible();
    await page.goto('/environments');
    const entries = [
      mainNavigation(page).getByRole('link', { name: 'Security & Compliance' }),
      sidebar(page).getByRole('link', { name: 'SUPPORT' }),
    ];
    for (const entry of entries) {
      await expect(entry).toHaveAttribute('aria-disabled', 'true');
      await expect(entry).toHaveAccessibleDescription(NOT_AVAILABLE);
      await entry.hover();
      await expect(page.getByRole('tooltip').filter({ hasText: NOT_AVAILABLE }).first()).toBeVisible();
      // Clicking a disabled entry goes nowhere (force: Playwright would wait for it to be enabled).
      await entry.click({ force: true });
      await expect(page).toHaveURL(/\/environments$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Environments' })).toBeVisible();
    }
  });

  test('an unknown page and unknown sub-paths of a resource show Page Not Found inside the shell', async ({
    signedInPage: page,
    environment,
    app,
  }) => {
    for (const path of [
      '/no-such-page',
      `/apps/${app.id}/nothing`,
      `/environments/${environment.id}/resume`,
      `/environments/${environment.id}/nothing/here`,
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
      await expect(page.getByText(PAGE_NOT_FOUND, { exact: true })).toBeVisible();
      await expect(mainNavigation(page).getByRole('link', { name: 'Apps' })).toBeVisible();
    }
    await page
      .getByRole('navigation', { name: 'Helpful links' })
      .getByRole('link', { name: 'Go to environments' })
      .click();
    await expect(page).toHaveURL(/\/environments$/);
  });

  test('opening /billing in a browser gets the console’s page; an API call keeps the JSON 404', async ({
    signedInPage: page,
    request,
  }) => {
    // The console's payment page shares its path with the billing API family's root.
    await page.goto('/billing');
    await expect(page.getByRole('heading', { level: 1, name: 'Add payment information' })).toBeVisible();
    await expect(mainNavigation(page).getByRole('link', { name: 'Apps' })).toBeVisible();

    const api = await request.get('/billing', { headers: { accept: 'application/hal+json' } });
    expect(api.status()).toBe(404);
    expect(await api.json()).toMatchObject({ code: 404, error: 'not_found' });
  });
});
