import { readFile } from 'node:fs/promises';
import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 1 §2 and §6 Roles: an owner creates a role, grants it a scope on an environment through the
// permission matrix (basic visibility then shows inherited), takes it away, renames and deletes the role.

test.describe('roles', () => {
  test('an owner creates a role, grants and removes a permission, renames and deletes the role', async ({
    signedInPage: page,
    account,
    request,
  }) => {
    const environment = await createAccountEnvironment(request, account, 'roles-production');

    await page.goto('/settings/team/roles');
    const roles = page.getByRole('table', { name: 'Roles' });
    await expect(roles.getByRole('row', { name: /Account Owner/ })).toBeVisible();
    await page.getByRole('link', { name: 'New Role' }).click();

    await expect(page).toHaveURL(/\/settings\/team\/roles\/create$/);
    await page.getByRole('textbox', { name: 'Name' }).fill('Readers');
    await page.getByRole('button', { name: 'Create Role' }).click();

    await expect(page).toHaveURL(/\/roles\/[^/]+\/members$/);
    await expect(page.getByRole('heading', { name: 'Readers', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Readers currently has no members.' })).toBeVisible();
    const sections = page.getByRole('navigation', { name: 'Role sections' });
    await sections.getByRole('link', { name: 'Environments' }).click();

    await expect(page.getByText('No permissions set')).toBeVisible();
    const fullVisibility = page.getByRole('checkbox', { name: `Full Visibility on ${environment.handle}` });
    const basicVisibility = page.getByRole('checkbox', { name: `Basic Visibility on ${environment.handle}` });
    await expect(fullVisibility).not.toBeChecked();
    await expect(basicVisibility).not.toBeChecked();

    // Issue 41: columns in everyday words with the spec's label, and what each allows as its tooltip.
    const matrix = page.getByRole('table', { name: 'Environment permissions of Readers' });
    const seeAll = matrix.getByRole('columnheader', { name: 'See all Full Visibility' });
    await expect(seeAll).toBeVisible();
    const seeAllName = seeAll.locator('.matrix-column-name');
    await seeAllName.focus();
    await expect(seeAll.getByRole('tooltip')).toBeVisible();
    await expect(seeAllName).toHaveAccessibleDescription(
      'Sees everything, configuration values included, except database credentials. In the spec: Full Visibility (read).',
    );

    await fullVisibility.click();
    await expect(fullVisibility).toBeChecked();
    await expect(fullVisibility).toHaveAttribute('data-state', 'granted');
    // "Saved" beside the changed box, told politely, gone after a moment.
    const fullVisibilityCell = matrix.getByRole('cell').filter({ has: fullVisibility });
    await expect(fullVisibilityCell.getByText('Saved')).toBeVisible();
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: `Saved: Full Visibility on ${environment.handle} granted.` }),
    ).toHaveCount(1);
    await expect(fullVisibilityCell.getByText('Saved')).toHaveCount(0, { timeout: 10_000 });
    // spec 1 §6: any permission marks basic_read inherited, checked and disabled; issue 41: with a mark
    // (icon and word) and its reason, not a fainter box.
    await expect(basicVisibility).toBeChecked();
    await expect(basicVisibility).toBeDisabled();
    await expect(basicVisibility).toHaveAttribute('data-state', 'inherited');
    await expect(basicVisibility).toHaveAccessibleDescription(
      'Inherited: any permission gives Basic Visibility',
    );
    const basicCell = matrix.getByRole('cell').filter({ has: basicVisibility });
    await expect(basicCell.getByText('inherited', { exact: true })).toBeVisible();
    await expect(basicVisibility).toHaveCSS('opacity', '1');
    await expect(page.getByText('No permissions set')).toHaveCount(0);

    await fullVisibility.click();
    await expect(fullVisibility).not.toBeChecked();
    await expect(basicVisibility).not.toBeChecked();
    await expect(basicVisibility).toBeEnabled();
    await expect(page.getByText('No permissions set')).toBeVisible();

    await sections.getByRole('link', { name: 'Settings' }).click();
    const save = page.getByRole('button', { name: 'Save' });
    await expect(save).toBeDisabled();
    await page.getByRole('textbox', { name: 'Role name', exact: true }).fill('Auditors');
    await save.click();
    await expect(page.getByText('Saved changes successfully!')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Auditors', level: 1 })).toBeVisible();

    const remove = page.getByRole('button', { name: 'Delete Role' });
    await page.getByRole('textbox', { name: 'Type the role name to confirm' }).fill('Readers');
    await expect(remove).toBeDisabled();
    await page.getByRole('textbox', { name: 'Type the role name to confirm' }).fill('Auditors');
    await remove.click();

    await expect(page).toHaveURL(/\/settings\/team\/roles$/);
    await expect(roles.getByRole('row', { name: /Account Owner/ })).toBeVisible();
    await expect(roles.getByRole('link', { name: 'Auditors' })).toHaveCount(0);
  });

  // spec 1 §4: the last remaining role cannot be taken away; the member leaves by Remove member.
  test('keeps a member’s last role: its Remove is disabled with the reason', async ({
    signedInPage: page,
    account,
  }) => {
    await page.goto('/settings/team/roles');
    await page.getByRole('table', { name: 'Roles' }).getByRole('link', { name: 'Account Owners' }).click();
    await expect(page.getByRole('heading', { name: 'Account Owners', level: 1 })).toBeVisible();
    const remove = page
      .getByRole('table', { name: 'Members of Account Owners' })
      .getByRole('button', { name: `Remove ${account.name}` });
    await expect(remove).toHaveAttribute('aria-disabled', 'true');
    await expect(remove).toHaveAccessibleDescription(
      /A member keeps at least one role\. To take them out of the organization, remove the member\./,
    );
    await expect(page.getByRole('button', { name: `Confirm remove ${account.name}` })).toHaveCount(0);
  });

  test('exports the Roles CSV with the spec columns, filtered by environment', async ({
    signedInPage: page,
    account,
    request,
  }) => {
    const environment = await createAccountEnvironment(request, account, 'csv-production');
    await page.goto(`/settings/team/roles?environment_id=${environment.id}`);
    const roles = page.getByRole('table', { name: 'Roles' });
    await expect(roles.getByRole('row', { name: /Account Owner/ })).toBeVisible();
    // Billing Only Owners reach no environment, so the filter leaves them out.
    await expect(roles.getByRole('row', { name: /Billing Only Owner/ })).toHaveCount(0);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('roles.csv');
    const path = await download.path();
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'organization,role,users,environment,environment_admin,full_visibility,basic_visibility,deployment,destroy,ops,sensitive_access,tunnel',
    );
    expect(lines).toContain(
      `${account.organization.name},Account Owners,${account.email},csv-production,true,true,true,true,true,true,true,true`,
    );
  });
});
