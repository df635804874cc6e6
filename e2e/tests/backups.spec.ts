import type { APIRequestContext } from '@playwright/test';
import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { waitForOperation } from '../fixtures/operations.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 2 §2 Backups: the environment's Backups tab, the retention policy edit with its warning, a manual
// backup, and a restore into a new database that the restore operation provisions.

function headers(token: string): Record<string, string> {
  return { 'content-type': 'application/hal+json', authorization: `Bearer ${token}` };
}

async function postJson<T>(
  request: APIRequestContext,
  token: string,
  path: string,
  body: unknown,
): Promise<T> {
  const response = await request.post(path, { headers: headers(token), data: JSON.stringify(body) });
  expect(response.ok(), `POST ${path}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

/** POST /api/accounts/:id/databases then a `provision` operation, followed until it ends. */
async function provisionDatabase(
  request: APIRequestContext,
  token: string,
  environmentId: string,
  handle: string,
) {
  const database = await postJson<{ id: string | number }>(
    request,
    token,
    `/api/accounts/${environmentId}/databases`,
    {
      handle,
      type: 'postgresql',
    },
  );
  const id = String(database.id);
  const operation = await postJson<{ id: string | number }>(
    request,
    token,
    `/api/databases/${id}/operations`,
    {
      type: 'provision',
    },
  );
  expect(await waitForOperation(request, token, String(operation.id), 60_000)).toBe('succeeded');
  return id;
}

test.describe('backups', () => {
  test('edits the retention policy, takes a backup and restores it into a new database', async ({
    signedInPage: page,
    account,
    request,
  }) => {
    test.setTimeout(120_000);
    const token = account.token.accessToken;
    const environment = await createAccountEnvironment(request, account, 'backups-env');
    await provisionDatabase(request, token, environment.id, 'orders');

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
    await expect(page.getByText(/Operation \d+: backup succeeded/)).toBeVisible({ timeout: 60_000 });
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
    await expect(page).toHaveURL(/\/operations\/\d+$/);
    const operationId = page.url().split('/').pop() ?? '';
    await expect(page.getByText('succeeded').first()).toBeVisible({ timeout: 60_000 });
    expect(await waitForOperation(request, token, operationId, 60_000)).toBe('succeeded');

    const list = await request.get(`/api/accounts/${environment.id}/databases`, { headers: headers(token) });
    const databases = (
      (await list.json()) as { _embedded: { databases: { handle: string; status: string }[] } }
    )._embedded.databases;
    expect(databases.find((database) => database.handle === 'orders-restored')?.status).toBe('provisioned');
  });
});
