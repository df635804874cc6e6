import { deployedService, getJson } from '../fixtures/operations.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 41: the autoscaling form takes its thresholds in percent (the contract stores 0.8 for 80 %) with
// its messages in percent, and the manual container count says when autoscaling overrides it.

test('autoscaling thresholds are percentages, and the manual count says autoscaling overrides it', async ({
  signedInPage: page,
  account,
  environment,
  request,
}) => {
  test.setTimeout(150_000);
  const token = account.token.accessToken;
  const web = await deployedService(request, token, environment.id, `shop-${Date.now().toString(36)}`);
  await page.goto(`/apps/${web.appId}/services/${web.serviceId}/scale`);

  const count = page.getByRole('spinbutton', { name: 'Number of Containers' });
  await expect(count).toBeVisible();
  await expect(page.getByText(/autoscaling overrides/)).toHaveCount(0);

  await page.getByRole('combobox', { name: 'Autoscaling' }).selectOption('horizontal');
  const up = page.getByRole('spinbutton', { name: 'Scale up CPU threshold (%)' });
  const down = page.getByRole('spinbutton', { name: 'Scale down CPU threshold (%)' });
  await expect(up).toHaveValue('90');
  await expect(down).toHaveValue('10');
  await up.fill('150');
  await expect(page.getByText('Scale up CPU threshold must be between 0 % and 100 %')).toBeVisible();
  await up.fill('80');
  await down.fill('85');
  await expect(page.getByText('Scale down CPU threshold must be less than scale up threshold')).toBeVisible();
  await down.fill('25');
  await page.getByLabel('Maximum containers').fill('5');
  await page.getByRole('button', { name: 'Save Autoscaling' }).click();
  await expect(page.getByText('Autoscaling policy saved.')).toBeVisible();

  // Stored as the contract says: fractions of 1.
  const policy = await getJson<{ min_cpu_threshold: number; max_cpu_threshold: number }>(
    request,
    token,
    `/api/services/${web.serviceId}/service_sizing_policies`,
  );
  expect(policy.max_cpu_threshold).toBe(0.8);
  expect(policy.min_cpu_threshold).toBe(0.25);
  const current = page.getByRole('region', { name: 'Current policy details' });
  await expect(current.getByText('25 % down, 80 % up')).toBeVisible();
  await expect(page.getByRole('spinbutton', { name: 'Scale up CPU threshold (%)' })).toHaveValue('80');

  // The manual form says the policy decides the count, and says it to a screen reader with the field.
  const override =
    'Horizontal autoscaling overrides this count: it keeps the service between 2 and 5 containers by CPU use.';
  await expect(page.getByText(override)).toBeVisible();
  await expect(count).toHaveAccessibleDescription(new RegExp(override.replace(/[.]/g, '\\.')));
});
