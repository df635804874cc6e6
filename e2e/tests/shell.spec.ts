import { createOrganization, logInBrowser, seedAccount, selectOrganization } from '../fixtures/accounts.ts';
import {
  accountNavigation,
  mainNavigation,
  organizationSwitcher,
  sidebar,
  storedValue,
} from '../fixtures/console.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 3 §2 "Side navigation" and "Menu behaviour"; spec 1 §3 persisted state (theme, nav); §9 theme default.
const NAV_ENTRIES = [
  'Stacks',
  'Environments',
  'Apps',
  'Databases',
  'Endpoints',
  'Services',
  'Sources',
  'Deployments',
  'Activity',
  'Costs',
  'Security & Compliance',
];
const FULL_VISIBILITY_NEEDED = 'Requires Full Visibility on any Environment';
// The rule, then its plain words (issue 20).
const FULL_VISIBILITY_DESCRIBED = `${FULL_VISIBILITY_NEEDED} Needs Full Visibility on at least one environment. Ask an owner of the organization, or an admin of one of your roles, to grant it.`;

test.describe('side navigation', () => {
  test('lists the entries in the spec order, Home first; an owner passes the permission checks', async ({
    signedInPage: page,
  }) => {
    await page.goto('/environments');
    const links = mainNavigation(page).getByRole('link');
    // Home is on by default (BERTH_HOME), for everyone with an organization (issue 38).
    await expect(links).toHaveText(['Home', ...NAV_ENTRIES]);
    await expect(mainNavigation(page).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    await expect(mainNavigation(page).getByRole('link', { name: 'Environments' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    // An organization owner passes every permission check: Security & Compliance is a live entry.
    const security = mainNavigation(page).getByRole('link', { name: 'Security & Compliance' });
    await expect(security).toHaveAttribute('href', '/security-compliance');

    await expect(accountNavigation(page).getByRole('link')).toHaveText(['Settings', 'Logout']);
  });

  test('a user without an organization is asked to select one and cannot open Security & Compliance', async ({
    page,
    verifiedUser,
  }) => {
    await logInBrowser(page.context(), verifiedUser);
    await page.goto('/environments');

    const banner = page.getByRole('alert').filter({ hasText: 'Select an organization' });
    await expect(banner).toBeVisible();
    await expect(banner.getByRole('link', { name: 'Choose Organization' })).toHaveAttribute(
      'href',
      '/organizations/picker',
    );
    await expect(banner.getByRole('link', { name: 'Create Organization' })).toHaveAttribute(
      'href',
      '/organizations/create',
    );
    await expect(organizationSwitcher(page, 'No organization')).toBeVisible();

    // No organization, no Home.
    await expect(mainNavigation(page).getByRole('link')).toHaveText(NAV_ENTRIES);
    const security = mainNavigation(page).getByRole('link', { name: 'Security & Compliance' });
    await expect(security).toHaveAttribute('aria-disabled', 'true');
    await expect(security).toHaveAccessibleDescription(FULL_VISIBILITY_DESCRIBED);
    await expect(security).not.toHaveAttribute('href');
    await security.hover();
    await expect(page.getByRole('tooltip', { name: FULL_VISIBILITY_NEEDED })).toBeVisible();
  });

  test('collapses to 64 px on a 700 px window and is 256 px wide at 1280 px', async ({
    signedInPage: page,
  }) => {
    await page.setViewportSize({ width: 700, height: 800 });
    await page.goto('/environments');
    await expect(sidebar(page)).toHaveCSS('width', '64px');
    await expect(sidebar(page).getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
    // Collapsed to icons, every entry keeps its accessible name.
    for (const entry of NAV_ENTRIES) {
      await expect(mainNavigation(page).getByRole('link', { name: entry, exact: true })).toHaveCount(1);
    }

    // spec 3 §2: "auto-collapses when the window is 767 px wide or less", following live resizes.
    await page.setViewportSize({ width: 767, height: 800 });
    await expect(sidebar(page)).toHaveCSS('width', '64px');
    await page.setViewportSize({ width: 768, height: 800 });
    await expect(sidebar(page)).toHaveCSS('width', '256px');
    await page.setViewportSize({ width: 700, height: 800 });
    await expect(sidebar(page)).toHaveCSS('width', '64px');

    // Opening it on a narrow window is for the moment: the saved preference is left alone.
    await sidebar(page).getByRole('button', { name: 'Expand sidebar' }).click();
    await expect(sidebar(page)).toHaveCSS('width', '256px');
    expect(await storedValue(page, 'nav')).toBeNull();

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();
    await expect(sidebar(page)).toHaveCSS('width', '256px');
    await expect(sidebar(page).getByRole('button', { name: 'Collapse sidebar' })).toBeVisible();
  });

  test('a user without permissions keeps the disabled entry named when the menu is collapsed', async ({
    page,
    verifiedUser,
  }) => {
    // Collapsed, the label is hidden and the icon is aria-hidden: the link must still carry its name.
    await logInBrowser(page.context(), verifiedUser);
    await page.setViewportSize({ width: 700, height: 800 });
    await page.goto('/environments');
    await expect(sidebar(page)).toHaveCSS('width', '64px');
    // The entries render together, so once Activity is there the next one is too: no need to wait long.
    await expect(mainNavigation(page).getByRole('link', { name: 'Activity' })).toBeVisible();
    const security = mainNavigation(page).getByRole('link', { name: 'Security & Compliance' });
    await expect(security).toHaveAttribute('aria-disabled', 'true', { timeout: 1_000 });
    await expect(security).toHaveAccessibleDescription(FULL_VISIBILITY_DESCRIBED);
  });

  test('the collapse toggle is saved in localStorage "nav"', async ({ signedInPage: page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/environments');
    await expect(sidebar(page)).toHaveCSS('width', '256px');

    await sidebar(page).getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect(sidebar(page)).toHaveCSS('width', '64px');
    expect(JSON.parse((await storedValue(page, 'nav')) ?? 'null')).toEqual({ collapsed: true });

    await page.reload();
    await expect(sidebar(page).getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
    await expect(sidebar(page)).toHaveCSS('width', '64px');

    await sidebar(page).getByRole('button', { name: 'Expand sidebar' }).click();
    await expect(sidebar(page)).toHaveCSS('width', '256px');
    expect(JSON.parse((await storedValue(page, 'nav')) ?? 'null')).toEqual({ collapsed: false });
  });

  test('the theme toggle switches to dark and keeps it across a reload', async ({ signedInPage: page }) => {
    await page.goto('/environments');
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'light');

    await sidebar(page).getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    expect(await storedValue(page, 'theme')).toBe('dark');

    await page.reload();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await sidebar(page).getByRole('button', { name: 'Switch to light theme' }).click();
    await expect(html).toHaveAttribute('data-theme', 'light');
    expect(await storedValue(page, 'theme')).toBe('light');
  });

  test("the organization switcher lists the user's organizations and switches", async ({ page, request }) => {
    const account = await seedAccount(request, { organization: 'Alpha Harbour' });
    await createOrganization(request, account.token.accessToken, 'Beta Harbour With A Long Name');
    // Creating an organization selects it; the first one is the current one here.
    await selectOrganization(request, account, account.organization.id);
    await logInBrowser(page.context(), account);
    await page.goto('/environments');

    const switcher = organizationSwitcher(page, 'Alpha Harbour');
    await expect(switcher).toContainText('shared-us-west-1');
    await switcher.click();

    const menu = page.getByRole('menu', { name: 'Organizations' });
    await expect(menu.getByRole('menuitemradio')).toHaveCount(2);
    await expect(menu.getByRole('menuitemradio', { name: 'Alpha Harbour' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    // spec 3 §2: names are cut to 20 characters.
    const beta = menu.getByRole('menuitemradio', { name: 'Beta Harbour With A ...' });
    await expect(beta).toHaveAttribute('aria-checked', 'false');
    await expect(menu.getByRole('menuitem', { name: 'All organizations' })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Create Organization' })).toBeVisible();

    // Escape closes the menu and gives the focus back to the switcher.
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(switcher).toBeFocused();
    await switcher.click();

    await beta.click();
    await expect(menu).toBeHidden();
    await expect(organizationSwitcher(page, 'Beta Harbour With A Long Name')).toBeVisible();
    await expect(page.getByText('Environments of Beta Harbour With A Long Name')).toBeVisible();

    // The selection is the user's, kept by the server.
    await page.reload();
    await expect(organizationSwitcher(page, 'Beta Harbour With A Long Name')).toBeVisible();
  });
});
