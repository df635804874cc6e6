import type { APIRequestContext, Page } from '@playwright/test';
import { passwordField } from '../fixtures/console.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 36: the Account Owner of one organization turns provisioning on at /settings/team/scim (a default
// role, then a token shown once); the identity provider, played by this test, provisions a user and a
// group through /scim/v2 with that token; the console shows them locked (spec 1 §6, §8).

const SCIM = 'application/scim+json';

function scimHeaders(token: string) {
  return { authorization: `Bearer ${token}`, 'content-type': SCIM, accept: SCIM };
}

async function reauthenticate(page: Page, password: string) {
  await expect(page.getByRole('heading', { name: 'Confirm your identity' })).toBeVisible();
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: 'Confirm' }).click();
}

async function createRole(request: APIRequestContext, token: string, organizationId: string, name: string) {
  const response = await request.post(`/auth/organizations/${organizationId}/roles`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    data: { name, type: 'platform_user' },
  });
  expect(response.status()).toBe(201);
}

test('an owner turns provisioning on, and a user the identity provider creates appears locked in Members', async ({
  signedInPage: page,
  account,
  request,
}) => {
  // One journey through three screens, a re-entered password and the SCIM service.
  test.setTimeout(60_000);
  await createRole(request, account.token.accessToken, account.organization.id, 'Developers');

  await page.goto('/settings/team/scim');
  await expect(page.getByRole('heading', { name: 'Provisioning', level: 1 })).toBeVisible();
  // spec 1 §5: a default role must be chosen.
  await page.getByRole('button', { name: 'Set up provisioning' }).click();
  await expect(page.getByText('must select Default Role')).toBeVisible();
  await page.getByRole('combobox', { name: 'Default Role' }).selectOption({ label: 'Developers' });
  await page.getByRole('button', { name: 'Set up provisioning' }).click();

  const connection = page.getByRole('region', { name: 'Connect your identity provider' });
  await expect(connection).toBeVisible();
  const baseUrl = new URL('/scim/v2', page.url()).toString();
  await expect(connection.getByText(baseUrl, { exact: true })).toBeVisible();

  // The token acts for the organization: it is made with the password entered again.
  await connection.getByRole('button', { name: 'Generate token' }).click();
  await reauthenticate(page, account.password);
  await expect(page).toHaveURL(/\/settings\/team\/scim$/);
  await page
    .getByRole('region', { name: 'Connect your identity provider' })
    .getByRole('button', { name: 'Generate token' })
    .click();
  const shown = page.getByRole('region', { name: 'Your new SCIM token' });
  await expect(shown.getByText('it is shown only once')).toBeVisible();
  await expect(page.getByText('Token generated successfully!')).toBeVisible();
  await expect(shown.getByRole('button', { name: 'Copy the SCIM token' })).toBeVisible();
  const token = (await shown.locator('code').textContent())?.trim() ?? '';
  expect(token.length).toBeGreaterThan(30);

  // The identity provider: a user, then a group with them in it.
  const email = `grace-${uniqueSuffix()}@example.com`;
  const created = await request.post('/scim/v2/Users', {
    headers: scimHeaders(token),
    data: JSON.stringify({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: email,
      externalId: 'okta-00u1',
      name: { givenName: 'Grace', familyName: 'Hopper' },
      emails: [{ value: email, type: 'work', primary: true }],
      active: true,
    }),
  });
  expect(created.status()).toBe(201);
  expect(created.headers()['content-type']).toContain(SCIM);
  const scimUser = (await created.json()) as { id: string };
  expect(created.headers().location).toBe(`${baseUrl}/Users/${scimUser.id}`);
  const group = await request.post('/scim/v2/Groups', {
    headers: scimHeaders(token),
    data: JSON.stringify({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Engineering',
      members: [{ value: scimUser.id }],
    }),
  });
  expect(group.status()).toBe(201);
  // The console's own session token is no SCIM token.
  const refused = await request.get('/scim/v2/Users', {
    headers: { authorization: `Bearer ${account.token.accessToken}`, accept: SCIM },
  });
  expect(refused.status()).toBe(401);

  await page.goto('/settings/team/members');
  const row = page.getByRole('table', { name: 'Members' }).getByRole('row', { name: /Grace Hopper/ });
  await expect(row).toContainText(email);
  await expect(row.getByText('SCIM', { exact: true })).toBeVisible();
  // spec 1 §6: owners cannot remove provisioned users.
  await expect(row.getByRole('button', { name: /Remove/ })).toHaveAttribute('aria-disabled', 'true');

  await row.getByRole('link', { name: 'Grace Hopper' }).click();
  await expect(page.getByText('This user is managed via provisioning and cannot be edited.')).toBeVisible();
  const engineering = page.getByRole('checkbox', { name: 'Engineering' });
  await expect(engineering).toBeChecked();
  await expect(engineering).toHaveAttribute('aria-disabled', 'true');
  await expect(engineering).toHaveAccessibleDescription(/^Cannot remove: user and role are SCIM-managed/);
  await expect(page.getByRole('checkbox', { name: 'Developers' })).toBeChecked();

  // The group is a role the console will not let anyone edit.
  await page.goto('/settings/team/roles');
  await page.getByRole('table', { name: 'Roles' }).getByRole('link', { name: 'Engineering' }).click();
  await expect(page.getByText('This role is managed via provisioning and cannot be edited.')).toBeVisible();
});
