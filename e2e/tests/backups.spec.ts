import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { createProvisionedDatabase } from '../fixtures/databases.ts';
import { getJson, waitForOperation } from '../fixtures/operations.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 2 §2 Backups: the environment's Backups tab, the retention policy edit with its warning, a manual
// backup, and a restore into a new database that the restore operation provisions.

test.describe('backups', () => {
  test('edits the retention policy, takes a backup and restores it into a new database', async ({
    signedInPage: page,
    account,
    request,
  }) => {
    test.setTimeout(120_000);
    const token = account.token.accessToken;
    const environment = await createAccountEnvironment(request, account, 'backups-env');
    await createProvisionedDatabase(request, account, environment, 'orders');

    await page.goto(`/environments/${environment.id}/backups`);
    const policy = page.getByRole('region', { name: 'Retention policy' });
    await expect(policy.getByRole('region', { name: 'Backup retention policy' })).toContainText(
      'Daily backups30',
    );

    // Fewer daily backups deletes some: the warning comes before saving.
    await policy.getByRole('button', { name: 'Edit Policy' }).click();
    const form = page.getByRole('form', { name: 'Backup retention policy' });
    await expect(form).toContainText('Recommended for non-production');
    await form.getByLabel('Daily backups').fill('7');
    await form.getByRole('button', { name: 'Save Policy' }).click();
    await expect(form).toContainText('deletes existing automated backups');
    await form.getByRole('button', { name: 'Save anyway' }).click();
    await expect(page.getByText('The backup retention policy was saved.')).toBeVisible();
    await expect(policy.getByRole('region', { name: 'Backup retention policy' })).toContainText(
      'Daily backups7',
    );

    // A manual backup of the database, followed until it ends.
    await page.getByRole('button', { name: 'Create Backup' }).click();
    await expect(page.getByText(/Operation \d+: backup DONE/)).toBeVisible({ timeout: 60_000 });
    const table = page.getByRole('table', { name: 'Backups' });
    const row = table.getByRole('row').filter({ hasText: 'Manual' }).first();
    await expect(row).toBeVisible();
    await expect(row.getByRole('link', { name: 'orders' })).toBeVisible();

    // Restore it into a new database.
    await row.getByRole('link', { name: 'Restore' }).click();
    await expect(page).toHaveURL(/\/backups\/\d+\/restore$/);
    const restore = page.getByRole('form', { name: 'Restore backup' });
    await expect(restore.getByLabel('Handle')).toHaveValue(/^orders-at-/);
    await expect(restore.getByLabel('Environment')).toHaveValue(environment.id);
    await expect(restore.getByLabel('Disk Size (GB)')).toHaveValue('10');
    await restore.getByLabel('Handle').fill('orders-restored');
    await restore.getByRole('button', { name: 'Restore' }).click();
    // A quick operation has already moved to its logs view (?view=logs) by the time the URL is read.
    await expect(page).toHaveURL(/\/operations\/\d+(\?view=logs)?$/);
    const operationId = page.url().split('/').pop() ?? '';
    await expect(page.getByText('Operation DONE')).toBeVisible({ timeout: 60_000 });
    expect(await waitForOperation(request, token, operationId, 60_000)).toBe('succeeded');

    const list = await getJson<{ _embedded: { databases: { handle: string; status: string }[] } }>(
      request,
      token,
      `/api/accounts/${environment.id}/databases`,
    );
    const databases = list._embedded.databases;
    expect(databases.find((database) => database.handle === 'orders-restored')?.status).toBe('provisioned');

    // Issue 41: the restore's page links the database it made.
    const details = page.getByRole('region', { name: 'Operation details' });
    await details.getByRole('link', { name: 'orders-restored' }).click();
    await expect(page).toHaveURL(/\/databases\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'orders-restored' })).toBeVisible();
  });
});
