import type { APIRequestContext } from '@playwright/test';
import { createAccountEnvironment, type SeededAccount } from '../fixtures/accounts.ts';
import { createProvisionedDatabase } from '../fixtures/databases.ts';
import { deployedService, getJson } from '../fixtures/operations.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 41: the organization-wide costs page, reached from the side navigation, loaded as its own chunk:
// the total, by resource type and by environment, each figure from the server's cost lists.

type CostList = 'accounts' | 'apps' | 'databases' | 'stacks';

async function costsOf(request: APIRequestContext, account: SeededAccount, list: CostList) {
  const body = await getJson<{ _embedded: { costs: { id: string | number; est_cost: number }[] } }>(
    request,
    account.token.accessToken,
    `/api/costs/${account.organization.id}/${list}?per_page=5000`,
  );
  return new Map(body._embedded.costs.map((cost) => [String(cost.id), cost.est_cost]));
}

const usd = (amount: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);
const sum = (costs: Map<string, number>) => [...costs.values()].reduce((total, cost) => total + cost, 0);

test('the costs page shows the organization by resource type and by environment', async ({
  signedInPage: page,
  account,
  request,
}) => {
  test.setTimeout(150_000);
  const token = account.token.accessToken;
  const production = await createAccountEnvironment(request, account, 'production');
  const staging = await createAccountEnvironment(request, account, 'staging');
  await deployedService(request, token, production.id, 'storefront');
  await deployedService(request, token, staging.id, 'preview');
  await createProvisionedDatabase(request, account, production, 'orders');

  const [environments, apps, databases, stacks] = await Promise.all([
    costsOf(request, account, 'accounts'),
    costsOf(request, account, 'apps'),
    costsOf(request, account, 'databases'),
    costsOf(request, account, 'stacks'),
  ]);
  const appsTotal = sum(apps);
  const databasesTotal = sum(databases);
  const total = sum(environments) + sum(stacks);
  expect(appsTotal).toBeGreaterThan(0);
  expect(databasesTotal).toBeGreaterThan(0);

  // The page's code is fetched when it is opened, not with the console.
  const chunks: string[] = [];
  page.on('request', (request) => {
    if (/\/costs-[\w-]+\.js$/.test(request.url())) chunks.push(request.url());
  });
  await page.goto('/environments');
  await expect(page.getByRole('heading', { name: 'Environments', level: 1 })).toBeVisible();
  expect(chunks).toEqual([]);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Costs' }).click();
  await expect(page).toHaveURL(/\/costs$/);
  await expect(page.getByRole('heading', { name: 'Costs', level: 1 })).toBeVisible();
  expect(chunks.length).toBeGreaterThan(0);

  await expect(
    page.getByText(`${usd(total)} a month, about ${usd(total * 12)} a year at this rate.`),
  ).toBeVisible();

  const byType = page.getByRole('table', { name: 'Costs by resource type' });
  await expect(byType.getByRole('row', { name: `Apps 2 ${usd(appsTotal)}` })).toBeVisible();
  await expect(byType.getByRole('row', { name: `Databases 1 ${usd(databasesTotal)}` })).toBeVisible();
  await expect(byType.getByRole('row', { name: `Dedicated stacks 0 ${usd(0)} 0 %` })).toBeVisible();
  await expect(byType.getByRole('row', { name: `Total ${usd(total)} 100 %` })).toBeVisible();

  // Environments, the most expensive first, with their total.
  const byEnvironment = page.getByRole('table', { name: 'Costs by environment' });
  const productionCost = environments.get(production.id) ?? 0;
  const stagingCost = environments.get(staging.id) ?? 0;
  expect(productionCost).toBeGreaterThan(stagingCost);
  const rows = byEnvironment.getByRole('row');
  await expect(rows.nth(1)).toContainText(production.handle);
  await expect(rows.nth(1)).toContainText(usd(productionCost));
  await expect(rows.nth(2)).toContainText(staging.handle);
  await expect(rows.nth(2)).toContainText(usd(stagingCost));
  await expect(page.getByRole('status', { name: 'Total Est. Monthly Cost' })).toContainText(
    usd(productionCost + stagingCost),
  );
  await byEnvironment.getByRole('link', { name: staging.handle }).click();
  await expect(page).toHaveURL(new RegExp(`/environments/${staging.id}`));
});
