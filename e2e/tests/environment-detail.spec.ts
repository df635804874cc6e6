import type { APIRequestContext } from '@playwright/test';
import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 2 §2 Environments: the detail with its fields and tabs, rename with acknowledgment, and deprovision
// with the typed handle (refused by the server while an app remains, naming it).

/** POST /api/accounts/:id/apps (contract §5.7): an app in the environment. */
async function createApp(request: APIRequestContext, token: string, environmentId: string, handle: string) {
  const response = await request.post(`/api/accounts/${environmentId}/apps`, {
    headers: { 'content-type': 'application/hal+json', authorization: `Bearer ${token}` },
    data: JSON.stringify({ handle }),
  });
  expect(response.status(), await response.text()).toBe(201);
  return String(((await response.json()) as { id: string | number }).id);
}

test.describe('environment detail', () => {
  test('opens from the list on the apps tab, shows its fields and every tab', async ({
    signedInPage: page,
    account,
    request,
  }) => {
    const token = account.token.accessToken;
    const environment = await createAccountEnvironment(request, account, 'web-production');
    const appId = await createApp(request, token, environment.id, 'storefront');

    await page.goto('/environments');
    const list = page.getByRole('table', { name: 'Environments' });
    await expect(
      list
        .getByRole('row', { name: /web-production/ })
        .getByRole('cell')
        .nth(5),
    ).toHaveText(/^\$\d/);
    await expect(page.getByRole('status', { name: 'Total Est. Monthly Cost' })).toBeVisible();
    await list.getByRole('link', { name: 'web-production' }).click();

    await expect(page).toHaveURL(new RegExp(`/environments/${environment.id}/apps$`));
    await expect(page.getByRole('heading', { name: 'web-production' })).toBeVisible();
    const details = page.getByRole('region', { name: 'Environment details' });
    await expect(details).toContainText(`ID${environment.id}`);
    await expect(details).toContainText('Stackshared-us-west-1');
    await expect(details).toContainText(/Apps1 \(\d+ containers?\)/);
    await expect(details).toContainText(/Databases0 \(0 containers, \d+(\.\d+)? GB disk\)/);
    await expect(details).toContainText(/Est\. Monthly Cost\$\d+\.\d\d/);

    const apps = page.getByRole('table', { name: 'Apps' });
    await expect(apps.getByRole('link', { name: 'storefront' })).toHaveAttribute('href', `/apps/${appId}`);
    await expect(page.getByRole('link', { name: 'New App' })).toHaveAttribute(
      'href',
      `/create/app?environment_id=${environment.id}`,
    );

    const sections = page.getByRole('navigation', { name: 'Environment sections' });
    // Endpoints and certificates are lists of their own (endpoints.spec.ts covers them).
    await sections.getByRole('link', { name: 'Endpoints', exact: true }).click();
    await expect(
      page.getByRole('table', { name: `Endpoints of environment ${environment.id}` }),
    ).toBeVisible();
    await sections.getByRole('link', { name: 'Certificates', exact: true }).click();
    await expect(
      page.getByRole('table', { name: `Certificates of environment ${environment.id}` }),
    ).toBeVisible();
    // Databases and their backups are lists of their own (databases-list.spec.ts, backups.spec.ts).
    await sections.getByRole('link', { name: 'Databases', exact: true }).click();
    await expect(page.getByRole('table', { name: 'Databases' })).toBeVisible();
    await sections.getByRole('link', { name: 'Backups', exact: true }).click();
    await expect(page.getByRole('table', { name: 'Backups' })).toBeVisible();
    // Integrations lists the environment's drains (log-drains.spec.ts creates them).
    await sections.getByRole('link', { name: 'Integrations', exact: true }).click();
    await expect(
      page.getByRole('table', { name: `Log drains of environment ${environment.id}` }),
    ).toBeVisible();
    await expect(
      page.getByRole('table', { name: `Metric drains of environment ${environment.id}` }),
    ).toBeVisible();
    // Security shows the environment's Security & Compliance facts (security-compliance.spec.ts), and
    // Activity Reports its reports (activity-reports.spec.ts).
    await sections.getByRole('link', { name: 'Security', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Two-factor authentication' })).toBeVisible();
    await sections.getByRole('link', { name: 'Activity Reports', exact: true }).click();
    await expect(page.getByRole('table', { name: 'Activity reports' })).toBeVisible();
    await sections.getByRole('link', { name: 'Activity', exact: true }).click();
    await expect(page).toHaveURL(/\/activity$/);
    await expect(page.getByRole('table', { name: 'Activity' })).toBeVisible();
    await sections.getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('region', { name: 'Deprovision Environment' })).toBeVisible();
  });

  test('renames with the acknowledgment', async ({ signedInPage: page, account, request }) => {
    const environment = await createAccountEnvironment(request, account, 'staging');
    await page.goto(`/environments/${environment.id}/settings`);
    const handle = page.getByRole('textbox', { name: 'New handle' });
    await expect(handle).toHaveValue('staging');
    await handle.fill('Not Valid');
    await page.getByRole('button', { name: 'Rename Environment' }).click();
    await expect(
      page.getByText('Handle may contain only lowercase letters, digits, periods, hyphens and underscores', {
        exact: true,
      }),
    ).toBeVisible();
    await expect(
      page.getByText('You must acknowledge the impact of renaming this environment', { exact: true }),
    ).toBeVisible();

    await handle.fill('staging-eu');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Rename Environment' }).click();
    await expect(page.getByText('Environment renamed to staging-eu')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'staging-eu' })).toBeVisible();

    await page.goto('/environments');
    await expect(
      page.getByRole('table', { name: 'Environments' }).getByRole('link', { name: 'staging-eu' }),
    ).toBeVisible();
  });

  test('deprovision is refused while an app remains, and done with the typed handle when empty', async ({
    signedInPage: page,
    account,
    request,
  }) => {
    const token = account.token.accessToken;
    const busy = await createAccountEnvironment(request, account, 'busy');
    await createApp(request, token, busy.id, 'api');
    const empty = await createAccountEnvironment(request, account, 'empty');

    await page.goto(`/environments/${busy.id}/settings`);
    const confirm = page.getByRole('textbox', { name: 'Type the environment handle to confirm' });
    const deprovision = page.getByRole('button', { name: 'Deprovision Environment' });
    await expect(deprovision).toBeDisabled();
    await confirm.fill('bus');
    await expect(deprovision).toBeDisabled();
    await confirm.fill('busy');
    await deprovision.click();
    await expect(page.getByText('Cannot deprovision this environment while it has: 1 app')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/environments/${busy.id}/settings$`));

    await page.goto(`/environments/${empty.id}/settings`);
    await confirm.fill('empty');
    await deprovision.click();
    await expect(page).toHaveURL(/\/environments$/);
    const list = page.getByRole('table', { name: 'Environments' });
    await expect(list.getByRole('link', { name: 'busy' })).toBeVisible();
    await expect(list.getByRole('link', { name: 'empty' })).toHaveCount(0);
  });
});

test.describe('choose your environment', () => {
  test('picks a stack and an environment, then goes on to create the app there', async ({
    signedInPage: page,
    account,
    request,
  }) => {
    await createAccountEnvironment(request, account, 'alpha');
    const beta = await createAccountEnvironment(request, account, 'beta');

    await page.goto('/select/env');
    await expect(page.getByRole('heading', { name: 'Choose your Environment' })).toBeVisible();
    await expect(
      page.getByRole('combobox', { name: 'Stack' }).getByRole('option', { selected: true }),
    ).toHaveText('shared-us-west-1 (us-west-1)');
    await page.getByRole('combobox', { name: 'Environment' }).selectOption({ label: 'beta' });
    await expect(page).toHaveURL(new RegExp(`environment_id=${beta.id}`));
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(new RegExp(`/create/app\\?environment_id=${beta.id}$`));
  });
});
