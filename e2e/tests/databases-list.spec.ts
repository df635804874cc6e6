import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 2 §2 Databases and spec 3 §2 Create Database: a database made with the console's form (the record,
// then its provision operation) is listed on /databases and on its environment's Databases tab.

test.describe('the Databases list', () => {
  test.setTimeout(90_000);

  test('creates a database with the form and finds it in both lists', async ({
    signedInPage: page,
    account,
    request,
  }) => {
    const environment = await createAccountEnvironment(request, account, `env-${uniqueSuffix()}`);
    const handle = `orders-${uniqueSuffix()}`.toLowerCase();

    await page.goto(`/create/db?environment_id=${environment.id}`);
    const handleBox = page.getByRole('textbox', { name: 'Handle' });
    // The suggestion: environment handle, 5 random characters, the type.
    await expect(handleBox).toHaveValue(new RegExp(`^${environment.handle}-[a-z0-9]{5}-[a-z]+$`));
    await handleBox.fill(handle);
    await expect(page.getByRole('checkbox', { name: 'Enable backups' })).toBeChecked();
    await page.getByRole('button', { name: 'Create Database' }).click();
    await expect(page).toHaveURL(/\/databases\/\d+/);
    const id = /\/databases\/(\d+)/.exec(page.url())?.[1] ?? '';

    await page.goto('/databases');
    const table = page.getByRole('table', { name: 'Databases' });
    const link = table.getByRole('link', { name: handle, exact: true });
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute('href', `/databases/${id}`);
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: handle, exact: true }) });
    await expect(row).toContainText(environment.handle);
    await expect(row).toContainText('10 GB');
    await expect(row).toContainText('Enabled');
    await expect(page.getByRole('status', { name: 'Total Est. Monthly Cost' })).toBeVisible();

    await page.getByRole('searchbox').fill(id);
    await expect(link).toBeVisible();
    await page.getByRole('searchbox').fill(`no-such-db-${uniqueSuffix()}`);
    await expect(table.getByRole('cell', { name: 'No resources found' })).toBeVisible();

    await page.goto(`/environments/${environment.id}/databases`);
    const tab = page.getByRole('table', { name: 'Databases' });
    await expect(tab.getByRole('link', { name: handle, exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'New Database' })).toHaveAttribute(
      'href',
      `/create/db?environment_id=${environment.id}`,
    );
  });
});
