import { readFile } from 'node:fs/promises';
import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { createApp, postJson, waitForOperation } from '../fixtures/operations.ts';
import { inTheme, SCHEMES, sideways } from '../fixtures/screen.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 38, activity reports (spec 2 §2 /environments/{id}/activity_reports, contract §5.6): a report of
// the environment's operations asked for now, made by the server, downloaded as CSV.

// Each first look after a navigation (or a report being made) waits this long.
const LOADED = { timeout: 30_000 };

test('an activity report downloads as CSV', async ({ signedInPage: page, account, request }) => {
  test.setTimeout(120_000);
  const token = account.token.accessToken;
  const environment = await createAccountEnvironment(request, account, `reports-${uniqueSuffix()}`);
  const app = await createApp(request, token, environment.id, `shop-${uniqueSuffix()}`);
  const configure = await postJson<{ id: string | number }>(
    request,
    token,
    `/api/apps/${app.id}/operations`,
    {
      type: 'configure',
      env: { GREETING: 'hello' },
    },
  );
  expect(await waitForOperation(request, token, String(configure.id))).toBe('succeeded');

  await page.goto(`/environments/${environment.id}`);
  await page.getByRole('link', { name: 'Activity Reports' }).click(LOADED);
  await expect(page).toHaveURL(new RegExp(`/environments/${environment.id}/activity_reports$`));
  await page.getByRole('button', { name: 'Make a report now' }).click(LOADED);
  const table = page.getByRole('table', { name: 'Activity reports' });
  const download = table.getByRole('button', { name: /^Download activity-.+\.csv$/ });
  await expect(download).toBeVisible(LOADED);
  await expect(table.getByRole('cell', { name: 'On demand' })).toBeVisible();

  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toMatch(
    new RegExp(`^activity-${environment.handle}-\\d{4}-\\d{2}-\\d{2}-to-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
  );
  const csv = await readFile(await file.path(), 'utf8');
  const [header, ...rows] = csv.trimEnd().split('\r\n');
  expect(header).toBe(
    'operation_id,requested_at,finished_at,user_name,user_email,automated,type,resource_type,resource_id,resource_handle,status,note',
  );
  expect(rows).toContainEqual(
    expect.stringContaining(`,${account.email},false,configure,app,${app.id},${app.handle},succeeded,`),
  );
});

for (const scheme of SCHEMES) {
  for (const width of [1440, 390]) {
    test(`the Activity Reports tab fits ${width} px in ${scheme}`, async ({
      signedInPage: page,
      account,
      request,
    }) => {
      test.setTimeout(120_000);
      const environment = await createAccountEnvironment(request, account, `reports-${uniqueSuffix()}`);
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/environments/${environment.id}/activity_reports`);
      await inTheme(page, scheme);
      // One empty text, the spec's (spec 3 §2).
      const table = page.getByRole('table', { name: 'Activity reports' });
      await expect(table.getByText('No resources found')).toBeVisible(LOADED);
      await expect(page.getByText(/^No (resources found|activity reports)/)).toHaveCount(1);
      await page.getByRole('button', { name: 'Make a report now' }).click();
      await expect(table.getByRole('button', { name: /^Download / })).toBeVisible(LOADED);
      expect(await sideways(page)).toBeLessThanOrEqual(0);
    });
  }
}
