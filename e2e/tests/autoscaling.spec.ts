import type { Page } from '@playwright/test';
import { createAccountEnvironment, type SeededAccount, seedAccount } from '../fixtures/accounts.ts';
import { HOME_URL, submitCredentials } from '../fixtures/console.ts';
import { deployedService, getJson, postJson, waitForOperation } from '../fixtures/operations.ts';
import { type OwnServer, startOwnServer } from '../fixtures/own-server.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 13's autoscaling half in the console: set a horizontal policy on a service's Scale tab and watch
// the autoscaler bring the service up to the policy's minimum with its reason, then see a sizing
// recommendation for an oversized service in the Services list and on its page. A server of its own
// looks every 2 s and advises services at once (the default waits for a day of measurements).

let server: OwnServer | undefined;
let account: SeededAccount;
let web: { appId: string; serviceId: string };
let big: { appId: string; serviceId: string };

test.describe.configure({ mode: 'serial', timeout: 90_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer({
    name: 'autoscaling',
    env: {
      BERTH_AUTOSCALE_INTERVAL_SECONDS: '2',
      BERTH_RECOMMENDATION_CHECK_SECONDS: '2',
      BERTH_RECOMMENDATION_MIN_OBSERVED_MINUTES: '0',
    },
  });
  account = await seedAccount(server.api, { organization: 'Elastic Harbour' });
  const environment = await createAccountEnvironment(server.api, account, 'elastic');
  const token = account.token.accessToken;
  web = await deployedService(server.api, token, environment.id, 'storefront');
  big = await deployedService(server.api, token, environment.id, 'reports');
  // An oversized service: 15 GB for what uses a small part of it.
  const scale = await postJson<{ id: string | number }>(
    server.api,
    token,
    `/api/services/${big.serviceId}/operations`,
    {
      type: 'scale',
      container_size: 15360,
    },
  );
  expect(await waitForOperation(server.api, token, String(scale.id))).toBe('succeeded');
});

test.afterAll(async () => {
  await server?.stop();
});

async function signIn(page: Page) {
  await page.goto(`${server?.origin}/login`);
  await submitCredentials(page, { email: account.email, password: account.password });
  await expect(page).toHaveURL(HOME_URL);
}

test('sets a horizontal autoscaling policy, and the autoscaler scales the service to its minimum', async ({
  page,
}) => {
  await signIn(page);
  await page.goto(`${server?.origin}/apps/${web.appId}/services/${web.serviceId}/scale`);
  await expect(page.getByText('No policy: this service keeps the size and count it is given.')).toBeVisible();
  await page.getByRole('combobox', { name: 'Autoscaling' }).selectOption('horizontal');
  const minimum = page.getByLabel('Minimum containers');
  await minimum.fill('0');
  await expect(page.getByText('Minimum containers must be greater than 0')).toBeVisible();
  await minimum.fill('1');
  await expect(page.getByText('Warning: High-availability requires at least 2 containers')).toBeVisible();
  await minimum.fill('2');
  await page.getByLabel('Maximum containers').fill('3');
  // The app was deployed a moment ago: no wait after its release.
  await page.getByLabel('Cooldown after release (s)').fill('0');
  await page.getByRole('button', { name: 'Save Autoscaling' }).click();
  await expect(page.getByText('Autoscaling policy saved.')).toBeVisible();
  const current = page.getByRole('region', { name: 'Current policy details' });
  await expect(current.getByText('Horizontal')).toBeVisible();
  await expect(current.getByText('2 to 3')).toBeVisible();

  // The service runs one container, below the policy's minimum: the autoscaler scales it, saying why.
  const token = account.token.accessToken;
  await expect
    .poll(
      async () =>
        (
          await getJson<{ container_count: number }>(
            server?.api ?? page.request,
            token,
            `/api/services/${web.serviceId}`,
          )
        ).container_count,
      { timeout: 30_000 },
    )
    .toBe(2);
  const operations = await getJson<{ _embedded: { operations: { type: string; note: string }[] } }>(
    server?.api ?? page.request,
    token,
    `/api/services/${web.serviceId}/operations`,
  );
  expect(operations._embedded.operations.find((operation) => operation.type === 'scale')?.note).toBe(
    "Autoscaling: Below the policy's minimum of 2: 1 → 2 containers",
  );
  await page.reload();
  await expect(page.getByText('Last Scale')).toBeVisible();
  await page.goto(`${server?.origin}/services`);
  const row = page.getByRole('row').filter({ hasText: 'storefront' });
  await expect(row.getByText('Autoscaling')).toBeVisible();
});

test('shows a sizing recommendation for an oversized service', async ({ page }) => {
  await signIn(page);
  const token = account.token.accessToken;
  await expect
    .poll(
      async () =>
        (
          await getJson<{
            _embedded: {
              manual_service_sizing_recommendations: {
                service_id: string;
                container_memory_limit_mb_at_time: number;
              }[];
            };
          }>(server?.api ?? page.request, token, '/api/manual_service_sizing_recommendations?per_page=5000')
        )._embedded.manual_service_sizing_recommendations.some(
          (recommendation) =>
            recommendation.service_id === big.serviceId &&
            recommendation.container_memory_limit_mb_at_time === 15360,
        ),
      { timeout: 30_000 },
    )
    .toBe(true);
  await page.goto(`${server?.origin}/services`);
  const row = page.getByRole('row').filter({ hasText: 'reports' });
  await expect(row.getByText('Scale Down')).toBeVisible();
  await expect(row.getByText(/Save up to \$[\d,]+\.\d\d/)).toBeVisible();
  await page.goto(`${server?.origin}/apps/${big.appId}/services/${big.serviceId}`);
  const details = page.getByRole('region', { name: 'Service details' });
  await expect(details.getByText('Scale Down')).toBeVisible();
});
