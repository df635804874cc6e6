import { deployApp, waitForOperation } from '../fixtures/operations.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 2 §2 and spec 3 §2, §4: the operation progress page and logs viewer, the activity list with its
// filters and Re-run rule, the deployments overview and the sources screens, against the real server
// and its sim runtime (a deploy takes a few seconds; a git ref containing 'simfail' fails).

test.describe('operations, activity, deployments and sources', () => {
  test.setTimeout(90_000);

  test('a deploy is followed to success, then listed in deployments and sources', async ({
    signedInPage: page,
    account,
    request,
    environment,
    app,
  }) => {
    const token = account.token.accessToken;
    const deploy = await deployApp(request, token, app.id, 'main');

    // The progress page polls the operation and moves to its logs view when it ends.
    await page.goto(`/operations/${deploy.id}`);
    await expect(page.getByRole('heading', { name: `Operation ${deploy.id}: deploy` })).toBeVisible();
    const details = page.getByRole('region', { name: 'Operation details' });
    await expect(details.getByText(`app ${app.handle}`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/operations/${deploy.id}\\?view=logs$`), { timeout: 30_000 });
    await expect(page.getByText('Operation DONE')).toBeVisible();
    await expect(details.getByText('DONE', { exact: true })).toBeVisible();
    const log = page.getByRole('log', { name: 'Operation logs' });
    await expect(log).toContainText(`Completed deploy operation with ID: ${deploy.id}`);

    // Deployments overview: the deployment with its badge, app, environment and git ref.
    await page.goto('/deployments');
    const deployments = page.getByRole('table', { name: 'Deployments' });
    const row = deployments.getByRole('row', { name: new RegExp(app.handle) });
    await expect(row).toBeVisible();
    await expect(row.getByText('Deployed', { exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: environment.handle, exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'main', exact: true })).toBeVisible();

    // The accounts filter narrows the list; Show All clears it.
    await page.goto('/deployments?accounts=999999');
    await expect(deployments.getByRole('cell', { name: 'No resources found' })).toBeVisible();
    await page.getByRole('button', { name: 'Show All' }).click();
    await expect(page).toHaveURL(/\/deployments$/);
    await expect(row).toBeVisible();

    // Deployment detail: logs by default, config on its tab.
    await row.getByRole('link', { name: /\d/ }).last().click();
    await expect(page).toHaveURL(/\/deployments\/\d+$/);
    await expect(page.getByRole('log', { name: 'Operation logs' })).toContainText(
      'Completed deploy operation',
    );
    await page
      .getByRole('navigation', { name: 'Deployment tabs' })
      .getByRole('link', { name: 'Config' })
      .click();
    await expect(page).toHaveURL(/\/deployments\/\d+\/config$/);
    await expect(page.getByRole('table', { name: 'Configuration' })).toBeVisible();

    // Sources: the first git deploy created one, with one live commit dot.
    const sourceName = `${environment.handle}/${app.handle}`;
    await page.goto('/sources');
    const sources = page.getByRole('table', { name: 'Sources' });
    const sourceRow = sources.getByRole('row', { name: new RegExp(sourceName) });
    await expect(sourceRow).toBeVisible();
    await expect(sourceRow.locator('.commit-dot')).toHaveCount(1);
    await expect(sourceRow.getByText(/^Commit [0-9a-f]{7} on main/)).toBeAttached();

    await sourceRow.getByRole('link', { name: sourceName }).click();
    await expect(page.getByRole('heading', { name: sourceName })).toBeVisible();
    const sourceDetails = page.getByRole('region', { name: 'Source details' });
    await expect(sourceDetails.getByText('Repository URL')).toBeVisible();
    const appsTable = page.getByRole('table', { name: 'Apps' });
    await expect(appsTable.getByRole('row', { name: new RegExp(app.handle) })).toBeVisible();
    await expect(appsTable.getByRole('link', { name: `View ${app.handle}` })).toBeVisible();

    await page
      .getByRole('navigation', { name: 'Source tabs' })
      .getByRole('link', { name: 'Deployments' })
      .click();
    await expect(page).toHaveURL(/\/sources\/\d+\/deployments$/);
    await expect(
      page.getByRole('table', { name: 'Deployments' }).getByRole('row', { name: new RegExp(app.handle) }),
    ).toBeVisible();
  });

  test('a failing deploy shows FAILED with its ERROR line in red and can be re-run from activity', async ({
    signedInPage: page,
    account,
    request,
    app,
  }) => {
    const token = account.token.accessToken;
    const good = await deployApp(request, token, app.id, 'main');
    expect(await waitForOperation(request, token, good.id)).toBe('succeeded');
    const bad = await deployApp(request, token, app.id, 'simfail-branch');

    await page.goto(`/operations/${bad.id}`);
    await expect(page.getByText('Operation FAILED')).toBeVisible({ timeout: 30_000 });
    await expect(page).toHaveURL(/\?view=logs$/);
    await expect(
      page.getByRole('region', { name: 'Operation details' }).getByText('FAILED', { exact: true }),
    ).toBeVisible();
    const errorLine = page
      .getByRole('log', { name: 'Operation logs' })
      .locator('.log-line', { hasText: 'ERROR' })
      .first();
    await expect(errorLine).toBeVisible();
    await expect(errorLine).toHaveCSS('color', 'rgb(248, 113, 113)');
    await expect(page.getByRole('button', { name: `Re-run deploy of ${app.handle}` })).toBeEnabled();

    // The organization's activity: the failed row offers Re-run, like the succeeded deploy.
    await page.goto('/activity');
    await expect(page.getByText('Showing operations from the last 2 weeks.')).toBeVisible();
    const activity = page.getByRole('table', { name: 'Activity' });
    const failedRow = activity
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: 'deploy' }) })
      .filter({
        hasText: 'FAILED',
      });
    await expect(failedRow).toHaveCount(1);
    await expect(failedRow.getByRole('button', { name: `Re-run deploy of ${app.handle}` })).toBeEnabled();

    // Filters live in the query string; 'all' means no filter.
    await page.getByRole('combobox', { name: 'Status' }).selectOption('failed');
    await expect(page).toHaveURL(/[?&]operation_status=failed/);
    await expect(activity.getByText('DONE', { exact: true })).toHaveCount(0);
    await expect(activity.getByText('FAILED', { exact: true })).toHaveCount(1);

    await page.goto('/activity?operation_status=succeeded&operation_type=deploy');
    await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('succeeded');
    await expect(activity.getByText('DONE', { exact: true })).toHaveCount(1);
    await expect(activity.getByText('FAILED', { exact: true })).toHaveCount(0);
    await page.getByRole('combobox', { name: 'Status' }).selectOption('all');
    await expect(page).toHaveURL(/\/activity\?operation_type=deploy$/);
    await expect(activity.getByText('FAILED', { exact: true })).toHaveCount(1);

    // Re-run says what it will run and waits for a confirmation (issue 20), then posts the same deploy
    // again and opens the new operation.
    const failed = activity.getByRole('row').filter({ hasText: 'FAILED' });
    await failed.getByRole('button', { name: `Re-run deploy of ${app.handle}` }).click();
    // It names what runs now, read from the app (issue 20: "Redeploy simfail-v1? main is running now").
    await expect(
      failed.getByText(
        `Deploys simfail-branch to ${app.handle} again. It failed last time. main is running now; a success would replace it.`,
      ),
    ).toBeVisible();
    await failed.getByRole('button', { name: `Confirm re-run deploy of ${app.handle}` }).click();
    await expect(page).toHaveURL(new RegExp(`/operations/(?!${bad.id}\\b)\\d+`));
    await expect(page.getByText('Operation FAILED')).toBeVisible({ timeout: 30_000 });
  });
});
