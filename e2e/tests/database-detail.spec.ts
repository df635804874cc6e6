import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { createProvisionedDatabase } from '../fixtures/databases.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 2 §2 database detail: a database created and provisioned through the API (contract §5.8, §6) on
// the sim runtime is opened in the console, scaled to a 20 GB disk, its connection URL copied by an
// owner, and deprovisioned with its handle typed.

test.describe('database detail', () => {
  test('details, scale, connection URL and deprovision', async ({ signedInPage: page, account, request }) => {
    test.setTimeout(180_000);
    const environment = await createAccountEnvironment(request, account, `db-env-${uniqueSuffix()}`);
    const handle = `orders-${uniqueSuffix()}`.toLowerCase();

    // The record, then its provision operation, as the console's create form does.
    const id = await createProvisionedDatabase(request, account, environment, handle, { withImage: true });

    // Details.
    await page.goto(`/databases/${id}/cluster`);
    await expect(page.getByRole('heading', { level: 1, name: handle })).toBeVisible();
    const details = page.getByRole('region', { name: 'Database details' });
    await expect(details).toContainText('10 GB');
    await expect(details).toContainText('AES-256');
    await expect(details).toContainText('Right Sized');
    await expect(details).toContainText('Enabled');
    const tabs = page.getByRole('navigation', { name: 'Database tabs' });
    await expect(tabs.getByRole('link', { name: 'Connection URLs' })).toBeVisible();
    await expect(page.getByText('Replicas can be created only via the CLI.')).toBeVisible();

    // Scale the disk to 20 GB; the operation succeeds and the details follow.
    await tabs.getByRole('link', { name: 'Scale' }).click();
    await expect(page).toHaveURL(new RegExp(`/databases/${id}/scale$`));
    const disk = page.getByRole('spinbutton', { name: 'Disk Size (GB)' });
    await disk.fill('5');
    await expect(page.getByRole('alert')).toHaveText('Disk size must be at least 10 GB');
    await disk.fill('20');
    await page.getByRole('button', { name: 'Scale Database' }).click();
    await expect(page.getByText(/Operation \d+: scale (QUEUED|RUNNING|DONE)/)).toBeVisible();
    await expect(page.getByText(/Operation \d+: scale DONE/)).toBeVisible({ timeout: 60_000 });
    await expect(details).toContainText('20 GB', { timeout: 15_000 });

    // The owner copies the connection URL: its password is masked on screen (issue 41) and Copy writes
    // the real URL without revealing it; Reveal shows it, Hide masks it again.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await tabs.getByRole('link', { name: 'Connection URLs' }).click();
    const urls = page.getByRole('table', { name: 'Connection URLs' });
    const copy = urls.getByRole('button', { name: /^Copy .* connection URL$/ }).first();
    await expect(copy).toBeVisible();
    const shown = urls.locator('code.database-connection-url').first();
    await expect(shown).toHaveText(/^[a-z]+:\/\/[^:/@]*:•••@/);
    await copy.click();
    await expect(urls.getByRole('button', { name: 'Copied!' })).toBeVisible();
    const url = await page.evaluate(() => navigator.clipboard.readText());
    const password = /^[a-z]+:\/\/[^:/@]*:([^@]+)@/.exec(url)?.[1] ?? '';
    expect(password).not.toBe('');
    expect(url.replace(`:${password}@`, ':•••@')).toBe(await shown.textContent());
    expect(await page.content()).not.toContain(password);
    await urls
      .getByRole('button', { name: /^Reveal .* connection URL$/ })
      .first()
      .click();
    await expect(shown).toHaveText(url);
    await urls
      .getByRole('button', { name: /^Hide .* connection URL$/ })
      .first()
      .click();
    await expect(shown).toHaveText(/:•••@/);
    expect(await page.content()).not.toContain(password);

    // Deprovision with the handle typed exactly.
    await tabs.getByRole('link', { name: 'Settings' }).click();
    const deprovision = page.getByRole('button', { name: 'Deprovision Database' });
    const confirm = page.getByRole('textbox', { name: `Type ${handle} to confirm` });
    await confirm.fill(handle.slice(0, -1));
    await expect(deprovision).toBeDisabled();
    await confirm.fill(handle);
    await expect(deprovision).toBeEnabled();
    await deprovision.click();
    await expect(page).toHaveURL(new RegExp(`/environments/${environment.id}`), { timeout: 60_000 });
  });
});
