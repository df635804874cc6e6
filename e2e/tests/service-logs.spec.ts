import { createAccountEnvironment, logInBrowser } from '../fixtures/accounts.ts';
import { deployedService } from '../fixtures/operations.ts';
import { expect, test } from '../fixtures/test.ts';

// The service Logs tab (a Berth addition): the newest lines of the service's running containers, from
// the stack's runtime (here the simulated one, whose web processes print their requests).

test('the service Logs tab shows its containers’ output and follows it', async ({
  page,
  account,
  request,
}) => {
  test.setTimeout(90_000);
  const token = account.token.accessToken;
  const environment = await createAccountEnvironment(request, account, 'logs-prod');
  const { appId, serviceId } = await deployedService(request, token, environment.id, 'talker');
  await logInBrowser(page.context(), account);

  await page.goto(`/apps/${appId}/services/${serviceId}`);
  await page.getByRole('navigation', { name: 'Service tabs' }).getByRole('link', { name: 'Logs' }).click();
  await expect(page).toHaveURL(new RegExp(`/apps/${appId}/services/${serviceId}/logs$`));

  const lines = page.getByRole('list', { name: 'Log lines' });
  await expect(lines.getByRole('listitem').first()).toContainText(/talker-\S+-1-[0-9a-f]{8}/);
  await expect(
    lines
      .getByRole('listitem')
      .filter({ hasText: /"GET \/\S* HTTP\/1\.1" \d{3}/ })
      .first(),
  ).toBeVisible();

  // Following: the tab asks again by itself.
  const again = page.waitForResponse((response) =>
    response.url().includes(`/services/${serviceId}/logs?tail=200`),
  );
  expect((await again).status()).toBe(200);

  const more = page.waitForResponse((response) => response.url().includes('logs?tail=500'));
  await page.getByLabel('Lines', { exact: true }).selectOption('500');
  expect((await more).status()).toBe(200);
  await page.getByRole('checkbox', { name: 'Follow (every 5 seconds)' }).uncheck();
  await expect(page.getByRole('checkbox', { name: 'Follow (every 5 seconds)' })).not.toBeChecked();
});
