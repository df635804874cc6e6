import type { Locator, Page } from '@playwright/test';
import { sidebar } from '../fixtures/console.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 8: the console reads each service family's OpenAPI document (`<family>/openapi.json`) into a
// public API reference, linked from the sidebar's footer links and from the sign-in pages' footer.

function family(page: Page, title: string): Locator {
  return page.getByRole('region', { name: title, exact: true });
}

function operation(scope: Locator, tag: string, name: string): Locator {
  return scope.getByRole('region', { name: tag, exact: true }).getByRole('article', { name, exact: true });
}

test.describe('API reference', () => {
  test('opens from the sidebar footer and lists a known route of each family', async ({
    signedInPage: page,
  }) => {
    await page.goto('/environments');
    await sidebar(page).getByRole('link', { name: 'API reference' }).click();
    await expect(page).toHaveURL(/\/api-reference$/);
    await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();

    const api = family(page, 'Berth API');
    const show = operation(api, 'Operations', 'GET /api/operations/{id}');
    await expect(show).toContainText('Token required');
    const auth = family(page, 'Berth Auth');
    await expect(operation(auth, 'Tokens', 'POST /auth/tokens')).toContainText('Public');
    await expect(family(page, 'Berth Metrics').getByRole('article').first()).toBeVisible();
    await expect(family(page, 'Berth Billing')).toBeVisible();

    // An operation opens onto its parameters and answers, the component schema resolved into fields.
    await show.locator('summary').first().click();
    await expect(show.getByRole('table')).toContainText('path');
    const answer = show.getByRole('region', { name: 'Response 200 schema' });
    await expect(answer).toContainText('Operation');
    await expect(answer.getByText('previous_container_count', { exact: true })).toBeVisible();

    // The filter narrows every family at once and survives a reload.
    await page.getByRole('searchbox', { name: 'Filter operations' }).fill('post /auth/tokens');
    await expect(show).toHaveCount(0);
    await page.reload();
    await expect(operation(family(page, 'Berth Auth'), 'Tokens', 'POST /auth/tokens')).toBeVisible();
    await expect(operation(family(page, 'Berth API'), 'Operations', 'GET /api/operations/{id}')).toHaveCount(
      0,
    );

    await page.getByRole('link', { name: 'Back to console' }).click();
    await expect(sidebar(page)).toBeVisible();
  });

  test('is public: the sign-in page links to it', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'API reference' }).click();
    await expect(page).toHaveURL(/\/api-reference$/);
    await expect(
      operation(family(page, 'Berth API'), 'Operations', 'GET /api/operations/{id}'),
    ).toContainText('Token required');
    await expect(page.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });
});
