import { expect, test } from '../fixtures/test.ts';

// spec 3 §2 /sources/setup: how a repository becomes a source.
test('the source setup page explains how a source appears and links onward', async ({
  signedInPage: page,
}) => {
  await page.goto('/sources/setup');
  await expect(page.getByRole('heading', { name: 'Set up a source' })).toBeVisible();
  const steps = page.getByRole('region', { name: 'How sources appear' });
  await expect(steps).toContainText('A source is created automatically the first time an app is deployed');
  await expect(steps).toContainText('"type": "deploy"');
  await steps.getByRole('link', { name: 'Sources' }).click();
  await expect(page).toHaveURL(/\/sources$/);
});
