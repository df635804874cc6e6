import { createAccountEnvironment, type SeededAccount, seedAccount } from '../fixtures/accounts.ts';
import { HOME_URL, submitCredentials } from '../fixtures/console.ts';
import { createApp, deployApp, waitForOperation } from '../fixtures/operations.ts';
import { type OwnServer, startOwnServer } from '../fixtures/own-server.ts';
import { inTheme, SCHEMES } from '../fixtures/screen.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 20: a deploy's log lines show while it runs (an operation made slow with BERTH_SIM_STEP_MS on a
// server of its own), and a failed deploy's banner quotes the line that says why.

let server: OwnServer | undefined;
let account: SeededAccount;
let environmentId = '';

test.describe.configure({ mode: 'serial', timeout: 150_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // Steps of 4 s make a deploy of about half a minute: long enough to be seen running after a page load
  // that takes seconds on a busy CI machine.
  server = await startOwnServer({ name: 'operation-logs', env: { BERTH_SIM_STEP_MS: '4000' } });
  account = await seedAccount(server.api, { organization: 'Slow Builds' });
  environmentId = (await createAccountEnvironment(server.api, account, 'slow')).id;
});

test.afterAll(async () => {
  await server?.stop();
});

for (const scheme of SCHEMES) {
  for (const width of [1440, 390]) {
    test(`shows a deploy's lines while it runs, at ${width} px in ${scheme}`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server?.origin}/login`);
      await submitCredentials(page, { email: account.email, password: account.password });
      await expect(page).toHaveURL(HOME_URL);
      const token = account.token.accessToken;
      const app = await createApp(
        server?.api ?? page.request,
        token,
        environmentId,
        `live-${scheme}-${width}`,
      );
      const deploy = await deployApp(server?.api ?? page.request, token, app.id, 'main');

      await page.goto(`${server?.origin}/operations/${deploy.id}`);
      await inTheme(page, scheme);
      await expect(page.getByText('Running: new lines appear as they are written.')).toBeVisible({
        timeout: 20_000,
      });
      const log = page.getByRole('log', { name: 'Operation logs' });
      await expect(log.getByText(/Starting app deploy operation/)).toBeVisible();
      // Still running while its first lines show.
      await expect(page.getByText('Running: new lines appear as they are written.')).toBeVisible();
      expect(await waitForOperation(server?.api ?? page.request, token, deploy.id, 120_000)).toBe(
        'succeeded',
      );
    });
  }
}

test("quotes the failing line in the app's banner", async ({ page }) => {
  await page.goto(`${server?.origin}/login`);
  await submitCredentials(page, { email: account.email, password: account.password });
  await expect(page).toHaveURL(HOME_URL);
  const token = account.token.accessToken;
  const app = await createApp(server?.api ?? page.request, token, environmentId, 'broken-build');
  const deploy = await deployApp(server?.api ?? page.request, token, app.id, 'simfail-v1');
  expect(await waitForOperation(server?.api ?? page.request, token, deploy.id, 120_000)).toBe('failed');
  await page.goto(`${server?.origin}/apps/${app.id}`);
  await expect(page.locator('.failing-line')).toContainText('ERROR');
});
