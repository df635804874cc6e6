import type { Browser } from '@playwright/test';
import { createTestIdp, readAuthnRequest } from '../../packages/server/src/testing/test-idp.ts';
import { logInBrowser, seedVerifiedUser, type VerifiedUser } from '../fixtures/accounts.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { postJson } from '../fixtures/operations.ts';
import { inviteAndAccept } from '../fixtures/team.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 36, spec 1 §4/§6/§8 and spec 3 §2: the Account Owner enforces SSO and keeps an SSO exception
// list; a member with a password session is asked to log in with SSO, one on the list is not.

/** Opens the console as `member` (a password session) in a browser of their own. */
async function openAs(browser: Browser, baseURL: string | undefined, member: VerifiedUser) {
  const context = await browser.newContext({ baseURL });
  await logInBrowser(context, member);
  const page = await context.newPage();
  await page.goto('/environments');
  return { page, close: () => context.close() };
}

test('an owner enforces SSO and exempts a member, whom the SSO-required error spares', async ({
  signedInPage: page,
  account,
  request,
  browser,
  baseURL,
}) => {
  // Three people, each member in a browser of their own: more than one screen's worth of work.
  test.slow();
  const organizationId = account.organization.id;
  const organizationName = account.organization.name;
  const token = account.token.accessToken;

  // SSO configured from a test identity provider's metadata (its login is sso.spec.ts's part).
  const idp = createTestIdp({ ssoUrl: 'https://idp.example.com/sso' });
  await postJson(request, token, `/auth/organizations/${organizationId}/saml_configurations`, {
    metadata: Buffer.from(idp.metadata().trim()).toString('base64'),
  });

  // Two members with password sessions: Grace goes on the exception list, Alan does not.
  const role = await postJson<{ id: string; name: string }>(
    request,
    token,
    `/auth/organizations/${organizationId}/roles`,
    { name: `Engineers ${uniqueSuffix()}`, type: 'platform_user' },
  );
  const grace = await seedVerifiedUser(request, { name: 'Grace Hopper' });
  const alan = await seedVerifiedUser(request, { name: 'Alan Turing' });
  await inviteAndAccept(request, account, role, grace);
  await inviteAndAccept(request, account, role, alan);

  await page.goto('/settings/team/sso');
  const enforcement = page.getByRole('region', { name: 'Enforce SSO' });
  await expect(enforcement).toContainText('SSO is not enforced');
  const exceptions = page.getByRole('region', { name: 'SSO exception list' });
  await expect(exceptions.getByText('No users added to SSO exception list')).toBeVisible();

  // The chooser offers members, not the Account Owner (spec 1 §6: owners cannot be added).
  await exceptions.getByRole('button', { name: 'Add' }).click();
  await expect(exceptions.getByText('SSO bypass: a user must be chosen')).toBeVisible();
  const chooser = exceptions.getByRole('combobox', { name: 'Member' });
  await expect(chooser.getByRole('option', { name: new RegExp(account.email) })).toHaveCount(0);
  await chooser.selectOption({ label: `Grace Hopper (${grace.email})` });
  await exceptions.getByRole('button', { name: 'Add' }).click();
  const list = exceptions.getByRole('table', { name: 'SSO exception list' });
  await expect(list.getByRole('cell', { name: grace.email })).toBeVisible();

  await enforcement.getByRole('button', { name: 'Enable SSO enforcement' }).click();
  await expect(page.getByText('Successfully enabled organization SSO enforcement!')).toBeVisible();
  await expect(enforcement).toContainText('SSO is enforced');

  // Alan's password session is asked to log in with SSO, in place of the page.
  const alanConsole = await openAs(browser, baseURL, alan);
  try {
    const error = alanConsole.page.getByRole('alert').filter({ hasText: 'SSO Login Required' });
    await expect(error).toContainText(`Organization ${organizationName} requires SSO!`);
    await expect(error.getByRole('link', { name: 'Log in with SSO' })).toHaveAttribute(
      'href',
      new RegExp(`/auth/organizations/${organizationId}/saml/login\\?`),
    );
    await expect(alanConsole.page.getByRole('heading', { name: 'Environments', exact: true })).toHaveCount(0);
  } finally {
    await alanConsole.close();
  }

  // Grace, on the list, works as before.
  const graceConsole = await openAs(browser, baseURL, grace);
  try {
    await expect(graceConsole.page.getByRole('heading', { name: 'Environments', exact: true })).toBeVisible();
    await expect(graceConsole.page.getByText('SSO Login Required')).toHaveCount(0);
  } finally {
    await graceConsole.close();
  }

  // Taken off the list, she is asked for SSO too.
  await list.getByRole('button', { name: 'Remove Grace Hopper from the SSO exception list' }).click();
  await list.getByRole('button', { name: 'Confirm remove Grace Hopper' }).click();
  await expect(exceptions.getByText('No users added to SSO exception list')).toBeVisible();
  const graceAgain = await openAs(browser, baseURL, grace);
  try {
    await expect(graceAgain.page.getByText(`Organization ${organizationName} requires SSO!`)).toBeVisible();
  } finally {
    await graceAgain.close();
  }

  // The owner is exempt and turns enforcement off again.
  await enforcement.getByRole('button', { name: 'Disable SSO enforcement' }).click();
  await expect(enforcement).toContainText('SSO is not enforced');
});

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

test('the CLI SSO Token page gets a token of the chosen lifetime through the SSO login', async ({
  signedInPage: page,
  account,
  request,
}) => {
  test.slow();
  const organizationId = account.organization.id;
  // The identity provider's sign-in page, played by the browser's router: it answers the AuthnRequest
  // with a page that posts a signed Response for the owner to the ACS, as a real IdP does once signed in.
  const ssoUrl = 'http://127.0.0.1:9/sso';
  const idp = createTestIdp({ ssoUrl });
  await postJson(
    request,
    account.token.accessToken,
    `/auth/organizations/${organizationId}/saml_configurations`,
    {
      metadata: Buffer.from(idp.metadata().trim()).toString('base64'),
    },
  );
  await page.route(`${ssoUrl}?**`, async (route) => {
    const authnRequest = readAuthnRequest(route.request().url());
    const samlResponse = idp.response({
      acsUrl: authnRequest.acsUrl,
      audience: authnRequest.issuer,
      inResponseTo: authnRequest.id,
      nameId: account.email,
      attributes: { email: account.email },
    });
    const relayState = authnRequest.relayState
      ? `<input type="hidden" name="RelayState" value="${escapeHtml(authnRequest.relayState)}">`
      : '';
    await route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body:
        `<!doctype html><title>Test IdP</title><form method="post" action="${escapeHtml(authnRequest.acsUrl)}">` +
        `<input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">${relayState}` +
        '<button>Continue</button></form><script>document.forms[0].submit()</script>',
    });
  });

  await page.goto('/sso/cli');
  const form = page.getByRole('form', { name: 'CLI SSO Token' });
  // The selected organization is offered; a week is the default lifetime.
  await expect(form.getByRole('textbox', { name: 'Organization' })).toHaveValue(organizationId);
  const lifetime = form.getByRole('combobox', { name: 'Token lifetime' });
  await expect(lifetime).toHaveValue('604800');
  await lifetime.selectOption({ label: '1 hour' });
  await form.getByRole('button', { name: 'Log in with SSO' }).click();

  // Back from the IdP on the reading variant, the code gone from the address bar, the token shown.
  await expect(page).toHaveURL(/\/sso\/cli\/read$/);
  await expect(page.getByRole('button', { name: 'Copy the CLI token' })).toBeVisible();
  const cliToken = (await page.locator('.copyable-text code').innerText()).trim();
  const claims = JSON.parse(Buffer.from(cliToken.split('.')[1] ?? '', 'base64url').toString()) as {
    sub: string;
    exp: number;
    iat: number;
  };
  // An organization (SSO) token of the organization, for an hour.
  expect(claims.sub).toMatch(new RegExp(`/auth/organizations/${organizationId}$`));
  // (Issued and expiry times are each cut to the second.)
  expect(Math.abs(claims.exp - claims.iat - 3600)).toBeLessThanOrEqual(1);
  const usable = await request.get(`/auth/organizations/${organizationId}/roles`, {
    headers: { authorization: `Bearer ${cliToken}` },
  });
  expect(usable.status()).toBe(200);

  // The browser's own session is the password one it had: the console opens as before.
  await page.goto('/environments');
  await expect(page.getByRole('heading', { name: 'Environments', exact: true })).toBeVisible();
});
