import type { APIRequestContext } from '@playwright/test';
import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 2 §2 New Endpoint on a database page and the endpoint's Connection URL tab: a database created
// and provisioned through the API (contract §5.8, §6) on the sim runtime gets an endpoint from the
// console (contract §5.9 database endpoint, then provision), whose page shows the database's
// credentials rewritten to the endpoint's host and published port (contract §4.3 port_mapping).

function headers(token: string): Record<string, string> {
  return { 'content-type': 'application/hal+json', authorization: `Bearer ${token}` };
}

async function apiGet<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const response = await request.get(path, { headers: headers(token) });
  if (!response.ok()) throw new Error(`GET ${path} answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function apiPost<T>(
  request: APIRequestContext,
  token: string,
  path: string,
  body: unknown,
): Promise<T> {
  const response = await request.post(path, { headers: headers(token), data: JSON.stringify(body) });
  if (!response.ok()) throw new Error(`POST ${path} answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function operationStatus(request: APIRequestContext, token: string, id: string): Promise<string> {
  const response = await request.get(`/api/operations/${id}`, { headers: headers(token) });
  if (!response.ok()) return `http ${response.status()}`;
  return ((await response.json()) as { status: string }).status;
}

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
    const images = await apiGet<{ _embedded: { database_images: { id: string | number; type: string }[] } }>(
      request,
      token,
      '/api/database_images?per_page=5000',
    );
    const image = images._embedded.database_images.find((item) => item.type === 'postgresql');
    expect(image).toBeDefined();
    const database = await apiPost<{ id: string | number }>(
      request,
      token,
      `/api/accounts/${environment.id}/databases`,
      {
        handle,
        type: 'postgresql',
        account_id: environment.id,
        database_image_id: image?.id,
        enable_backups: true,
      },
    );
    const id = String(database.id);
    const provision = await apiPost<{ id: string | number }>(
      request,
      token,
      `/api/databases/${id}/operations`,
      {
        type: 'provision',
      },
    );
    await expect
      .poll(() => operationStatus(request, token, String(provision.id)), {
        timeout: 60_000,
        intervals: [500],
      })
      .toBe('succeeded');
    const provisioned = await apiGet<{ port_mapping: [number, number][] }>(
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
