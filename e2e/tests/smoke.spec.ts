import { expect, test } from '../fixtures/test.ts';

test('the console opens on the login page', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('textbox', { name: 'Email' })).toBeVisible();
});
