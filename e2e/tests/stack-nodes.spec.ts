import { createAccountEnvironment, logInBrowser, seedAccount } from '../fixtures/accounts.ts';
import { HOME_URL, submitCredentials } from '../fixtures/console.ts';
import { deployedService } from '../fixtures/operations.ts';
import { startOwnServer } from '../fixtures/own-server.ts';
import { sideways } from '../fixtures/screen.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 39: the stack page's Nodes tab shows the machines the stack runs on (the simulated stack's three)
// and where an app's containers run, each container leading to its app's service.

test("the stack's Nodes tab shows its nodes and where an app's container runs", async ({
  page,
  account,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const token = account.token.accessToken;
  const environment = await createAccountEnvironment(request, account, 'nodes-prod');
  const { appId, serviceId } = await deployedService(request, token, environment.id, 'placed');
  await logInBrowser(page.context(), account);

  await page.goto('/stacks');
  await page.getByRole('table', { name: 'Stacks' }).getByRole('link', { name: 'shared-us-west-1' }).click();
  await page.getByRole('navigation', { name: 'Stack sections' }).getByRole('link', { name: 'Nodes' }).click();
  await expect(page).toHaveURL(/\/stacks\/\d+\/nodes$/);

  const table = page.getByRole('table', { name: 'Nodes' });
  const rows = table.getByRole('row');
  // A header and the three machines: one manager (the leader), two workers, all ready.
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText('manager (leader)');
  for (const index of [1, 2, 3]) {
    await expect(rows.nth(index)).toContainText(/ip-10-0-\d-\d+\.shared-us-west-1\.sim/);
    await expect(rows.nth(index)).toContainText('ready');
    await expect(rows.nth(index)).toContainText('8 GB');
  }
  await expect(rows.filter({ hasText: 'worker' })).toHaveCount(2);
  await page.screenshot({ path: testInfo.outputPath('nodes-wide.png'), fullPage: true });

  // The app's one container runs on exactly one of them; other organizations' containers are only counted.
  const containerName = /^placed-\S+-1-[0-9a-f]{8}$/;
  const container = table.getByRole('link', { name: containerName });
  await expect(container).toHaveCount(1);
  const host = rows.filter({ has: page.getByRole('link', { name: containerName }) });
  await expect(host).toHaveCount(1);
  await expect(host).toContainText('placed · ');

  // At a phone's width the table scrolls inside its frame, never the page.
  await page.setViewportSize({ width: 390, height: 900 });
  await expect(container).toBeVisible();
  // Once the narrower layout has settled (the tab refreshes itself): measured again until then.
  await expect.poll(() => sideways(page)).toBe(0);
  await page.screenshot({ path: testInfo.outputPath('nodes-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  await container.click();
  await expect(page).toHaveURL(new RegExp(`/apps/${appId}/services/${serviceId}$`));
});

test('an owner drains the node an app runs on (its container moves to another) and activates it again', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // A server of its own: draining moves every container on the node, and the shared server's stack holds
  // other tests' organizations, for whom it refuses (only an organization alone on a shared stack may).
  const server = await startOwnServer({ name: 'stack-nodes-drain' });
  try {
    const account = await seedAccount(server.api, { organization: 'Drain Harbour' });
    const environment = await createAccountEnvironment(server.api, account, 'drain-prod');
    await deployedService(server.api, account.token.accessToken, environment.id, 'drained');
    await page.goto(`${server.origin}/login`);
    await submitCredentials(page, { email: account.email, password: account.password });
    await expect(page).toHaveURL(HOME_URL);

    await page.goto(`${server.origin}/stacks`);
    await page.getByRole('table', { name: 'Stacks' }).getByRole('link', { name: 'shared-us-west-1' }).click();
    await page
      .getByRole('navigation', { name: 'Stack sections' })
      .getByRole('link', { name: 'Nodes' })
      .click();
    const table = page.getByRole('table', { name: 'Nodes' });
    // `has` takes a locator from the page, not from the table.
    const containerLink = page.getByRole('link', { name: /^drained-\S+-1-[0-9a-f]{8}$/ });
    const container = table.getByRole('link', { name: /^drained-\S+-1-[0-9a-f]{8}$/ });
    await expect(container).toHaveCount(1);
    const hostname = (
      await table.getByRole('row').filter({ has: containerLink }).locator('.stack-node-host').textContent()
    )?.trim();
    if (!hostname) throw new Error('the container has no node');
    const node = table.getByRole('row').filter({ hasText: hostname });

    await node.getByRole('button', { name: `Drain ${hostname}` }).click();
    await expect(node).toContainText(`Drain node ${hostname}? Its containers move to the other nodes first.`);
    await node.getByRole('button', { name: `Confirm drain ${hostname}` }).click();
    await expect(node.getByRole('cell', { name: 'drain', exact: true })).toBeVisible();
    // Gone from the drained node, running on another.
    await expect(node.getByRole('link', { name: /^drained-/ })).toHaveCount(0);
    await expect(container).toHaveCount(1);
    await expect(table.getByRole('row').filter({ has: containerLink })).not.toContainText(hostname);

    await node.getByRole('button', { name: `Activate ${hostname}` }).click();
    await expect(node.getByRole('cell', { name: 'active', exact: true })).toBeVisible();
    await expect(node.getByRole('button', { name: `Drain ${hostname}` })).toBeVisible();
  } finally {
    await server.stop();
  }
});
