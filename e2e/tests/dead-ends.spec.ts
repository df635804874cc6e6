import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { mainNavigation, sidebar } from '../fixtures/console.ts';
import { expect, test } from '../fixtures/test.ts';

// Walking the console as a new user: no entry leads to a dead page, and none is disabled as not built
// (the tooltip the console used for those is gone with the last of them); an unknown page, or an unknown
// sub-path of a resource, shows Page Not Found (spec 1 §8) inside the shell, with the menu still there.
const NOT_AVAILABLE = 'Not available in this installation yet';
/** Entries whose page sends the browser on to another path of its own (the settings root to the members). */
const LANDS_ON: Record<string, string> = { '/settings': '/settings/team/members' };
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PAGE_NOT_FOUND =
  "We can't find the page you're looking for. Maybe you mistyped the address? If not, the page may have moved.";

test.describe('no dead ends', () => {
  test('every entry of the side navigation opens a page of its own; none is disabled as not built', async ({
    signedInPage: page,
    account,
    request,
    baseURL,
  }) => {
    await createAccountEnvironment(request, account);
    await page.goto('/environments');
    await expect(page.getByRole('heading', { level: 1, name: 'Environments' })).toBeVisible();
    // Issue 38 built the last of them (Deploy, Security & Compliance, SUPPORT): nothing says it is missing.
    await expect(sidebar(page).locator('[aria-disabled="true"]')).toHaveCount(0);
    await expect(page.getByText(NOT_AVAILABLE)).toHaveCount(0);
    const entries = [
      ...(await mainNavigation(page).getByRole('link').allInnerTexts()).map((name) =>
        mainNavigation(page).getByRole('link', { name: name.trim(), exact: true }),
      ),
      sidebar(page).getByRole('link', { name: 'Deploy', exact: true }),
      sidebar(page).getByRole('link', { name: 'Settings', exact: true }),
      sidebar(page).getByRole('link', { name: 'SUPPORT', exact: true }),
      sidebar(page).getByRole('link', { name: 'API REFERENCE', exact: true }),
    ];
    expect(entries.length).toBeGreaterThan(10);
    for (const entry of entries) {
      const href = (await entry.getAttribute('href')) ?? '';
      expect(href).toMatch(/^\//);
      await entry.click();
      // The whole address, anchored: Home's "/" must land on "/" itself, not on any page.
      const landing = `${baseURL}${LANDS_ON[href] ?? href}`;
      await expect(page).toHaveURL(new RegExp(`^${escapeRegExp(landing)}(\\?.*)?$`));
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toHaveCount(0);
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
