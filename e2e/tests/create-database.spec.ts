import { getJson } from '../fixtures/operations.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 41: a new database starts on PostgreSQL's newest version from the catalog the console gets, and
// the form shows its monthly price before creating it (core's pricing for its container and disk),
// the same figure the server's cost list then gives it.

interface ImageRow {
  id: string | number;
  type: string;
  version: string;
  description: string;
  visible: boolean;
}

test('Create Database starts on the newest PostgreSQL and shows its monthly price', async ({
  signedInPage: page,
  account,
  environment,
  request,
}) => {
  const token = account.token.accessToken;
  const catalog = await getJson<{ _embedded: { database_images: ImageRow[] } }>(
    request,
    token,
    '/api/database_images?per_page=5000',
  );
  const newest = catalog._embedded.database_images
    .filter((image) => image.visible && image.type === 'postgresql')
    .sort((a, b) => Number.parseFloat(b.version) - Number.parseFloat(a.version))[0];
  expect(newest).toBeDefined();

  await page.goto(`/create/db?environment_id=${environment.id}`);
  const type = page.getByRole('combobox', { name: 'Database Type' });
  await expect(type).toHaveValue(String(newest?.id));
  await expect(type.locator('option:checked')).toHaveText(newest?.description ?? '');
  await expect(page.getByRole('textbox', { name: 'Handle' })).toHaveValue(/postgresql$/);

  // 1 GB of m5 for 730 hours at $0.08 per GB-hour, and 10 GB of disk at $0.20.
  const price = page.getByText(/^Estimated monthly cost:/);
  await expect(price).toHaveText(
    'Estimated monthly cost: $60.40 for its container and disk, plus $0.02 a month per GB of backups.',
  );
  await page.getByRole('combobox', { name: 'Container Size' }).selectOption({ label: '2 GB' });
  await expect(price).toContainText('$118.80');
  const disk = page.getByRole('spinbutton', { name: 'Disk Size (GB)' });
  await disk.fill('100');
  await expect(price).toContainText('$136.80');
  await page.getByRole('checkbox', { name: 'Enable backups' }).uncheck();
  await expect(price).toHaveText('Estimated monthly cost: $136.80 for its container and disk.');

  const handle = `shop-${Date.now().toString(36)}`;
  await page.getByRole('textbox', { name: 'Handle' }).fill(handle);
  await page.getByRole('button', { name: 'Create Database' }).click();
  await expect(page).toHaveURL(/\/databases\/[^/]+/);
  const databaseId = /\/databases\/([^/?#]+)/.exec(page.url())?.[1] ?? '';

  // The server prices it as the form said.
  await expect
    .poll(async () => {
      const costs = await getJson<{ _embedded: { costs: { id: string | number; est_cost: number }[] } }>(
        request,
        token,
        `/api/costs/${account.organization.id}/databases?per_page=5000`,
      );
      const cost = costs._embedded.costs.find((row) => String(row.id) === databaseId);
      return cost ? cost.est_cost.toFixed(2) : null;
    })
    .toBe('136.80');
});
