import { createOrganization, logInBrowser, seedAccount, selectOrganization } from '../fixtures/accounts.ts';
import { HOME_URL, mainNavigation, organizationSwitcher } from '../fixtures/console.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 1 §2 /organizations/create and /organizations/picker, §5 "Create Organization: name not blank".

test.describe('organizations', () => {
  test('a blank name is refused', async ({ page, verifiedUser }) => {
    await logInBrowser(page.context(), verifiedUser);
    await page.goto('/organizations/create');
    await expect(page.getByRole('heading', { name: 'Create Organization' })).toBeVisible();
    const name = page.getByRole('textbox', { name: 'Organization name' });
    const create = page.getByRole('button', { name: 'Create Organization' });

    await create.click();
    await expect(page.getByText('Name must not be empty', { exact: true })).toBeVisible();
    await expect(name).toHaveAttribute('aria-invalid', 'true');

    await name.fill('    ');
    await create.click();
    await expect(page.getByText('Name must not be empty', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/organizations\/create$/);
  });

  test('a user without an organization creates one from the banner and works in it', async ({
    page,
    verifiedUser,
  }) => {
    await logInBrowser(page.context(), verifiedUser);
    await page.goto('/environments');
    await page
      .getByRole('alert')
      .filter({ hasText: 'Select an organization' })
      .getByRole('link', { name: 'Create Organization' })
      .click();

    await expect(page).toHaveURL(/\/organizations\/create$/);
    await page.getByRole('textbox', { name: 'Organization name' }).fill('First Harbour');
    await page.getByRole('button', { name: 'Create Organization' }).click();

    await expect(page).toHaveURL(HOME_URL);
    await expect(organizationSwitcher(page, 'First Harbour')).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Select an organization' })).toHaveCount(0);
    // Its creator owns it, so no permission keeps a menu entry off any more: Security & Compliance
    // is a live entry.
    await expect(mainNavigation(page).getByRole('link', { name: 'Security & Compliance' })).toHaveAttribute(
      'href',
      '/security-compliance',
    );
  });

  test('creating an organization selects it', async ({ signedInPage: page, account }) => {
    await page.goto('/environments');
    await expect(organizationSwitcher(page, account.organization.name)).toBeVisible();

    await page.goto('/organizations/create');
    await page.getByRole('textbox', { name: 'Organization name' }).fill('Second Harbour');
    await page.getByRole('button', { name: 'Create Organization' }).click();

    await expect(page).toHaveURL(HOME_URL);
    await expect(organizationSwitcher(page, 'Second Harbour')).toBeVisible();
    await organizationSwitcher(page, 'Second Harbour').click();
    const menu = page.getByRole('menu', { name: 'Organizations' });
    await expect(menu.getByRole('menuitemradio', { name: 'Second Harbour' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expect(menu.getByRole('menuitemradio', { name: account.organization.name })).toHaveAttribute(
      'aria-checked',
      'false',
    );
  });

  test('the picker lists the organizations and selecting one switches to it', async ({ page, request }) => {
    const account = await seedAccount(request, { organization: 'North Pier' });
    await createOrganization(request, account.token.accessToken, 'South Pier');
    // Creating an organization selects it; the first one is the current one here.
    await selectOrganization(request, account, account.organization.id);
    await logInBrowser(page.context(), account);

    await page.goto('/organizations/picker');
    await expect(page.getByRole('heading', { name: 'Choose Organization' })).toBeVisible();
    const list = page.getByRole('list', { name: 'Your organizations' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    const north = list.getByRole('listitem').filter({ hasText: 'North Pier' });
    const south = list.getByRole('listitem').filter({ hasText: 'South Pier' });
    await expect(north).toHaveAttribute('aria-current', 'true');
    await expect(north).toContainText('Current');
    await expect(south).not.toHaveAttribute('aria-current');

    await south.getByRole('button', { name: 'Select South Pier' }).click();
    await expect(page).toHaveURL(HOME_URL);
    await expect(organizationSwitcher(page, 'South Pier')).toBeVisible();

    await page.goto('/organizations/picker');
    await expect(list.getByRole('listitem').filter({ hasText: 'South Pier' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await expect(list.getByRole('listitem').filter({ hasText: 'North Pier' })).not.toHaveAttribute(
      'aria-current',
    );
  });
});
