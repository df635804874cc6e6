import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { createApp, deployApp, waitForOperation } from '../fixtures/operations.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 3 §2 Apps: the organization's apps, searched by handle, environment, git ref, commit, image,
// last operation and id. The list is fetched without embeds, so the git ref and the last operation
// are matched by the server.

test.describe('the Apps list', () => {
  test.setTimeout(90_000);

  test('lists the apps and finds one by its git ref and its last operation', async ({
    signedInPage: page,
    account,
    request,
  }) => {
    const token = account.token.accessToken;
    const environment = await createAccountEnvironment(request, account);
    const suffix = uniqueSuffix();
    const deployed = await createApp(request, token, environment.id, `shop-${suffix}`);
    const idle = await createApp(request, token, environment.id, `blog-${suffix}`);
    const gitRef = `release-${suffix}`;
    const deploy = await deployApp(request, token, deployed.id, gitRef);
    expect(await waitForOperation(request, token, deploy.id)).toBe('succeeded');

    await page.goto('/apps');
    const table = page.getByRole('table', { name: 'Apps' });
    await expect(table.getByRole('link', { name: deployed.handle })).toBeVisible();
    await expect(table.getByRole('link', { name: idle.handle })).toBeVisible();

    const search = page.getByRole('searchbox');
    await search.fill(gitRef.toUpperCase());
    await expect(page).toHaveURL(new RegExp(`search=${gitRef.toUpperCase()}`));
    await expect(table.getByRole('link', { name: deployed.handle })).toBeVisible();
    await expect(table.getByRole('link', { name: idle.handle })).toHaveCount(0);

    // The last operation's type and status: only the deployed app has one.
    await search.fill('succeeded');
    await expect(table.getByRole('link', { name: deployed.handle })).toBeVisible();
    await expect(table.getByRole('link', { name: idle.handle })).toHaveCount(0);

    await search.fill(`no-such-ref-${suffix}`);
    await expect(table.getByRole('cell', { name: 'No resources found' })).toBeVisible();
  });
});
