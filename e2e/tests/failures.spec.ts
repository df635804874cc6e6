import type { Locator } from '@playwright/test';
import { deployApp, getJson, postJson, waitForOperation } from '../fixtures/operations.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 41 "Failures say why, and offer the way forward": a failed deploy's page gives the reason, says
// what still runs and offers another ref or a roll back; a missing resource is named with a way back.

async function backgroundOf(locator: Locator): Promise<string> {
  return locator.evaluate((element) => getComputedStyle(element).backgroundColor);
}

test("a failed deploy's page says why, what still runs, and offers the way forward", async ({
  signedInPage: page,
  account,
  environment,
  app,
}) => {
  test.setTimeout(150_000);
  const token = account.token.accessToken;
  const first = await deployApp(page.request, token, app.id, 'main');
  expect(await waitForOperation(page.request, token, first.id, 60_000)).toBe('succeeded');
  const broken = await deployApp(page.request, token, app.id, 'simfail-v2');
  expect(await waitForOperation(page.request, token, broken.id, 60_000)).toBe('failed');
  const deployments = await getJson<{
    _embedded: { deployments: { id: number | string; git_commit_sha: string; status: string }[] };
  }>(page.request, token, `/api/apps/${app.id}/deployments`);
  const good = deployments._embedded.deployments.find((item) => item.status === 'succeeded');
  expect(good).toBeDefined();
  const goodId = String(good?.id);
  const sha = (good?.git_commit_sha ?? '').slice(0, 7);

  // The environment's Apps tab and the Apps list say why, under the app's handle, and link the
  // operation (issue 41).
  const handleCell = page
    .getByRole('table', { name: 'Apps' })
    .getByRole('cell')
    .filter({ has: page.getByRole('link', { name: app.handle, exact: true }) });
  await page.goto(`/environments/${environment.id}/apps`);
  await expect(handleCell.locator('.failure-reason code')).toHaveText(
    "fatal: couldn't find remote ref simfail-v2",
  );
  await expect(handleCell.getByRole('link', { name: 'View the failed deploy operation' })).toHaveAttribute(
    'href',
    `/operations/${broken.id}`,
  );
  await page.goto('/apps');
  await expect(handleCell.locator('.failure-reason code')).toHaveText(
    "fatal: couldn't find remote ref simfail-v2",
  );
  await handleCell.getByRole('link', { name: 'View the failed deploy operation' }).click();
  await expect(page).toHaveURL(new RegExp(`/operations/${broken.id}(\\?|$)`));
  const banner = page.getByRole('alert').filter({ hasText: 'Operation FAILED' });
  // The reason is the first error line of the log, in the banner.
  await expect(banner.getByText("fatal: couldn't find remote ref simfail-v2", { exact: true })).toBeVisible();
  // What still runs: the app's current deployment.
  await expect(banner).toContainText(`${app.handle} is still serving main (${sha})`);
  const failedBadge = banner.locator('.status-pill', { hasText: 'Failed' });
  const deployedBadge = banner.locator('.status-pill', { hasText: 'Deployed' });
  await expect(failedBadge).toHaveClass(/status-pill-error/);
  await expect(deployedBadge).toHaveClass(/status-pill-success/);
  expect(await backgroundOf(failedBadge)).not.toBe(await backgroundOf(deployedBadge));

  // The way forward, beside Re-run.
  await expect(banner.getByRole('button', { name: 'Re-run deploy of' })).toBeVisible();
  await banner.getByRole('button', { name: 'Deploy another ref' }).click();
  await expect(banner.getByRole('form', { name: 'Deploy' }).getByLabel('Git Ref')).toBeVisible();
  await banner.getByRole('button', { name: 'Deploy another ref' }).click();
  await expect(banner.getByRole('form', { name: 'Deploy' })).toHaveCount(0);

  await banner.getByRole('button', { name: `Roll back to deployment ${goodId}` }).click();
  await banner.getByRole('button', { name: `Confirm roll back to deployment ${goodId}` }).click();
  await expect(page).not.toHaveURL(new RegExp(`/operations/${broken.id}(\\?|$)`));
  const rollbackId = /\/operations\/(\d+)/.exec(page.url())?.[1] ?? '';
  expect(rollbackId).not.toBe('');
  expect(await waitForOperation(page.request, token, rollbackId, 60_000)).toBe('succeeded');
  const rollback = await getJson<{ git_ref: string }>(page.request, token, `/api/operations/${rollbackId}`);
  // The exact commit that last succeeded, not wherever the branch points now.
  expect(rollback.git_ref).toBe(good?.git_commit_sha);
  await expect(page.getByRole('status').filter({ hasText: 'Operation DONE' })).toBeVisible();
});

test('a missing app is named in a heading with a way back to Apps, not Retry', async ({
  signedInPage: page,
}) => {
  await page.goto('/apps/987654321');
  await expect(page.getByRole('heading', { level: 1, name: 'App not found' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to Apps' }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Apps' })).toBeVisible();
});

test('a drain that failed to provision says why and links its operation', async ({
  signedInPage: page,
  account,
  environment,
}) => {
  test.setTimeout(120_000);
  const token = account.token.accessToken;
  // Nothing answers TLS on port 9 of this machine: provisioning fails, saying so.
  const drain = await postJson<{ id: string }>(
    page.request,
    token,
    `/api/accounts/${environment.id}/log_drains`,
    {
      handle: 'nowhere',
      drain_type: 'papertrail',
      drain_host: '127.0.0.1',
      drain_port: 9,
    },
  );
  const provision = await postJson<{ id: string }>(
    page.request,
    token,
    `/api/log_drains/${drain.id}/operations`,
    {
      type: 'provision',
    },
  );
  expect(await waitForOperation(page.request, token, String(provision.id), 60_000)).toBe('failed');

  await page.goto(`/environments/${environment.id}/integrations`);
  const row = page
    .getByRole('table', { name: `Log drains of environment ${environment.id}` })
    .getByRole('row')
    .filter({ hasText: 'nowhere' });
  await expect(row.locator('.status-pill-error')).toHaveText('Provision Failed');
  await expect(row.locator('.failure-reason')).toContainText('Reason:');
  await expect(row.locator('.failure-reason code')).not.toBeEmpty();
  await row.getByRole('link', { name: 'View the failed provision operation' }).click();
  await expect(page).toHaveURL(new RegExp(`/operations/${provision.id}(\\?|$)`));
  await expect(page.getByRole('alert').filter({ hasText: 'Operation FAILED' })).toContainText('Reason:');
});

test('a managed HTTPS endpoint reads Awaiting DNS until its certificate is issued', async ({
  signedInPage: page,
  account,
  app,
}) => {
  test.setTimeout(150_000);
  const token = account.token.accessToken;
  const deploy = await deployApp(page.request, token, app.id, 'main');
  expect(await waitForOperation(page.request, token, deploy.id, 60_000)).toBe('succeeded');
  const services = await getJson<{ _embedded: { services: { id: string | number }[] } }>(
    page.request,
    token,
    `/api/apps/${app.id}/services`,
  );
  const serviceId = String(services._embedded.services[0]?.id);
  const endpoint = await postJson<{ id: string | number }>(
    page.request,
    token,
    `/api/services/${serviceId}/vhosts`,
    {
      type: 'http',
      acme: true,
      user_domain: `shop-${app.id}.example.com`,
    },
  );
  const provision = await postJson<{ id: string | number }>(
    page.request,
    token,
    `/api/vhosts/${endpoint.id}/operations`,
    { type: 'provision' },
  );
  expect(await waitForOperation(page.request, token, String(provision.id), 60_000)).toBe('succeeded');

  await page.goto(`/endpoints/${endpoint.id}`);
  const details = page.getByRole('region', { name: 'Endpoint details' });
  const status = page.locator('.status-pill', { hasText: 'Awaiting DNS' });
  await expect(status).toBeVisible();
  await expect(status).toHaveClass(/status-pill-progress/);
  await expect(details.getByText('Provisioned', { exact: true })).toHaveCount(0);

  // Its DNS records, each value with its own Copy button named after it (issue 41).
  const domain = `shop-${app.id}.example.com`;
  await page
    .getByRole('navigation', { name: 'Endpoint tabs' })
    .getByRole('link', { name: 'DNS Configuration' })
    .click();
  const records = page.getByRole('table', { name: 'DNS records' });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await records.getByRole('button', { name: `Copy target of _acme-challenge.${domain}` }).click();
  await expect(records.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^acme-/);
  await records.getByRole('button', { name: `Copy name ${domain}` }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(domain);

  const renew = await postJson<{ id: string | number }>(
    page.request,
    token,
    `/api/vhosts/${endpoint.id}/operations`,
    {
      type: 'renew',
    },
  );
  expect(await waitForOperation(page.request, token, String(renew.id), 60_000)).toBe('succeeded');
  await page.reload();
  await expect(page.locator('.status-pill-success', { hasText: 'Provisioned' })).toBeVisible();
  await expect(page.locator('.status-pill', { hasText: 'Awaiting DNS' })).toHaveCount(0);
});
