import { createAccountEnvironment, logInBrowser } from '../fixtures/accounts.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { deployedService, getJson } from '../fixtures/operations.ts';
import { overflowWidth } from '../fixtures/screen.ts';
import { createRoleWithScopes, inviteAndAccept } from '../fixtures/team.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 41: Restart is in the app's and the service's header, on every tab, not at the foot of Settings.
// It asks first (Confirm and Cancel in its place; Escape cancels), its accessible name contains its
// visible label, and a member without Ops sees it disabled with the rule's text, as the server refuses.

const denial = (environmentId: string) =>
  `You do not have "observability" permissions for this environment (id:${environmentId})`;

test('the app and the service restart from their headers, after a confirmation', async ({
  signedInPage: page,
  account,
  request,
}) => {
  test.setTimeout(240_000);
  const token = account.token.accessToken;
  const environment = await createAccountEnvironment(request, account, `restart-${uniqueSuffix()}`);
  const { appId, serviceId } = await deployedService(request, token, environment.id, 'shop');

  // The app, on its Services tab: Restart App sits in the header beside Deploy.
  await page.goto(`/apps/${appId}`);
  const appHeader = page.locator('header.page-header');
  await expect(appHeader.getByRole('heading', { level: 1, name: 'shop' })).toBeVisible();
  const restartApp = appHeader.getByRole('button', { name: 'Restart App' });
  await expect(restartApp).toHaveText('Restart App');
  await expect(appHeader.getByRole('button', { name: 'Deploy' })).toBeVisible();
  // Settings no longer holds one.
  await page.getByRole('navigation', { name: 'App tabs' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(new RegExp(`/apps/${appId}/settings$`));
  await expect(page.getByRole('button', { name: /^Restart/ })).toHaveCount(1);

  // By keyboard: the confirmation takes focus and says what happens; Escape gives focus back.
  await restartApp.focus();
  await page.keyboard.press('Enter');
  await expect(
    page.getByText('Every container of its services stops and starts again; requests may fail meanwhile.'),
  ).toBeVisible();
  const confirmApp = appHeader.getByRole('button', { name: 'Confirm restart of the app' });
  await expect(confirmApp).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(restartApp).toBeFocused();
  await restartApp.click();
  await confirmApp.click();
  await expect(page.getByText(/^Operation \d+: restart DONE$/)).toBeVisible({ timeout: 60_000 });

  // The service, on its Metrics tab: Restart Service in the header, named by what it shows.
  await page.goto(`/apps/${appId}/services/${serviceId}`);
  const serviceHeader = page.locator('header.page-header');
  const restartService = serviceHeader.getByRole('button', { name: 'Restart Service' });
  await expect(restartService).toHaveText('Restart Service');
  await restartService.click();
  await expect(
    page.getByText('Its containers stop and start again; requests may fail meanwhile.'),
  ).toBeVisible();
  await serviceHeader.getByRole('button', { name: 'Cancel' }).click();
  await expect(restartService).toBeFocused();
  await restartService.click();
  await serviceHeader.getByRole('button', { name: /^Confirm restart of / }).click();
  const done = page.getByText(/^Operation \d+: restart DONE$/);
  await expect(done).toBeVisible({ timeout: 60_000 });
  // The restart was the service's own: it is in the service's operations.
  const operations = await getJson<{ _embedded: { operations: { type: string; status: string }[] } }>(
    request,
    token,
    `/api/services/${serviceId}/operations`,
  );
  expect(operations._embedded.operations).toContainEqual(
    expect.objectContaining({ type: 'restart', status: 'succeeded' }),
  );

  // On a phone the header's confirmation wraps within the window.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/apps/${appId}`);
  await page.locator('header.page-header').getByRole('button', { name: 'Restart App' }).click();
  await expect(page.getByRole('button', { name: 'Confirm restart of the app' })).toBeVisible();
  expect(await overflowWidth(page)).toBeLessThanOrEqual(0);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Confirm restart of the app' })).toHaveCount(0);
});

test('a member without Ops sees both Restart buttons disabled with the rule, and the server refuses', async ({
  page,
  account,
  verifiedUser: reader,
  request,
}) => {
  test.setTimeout(150_000);
  const token = account.token.accessToken;
  const environment = await createAccountEnvironment(request, account, `restart-read-${uniqueSuffix()}`);
  const { appId, serviceId } = await deployedService(request, token, environment.id, 'shop');
  const role = await createRoleWithScopes(request, account, {
    name: `Readers ${uniqueSuffix()}`,
    environment,
    scopes: ['read'],
  });
  await inviteAndAccept(request, account, role, reader);
  await logInBrowser(page.context(), reader);

  for (const [path, name] of [
    [`/apps/${appId}`, 'Restart App'],
    [`/apps/${appId}/services/${serviceId}`, 'Restart Service'],
  ] as const) {
    await page.goto(path);
    const button = page.locator('header.page-header').getByRole('button', { name });
    await expect(button).toHaveAttribute('aria-disabled', 'true');
    await expect(button).toHaveAccessibleDescription(
      new RegExp(`^${denial(environment.id).replace(/[()]/g, '\\$&')}`),
    );
    // Disabled (focusable, for its tooltip), pressing it asks nothing.
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: /^Confirm restart/ })).toHaveCount(0);
  }

  const headers = {
    authorization: `Bearer ${reader.token.accessToken}`,
    'content-type': 'application/hal+json',
  };
  const refusedApp = await request.post(`/api/apps/${appId}/operations`, {
    headers,
    data: { type: 'restart' },
  });
  expect(refusedApp.status()).toBe(403);
  const refusedService = await request.post(`/api/services/${serviceId}/operations`, {
    headers,
    data: { type: 'restart' },
  });
  expect(refusedService.status()).toBe(403);
});
