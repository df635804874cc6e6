import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { createProvisionedDatabase } from '../fixtures/databases.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { getJson } from '../fixtures/operations.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 2 §2 New Endpoint on a database page and the endpoint's Connection URL tab: a database created
// and provisioned through the API (contract §5.8, §6) on the sim runtime gets an endpoint from the
// console (contract §5.9 database endpoint, then provision), whose page shows the database's
// credentials rewritten to the endpoint's host and published port (contract §4.3 port_mapping).

test.describe('database endpoints', () => {
  test('New Endpoint on a database, provisioned, with its Connection URL', async ({
    signedInPage: page,
    account,
    request,
  }) => {
    test.setTimeout(180_000);
    const token = account.token.accessToken;
    const environment = await createAccountEnvironment(request, account, `dbe-env-${uniqueSuffix()}`);
    const handle = `ledger-${uniqueSuffix()}`.toLowerCase();

    // Set-up through the API: the record, then its provision operation, followed until it succeeds.
    const id = await createProvisionedDatabase(request, account, environment, handle, { withImage: true });
    const provisioned = await getJson<{ port_mapping: [number, number][] }>(
      request,
      token,
      `/api/databases/${id}`,
    );
    expect(provisioned.port_mapping.length).toBeGreaterThan(0);

    // The database's Endpoints tab offers New Endpoint.
    await page.goto(`/databases/${id}/endpoints`);
    await expect(page.getByRole('heading', { level: 1, name: handle })).toBeVisible();
    await expect(page.getByRole('table', { name: `Endpoints of database ${id}` })).toContainText(
      'No resources found',
    );
    await page.getByRole('link', { name: 'New Endpoint' }).click();
    await expect(page).toHaveURL(new RegExp(`/databases/${id}/endpoints/create$`));
    await expect(page.getByRole('heading', { level: 1, name: 'New Endpoint' })).toBeVisible();

    // core's allowlist message, then a valid allowlist; saving creates and provisions the endpoint.
    const allowlist = page.getByRole('textbox', { name: 'IP Allowlist' });
    await allowlist.fill('300.1.1.1');
    await page.getByRole('button', { name: 'Save Endpoint' }).click();
    await expect(page.getByText('[300.1.1.1] is not a valid IPv4 address or CIDR')).toBeVisible();
    await allowlist.fill('203.0.113.0/24');
    await page.getByRole('button', { name: 'Save Endpoint' }).click();
    await expect(page).toHaveURL(/\/endpoints\/\d+$/);
    const details = page.getByRole('region', { name: 'Endpoint details' });
    await expect(details).toContainText(handle);
    await expect(details).toContainText('203.0.113.0/24');
    await expect(details).toContainText('Provisioned', { timeout: 60_000 });

    // Connection URL: the credentials on the endpoint's host and a published port.
    const hostname =
      (await details.getByText('Hostname').locator('xpath=following-sibling::*[1]').textContent()) ?? '';
    expect(hostname).not.toBe('');
    const tabs = page.getByRole('navigation', { name: 'Endpoint tabs' });
    await tabs.getByRole('link', { name: 'Connection URL' }).click();
    await expect(page).toHaveURL(/\/endpoints\/\d+\/credentials$/);
    const url = page.locator('code.endpoint-connection-url').first();
    await expect(url).toBeVisible();
    const published = provisioned.port_mapping.map(([, port]) => String(port));
    const text = (await url.textContent()) ?? '';
    const parsed = /^postgresql:\/\/[^@]+@([^:/]+):(\d+)\//.exec(text);
    expect(parsed?.[1]).toBe(hostname);
    expect(published).toContain(parsed?.[2]);

    // Back on the database, the endpoint is listed.
    await page.goto(`/databases/${id}/endpoints`);
    await expect(page.getByRole('table', { name: `Endpoints of database ${id}` })).toContainText(hostname);
  });
});
