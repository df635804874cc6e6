import type { APIRequestContext } from '@playwright/test';
import { createAccountEnvironment, createEnvironment } from '../fixtures/accounts.ts';
import { mainNavigation, sidebar } from '../fixtures/console.ts';
import { uniqueEmail, uniqueSuffix } from '../fixtures/emails.ts';
import { invitationLink } from '../fixtures/mailbox.ts';
import { createApp, deployApp, waitForOperation } from '../fixtures/operations.ts';
import { createRoleWithScopes } from '../fixtures/team.ts';
import { expect, test } from '../fixtures/test.ts';

// Defects found walking the console as a new user: what each page shows, and that it fits the window.

function headers(token: string): Record<string, string> {
  return { 'content-type': 'application/hal+json', authorization: `Bearer ${token}` };
}

/** A deployed app, its first service, and a finished scale of that service (count 2, size 2 GB). */
async function scaledApp(request: APIRequestContext, token: string, organizationId: string) {
  const environment = await createEnvironment(request, token, { organizationId });
  const app = await createApp(request, token, environment.id, `shop-${uniqueSuffix()}`);
  expect(await waitForOperation(request, token, (await deployApp(request, token, app.id, 'main')).id)).toBe(
    'succeeded',
  );
  const services = await (
    await request.get(`/api/apps/${app.id}/services`, { headers: headers(token) })
  ).json();
  const serviceId = String(services._embedded.services[0].id);
  const scale = await request.post(`/api/services/${serviceId}/operations`, {
    headers: headers(token),
    data: JSON.stringify({ type: 'scale', container_count: 2, container_size: 2048 }),
  });
  expect(await waitForOperation(request, token, String((await scale.json()).id))).toBe('succeeded');
  return { environment, app, serviceId };
}

test.describe('walking the console as a new user', () => {
  test.setTimeout(90_000);

  test('the app names its source; the service banner keeps its distance from the details card', async ({
    signedInPage: page,
    account,
    request,
  }) => {
    const { environment, app, serviceId } = await scaledApp(
      request,
      account.token.accessToken,
      account.organization.id,
    );
    await page.goto(`/apps/${app.id}`);
    const details = page.getByRole('region', { name: 'App details' });
    // The first git deploy made a source named after the environment and the app.
    await expect(details.getByRole('link', { name: `${environment.handle}/${app.handle}` })).toBeVisible();

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/apps/${app.id}/services/${serviceId}`);
    const banner = page.getByRole('main').locator('.banner').filter({ hasText: 'Last Scale' });
    const card = page.getByRole('region', { name: 'Service details' });
    await expect(banner).toBeVisible();
    // The scale recorded what it changed from (issue 8): the deploy's one 512 MB container.
    await expect(banner).toContainText('Container count from 1 to 2; Container size from 512 MB to 2 GB');
    await expect(card).toBeVisible();
    const bannerBox = await banner.boundingBox();
    const cardBox = await card.boundingBox();
    expect(cardBox && bannerBox && cardBox.y - (bannerBox.y + bannerBox.height)).toBeGreaterThanOrEqual(12);
  });

  test('the role permission matrix fits a 1440 px window', async ({
    signedInPage: page,
    account,
    request,
  }) => {
    const environment = await createAccountEnvironment(request, account);
    const role = await createRoleWithScopes(request, account, {
      name: 'Developers',
      environment,
      scopes: ['deploy'],
    });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/roles/${role.id}/environments`);
    const matrix = page.getByRole('table', { name: 'Environment permissions of Developers' });
    const tunnel = matrix.getByRole('columnheader', { name: 'Tunnel' });
    await expect(tunnel).toBeInViewport();
    const box = await tunnel.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(1440);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
  });

  test('at 700 px tall the bottom of the menu can be reached', async ({ signedInPage: page }) => {
    await page.setViewportSize({ width: 1280, height: 700 });
    await page.goto('/environments');
    await expect(mainNavigation(page).getByRole('link', { name: 'Apps' })).toBeVisible();
    const logout = sidebar(page).getByRole('link', { name: 'Logout' });
    const support = sidebar(page).getByRole('link', { name: 'SUPPORT' });
    await support.scrollIntoViewIfNeeded();
    await expect(logout).toBeInViewport();
    await expect(support).toBeInViewport();
  });

  test('signing up from an invitation fills the invited email; the side panel says what this installation does', async ({
    browser,
    account,
    request,
    mailbox,
  }) => {
    const token = account.token.accessToken;
    const role = await (
      await request.post(`/auth/organizations/${account.organization.id}/roles`, {
        headers: headers(token),
        data: JSON.stringify({ name: 'Contractors', type: 'platform_user' }),
      })
    ).json();
    const email = uniqueEmail('invitee');
    await request.post(`/auth/roles/${role.id}/invitations`, {
      headers: headers(token),
      data: JSON.stringify({ email, origin: 'app' }),
    });
    const link = invitationLink(await mailbox.waitFor({ to: email, subject: /invited you to/ }));

    const visitor = await browser.newContext();
    try {
      const page = await visitor.newPage();
      await page.goto(link.path);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();

      const panel = page.getByRole('complementary', { name: 'Why Berth' });
      await expect(panel).toContainText('Deploy by git ref');
      await expect(panel).toContainText('Scale and configure');
      await expect(panel).not.toContainText(/2FA|single sign-on|databases/i);

      await page.getByRole('textbox', { name: 'Name' }).fill('Ivy Invitee');
      await page.getByRole('button', { name: 'Next' }).click();
      await expect(page.getByRole('heading', { name: 'Choose your login' })).toBeVisible();
      await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
    } finally {
      await visitor.close();
    }
  });
});
