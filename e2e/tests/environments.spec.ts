import { createEnvironment } from '../fixtures/accounts.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 3 §2 /create/environment "Name your environment" and the list tables (client-side search in the
// query string); spec 2 §5 the handle rule; the server's 422 message for a handle taken in the organization.
const HANDLE_RULE = 'Handle may contain only lowercase letters, digits, periods, hyphens and underscores';

test.describe('environments', () => {
  test('an owner creates an environment and finds it in the searchable table', async ({
    signedInPage: page,
    account,
    request,
  }) => {
    await page.goto('/environments');
    await expect(page.getByRole('heading', { name: 'No environments exist' })).toBeVisible();
    await page.getByRole('link', { name: 'Create Environment' }).click();

    await expect(page).toHaveURL(/\/create\/environment$/);
    await expect(page.getByRole('heading', { name: 'Name your Environment' })).toBeVisible();
    const stack = page.getByRole('combobox', { name: 'Stack' });
    await expect(stack.getByRole('option', { selected: true })).toHaveText('shared-us-west-1 (us-west-1)');
    await page.getByRole('textbox', { name: 'Handle' }).fill('web-staging');
    await page.getByRole('button', { name: 'Create Environment' }).click();

    await expect(page).toHaveURL(/\/environments$/);
    const table = page.getByRole('table', { name: 'Environments' });
    await expect(table.getByRole('row', { name: /web-staging/ })).toBeVisible();
    await expect(
      table
        .getByRole('row', { name: /web-staging/ })
        .getByRole('cell')
        .nth(2),
    ).toHaveText('shared-us-west-1');
    await expect(page.getByText('1 result', { exact: true })).toBeVisible();

    // A second one (seeded), so the search has something to leave out.
    await createEnvironment(request, account.token.accessToken, {
      organizationId: account.organization.id,
      handle: 'db-production',
    });
    await page.reload();
    await expect(table.getByRole('row')).toHaveCount(3); // header + 2

    const search = page.getByRole('searchbox', { name: 'Search environments' });
    await search.fill('STAGING');
    await expect(page).toHaveURL(/[?&]search=STAGING/);
    await expect(table.getByRole('row', { name: /web-staging/ })).toBeVisible();
    await expect(table.getByRole('row', { name: /db-production/ })).toHaveCount(0);

    await search.fill('nothing-matches-this');
    await expect(table.getByRole('cell', { name: 'No resources found' })).toBeVisible();

    await search.fill('');
    await expect(page).toHaveURL(/\/environments$/);
    await expect(table.getByRole('row')).toHaveCount(3);
  });

  test('a handle breaking the rule is refused before the server is called', async ({
    signedInPage: page,
  }) => {
    let posted = false;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/accounts') posted = true;
    });
    await page.goto('/create/environment');
    const handle = page.getByRole('textbox', { name: 'Handle' });
    const create = page.getByRole('button', { name: 'Create Environment' });

    await create.click();
    await expect(page.getByText('Handle must not be empty', { exact: true })).toBeVisible();

    await handle.fill('Bad Handle');
    await create.click();
    await expect(page.getByText(HANDLE_RULE, { exact: true })).toBeVisible();
    await expect(handle).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/create\/environment$/);
    expect(posted).toBe(false);
  });

  test("a handle already used in the organization shows the server's message", async ({
    signedInPage: page,
    account,
    request,
  }) => {
    await createEnvironment(request, account.token.accessToken, {
      organizationId: account.organization.id,
      handle: 'shared-name',
    });
    await page.goto('/create/environment');
    await page.getByRole('textbox', { name: 'Handle' }).fill('shared-name');
    await page.getByRole('button', { name: 'Create Environment' }).click();

    await expect(page.getByRole('alert')).toHaveText(
      'An environment with the handle "shared-name" already exists in this organization',
    );
    await expect(page).toHaveURL(/\/create\/environment$/);
  });
});
