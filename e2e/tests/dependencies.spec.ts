import type { APIRequestContext } from '@playwright/test';
import type { SeededAccount } from '../fixtures/accounts.ts';
import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { createProvisionedDatabase } from '../fixtures/databases.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { createApp, getJson, postJson, waitForOperation } from '../fixtures/operations.ts';
import { inTheme, SCHEMES, sideways } from '../fixtures/screen.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 2 §2, issue 38: the app's Dependencies tab lists what its configuration names, here a database
// whose connection URL the app was configured with.

// Each first look after a navigation waits this long.
const LOADED = { timeout: 30_000 };

interface Credentials {
  _embedded: { database_credentials: { connection_url: string }[] };
}

/** An environment with a provisioned database and an app configured with its connection URL. */
async function appUsingDatabase(request: APIRequestContext, account: SeededAccount) {
  const token = account.token.accessToken;
  const suffix = uniqueSuffix();
  const environment = await createAccountEnvironment(request, account, `deps-${suffix}`);
  const database = `orders-${suffix}`;
  const databaseId = await createProvisionedDatabase(request, account, environment, database, {
    withImage: true,
  });
  const credentials = await getJson<Credentials>(
    request,
    token,
    `/api/databases/${databaseId}/database_credentials`,
  );
  const url = credentials._embedded.database_credentials[0]?.connection_url ?? '';
  expect(url).toMatch(/^postgresql:\/\//);
  const app = await createApp(request, token, environment.id, `shop-${suffix}`);
  const configure = await postJson<{ id: string | number }>(
    request,
    token,
    `/api/apps/${app.id}/operations`,
    {
      type: 'configure',
      env: { DATABASE_URL: url, GREETING: 'hello' },
    },
  );
  expect(await waitForOperation(request, token, String(configure.id))).toBe('succeeded');
  return { app, database, databaseId };
}

test('the Dependencies tab lists the database the app is configured with', async ({
  signedInPage: page,
  account,
  request,
}) => {
  test.setTimeout(120_000);
  const { app, database, databaseId } = await appUsingDatabase(request, account);

  await page.goto(`/apps/${app.id}`);
  await page.getByRole('link', { name: 'Dependencies', exact: true }).click(LOADED);
  await expect(page).toHaveURL(new RegExp(`/apps/${app.id}/deps$`));
  const table = page.getByRole('table', { name: 'Dependencies' });
  const row = table.getByRole('row').filter({ hasText: database });
  await expect(row).toBeVisible(LOADED);
  await expect(row.getByRole('cell', { name: 'Database', exact: true })).toBeVisible();
  await expect(row).toContainText("Connects to it: a configuration variable holds the database's host");
  await row.getByRole('link', { name: database }).click();
  await expect(page).toHaveURL(new RegExp(`/databases/${databaseId}(/.*)?$`));
});

test('the Dependencies tab fits 1440 and 390 px, light and dark', async ({
  signedInPage: page,
  account,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const { app, database } = await appUsingDatabase(request, account);
  for (const scheme of SCHEMES) {
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/apps/${app.id}/deps`);
      const link = page.getByRole('table', { name: 'Dependencies' }).getByRole('link', { name: database });
      await expect(link).toBeVisible(LOADED);
      // The theme chosen once stays for the next pages.
      if ((await page.locator('html').getAttribute('data-theme')) !== scheme) await inTheme(page, scheme);
      expect(await sideways(page), `${width} px in ${scheme}`).toBe(0);
      await page.screenshot({ path: testInfo.outputPath(`deps-${width}-${scheme}.png`), fullPage: true });
    }
  }
});
