import { createAccountEnvironment, logInBrowser } from '../fixtures/accounts.ts';
import { deployedService } from '../fixtures/operations.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 2 §2 and §9, contract §4.4: the service Metrics tab charts memory, CPU and load of the
// service's containers from the metric tunnel, with a horizon switch kept in the query string.

test('the service Metrics tab charts its containers and switches horizons', async ({
  page,
  account,
  request,
}) => {
  test.setTimeout(90_000);
  const token = account.token.accessToken;
  const environment = await createAccountEnvironment(request, account, 'metrics-prod');
  const { appId, serviceId } = await deployedService(request, token, environment.id, 'charts');
  await logInBrowser(page.context(), account);

  const hourly = page.waitForResponse(
    (response) => response.url().includes('/metrics/proxy/') && response.url().includes('horizon=1h'),
  );
  await page.goto(`/apps/${appId}/services/${serviceId}/metrics`);
  expect((await hourly).status()).toBe(200);

  const metrics = page.getByRole('region', { name: 'Metrics' });
  await expect(metrics.getByRole('button', { name: '1h', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const memory = metrics.getByRole('list', { name: 'memory_all legend' });
  await expect(memory.getByRole('listitem')).toHaveText([
    /^memory_all - charts-\S+-1-[0-9a-f]{8} usage$/,
    /^memory_all - charts-\S+-1-[0-9a-f]{8} limit$/,
  ]);
  await expect(metrics.getByRole('list', { name: 'cpu_pct legend' })).toHaveText(
    /^cpu_pct - charts-\S+-1-[0-9a-f]{8}$/,
  );
  await expect(metrics.getByRole('list', { name: 'la legend' })).toHaveText(
    /^la - charts-\S+-1-[0-9a-f]{8}$/,
  );
  for (const title of ['Memory', 'CPU', 'Load Average']) {
    await expect(
      metrics
        .getByRole('img', { name: `${title} over time` })
        .locator('canvas')
        .first(),
    ).toBeVisible();
  }

  // A day: the URL keeps the horizon, and every chart asks the tunnel again.
  const daily = page.waitForResponse(
    (response) => response.url().includes('/metrics/proxy/') && response.url().includes('horizon=1d'),
  );
  await metrics.getByRole('button', { name: '1d', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/apps/${appId}/services/${serviceId}/metrics\\?horizon=1d$`));
  const answer = await daily;
  expect(answer.status()).toBe(200);
  const { columns } = (await answer.json()) as { columns: unknown[][] };
  expect(columns[0]?.[0]).toBe('time_0');
  expect(columns[0]).toHaveLength(301);
  await expect(metrics.getByRole('button', { name: '1d', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(memory.getByRole('listitem')).toHaveCount(2);
  await expect(
    metrics.getByRole('img', { name: 'Memory over time' }).locator('canvas').first(),
  ).toBeVisible();

  // A reload keeps the day.
  await page.reload();
  await expect(page.getByRole('button', { name: '1d', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('list', { name: 'la legend' })).toHaveText(/^la - charts-/);
});
