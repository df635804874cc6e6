import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { createRoleWithScopes } from '../fixtures/team.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 41: the invite form says what the chosen role lets a person do, in everyday words, under the
// Role select, from the role's permissions (spec 1 §6).

test("the invite form shows the chosen role's plain summary under the Role select", async ({
  signedInPage: page,
  account,
  request,
}) => {
  const staging = await createAccountEnvironment(request, account, 'staging');
  const production = await createAccountEnvironment(request, account, 'production');
  await createRoleWithScopes(request, account, {
    name: 'Staging deployers',
    environment: staging,
    scopes: ['deploy'],
  });
  const auditors = await createRoleWithScopes(request, account, {
    name: 'Auditors',
    environment: production,
    scopes: ['read'],
  });
  await createRoleWithScopes(request, account, { name: 'Newcomers', environment: staging, scopes: [] });

  await page.goto('/settings/team/invite');
  const role = page.getByRole('combobox', { name: 'Role' });
  await expect(role).toHaveAccessibleDescription('');

  await role.selectOption({ label: 'Staging deployers' });
  const deployers =
    `In ${staging.handle}: can see its apps and databases, but not their configuration; create, deploy, ` +
    'configure and restart apps and databases; scale and restart services and set up log and metric drains.';
  await expect(page.getByText(deployers)).toBeVisible();
  await expect(role).toHaveAccessibleDescription(deployers);

  await role.selectOption({ label: 'Auditors' });
  await expect(
    page.getByText(
      `In ${production.handle}: can see everything, configuration values included, except database passwords.`,
    ),
  ).toBeVisible();
  await expect(page.getByText(deployers)).toHaveCount(0);

  await role.selectOption({ label: 'Newcomers' });
  await expect(
    page.getByText(
      'Can sign in to the organization but reaches no environment yet: give the role permissions first.',
    ),
  ).toBeVisible();

  // The owners' role is summed up by its type.
  const owners = (await role.locator('option').allTextContents()).find(
    (label) => !['Select a role', 'Staging deployers', 'Auditors', 'Newcomers'].includes(label),
  );
  expect(owners).toBeDefined();
  await role.selectOption({ label: owners ?? '' });
  await expect(
    page.getByText(
      'Can do everything: every environment, billing, members, roles and organization settings.',
    ),
  ).toBeVisible();

  // A role link preselects it, with its summary.
  await page.goto(`/settings/team/invite?role_id=${auditors.id}`);
  await expect(page.getByRole('combobox', { name: 'Role' })).toHaveAccessibleDescription(
    `In ${production.handle}: can see everything, configuration values included, except database passwords.`,
  );
});
