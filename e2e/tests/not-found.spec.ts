import { expect, test } from '../fixtures/test.ts';

// spec 1 §2 "Page Not Found: links to login, docs and a status page. Generic error page: Back and Login
// buttons", §8 their texts. This installation configures no docs or status page, so only login is linked.
const PAGE_NOT_FOUND =
  "We can't find the page you're looking for. Maybe you mistyped the address? If not, the page may have moved.";

test.describe('error pages', () => {
  for (const path of ['/no-such-page', '/environments/12/nothing/here', '/404']) {
    test(`${path} shows Page Not Found with a way to login`, async ({ page }) => {
      await page.goto(path);

      await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
      await expect(page.getByText(PAGE_NOT_FOUND, { exact: true })).toBeVisible();
      const links = page.getByRole('navigation', { name: 'Helpful links' }).getByRole('link');
      await expect(links).toHaveText(['Go to login']);

      await links.first().click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole('heading', { name: 'Log in to Berth' })).toBeVisible();
    });
  }

  test("/error shows Something's gone wrong with the message, Back and Login", async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await page.goto('/error?message=Boom');

    await expect(page.getByRole('heading', { name: "Something's gone wrong" })).toBeVisible();
    await expect(page.getByText('Boom', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();

    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/no-such-page$/);
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();

    await page.goForward();
    await expect(page.getByRole('heading', { name: "Something's gone wrong" })).toBeVisible();
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Log in to Berth' })).toBeVisible();
  });
});
