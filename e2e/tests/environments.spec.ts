import { createAccountEnvironment, logInBrowser } from '../fixtures/accounts.ts';
import { createRoleWithScopes, inviteAndAccept } from '../fixtures/team.ts';
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
    await expect(page.getByRole('link', { name: 'Request a dedicated stack' })).toHaveAttribute(
      'href',
      '/create/stack',
    );
    await page.getByRole('textbox', { name: 'Handle' }).fill('web-staging');
    await page.getByRole('button', { name: 'Create Environment' }).click();

    // spec 3 create flows: the new environment's first app is named next, in that environment.
    await expect(page).toHaveURL(/\/create\/app\?environment_id=\d+$/);
    await expect(page.getByRole('heading', { name: 'Name your App' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Environment' })).toHaveValue('web-staging');

    await page.goto('/environments');
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
    await createAccountEnvironment(request, account, 'db-production');
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
    await createAccountEnvironment(request, account, 'shared-name');
    await page.goto('/create/environment');
    await page.getByRole('textbox', { name: 'Handle' }).fill('shared-name');
    await page.getByRole('button', { name: 'Create Environment' }).click();

    await expect(page.getByRole('alert')).toHaveText(
      'An environment with the handle "shared-name" already exists in this organization',
    );
    await expect(page).toHaveURL(/\/create\/environment$/);
  });

  test('a member who is not an owner finds Create Environment and New Dedicated Stack disabled up front, with the tooltip', async ({
    page,
    account,
    verifiedUser: member,
    request,
  }) => {
    const OWNER_ONLY = 'You do not have a valid role type (platform_owner, owner) to access this resource.';
    const environment = await createAccountEnvironment(request, account);
    const role = await createRoleWithScopes(request, account, {
      name: 'Developers',
      environment,
      scopes: ['deploy'],
    });
    await inviteAndAccept(request, account, role, member);
    await logInBrowser(page.context(), member);

    await page.goto('/environments');
    const create = page.getByRole('button', { name: 'Create Environment' });
    await expect(create).toHaveAttribute('aria-disabled', 'true');
    // The rule, then its plain words (issue 20).
    const described = `${OWNER_ONLY} Only owners of the organization can do this. Ask an Account Owner.`;
    await expect(create).toHaveAccessibleDescription(described);
    await create.hover();
    await expect(page.getByRole('tooltip', { name: OWNER_ONLY })).toBeVisible();

    // Opened directly, the form cannot be sent either.
    let posted = false;
    page.on('request', (sent) => {
      if (sent.method() === 'POST' && new URL(sent.url()).pathname === '/api/accounts') posted = true;
    });
    await page.goto('/create/environment');
    await page.getByRole('textbox', { name: 'Handle' }).fill('not-mine');
    const submit = page.getByRole('button', { name: 'Create Environment' });
    await expect(submit).toHaveAccessibleDescription(described);
    await submit.click({ force: true });
    await expect(page).toHaveURL(/\/create\/environment$/);
    expect(posted).toBe(false);

    // A dedicated stack, billed to the organization, is the Account Owner's request alone (issue 20).
    await page.goto('/stacks');
    const newStack = page.getByRole('button', { name: 'New Dedicated Stack' });
    await expect(newStack).toHaveAttribute('aria-disabled', 'true');
    await expect(newStack).toHaveAccessibleDescription(described);
    await newStack.click({ force: true });
    await expect(page).toHaveURL(/\/stacks$/);
  });
});
