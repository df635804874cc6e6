import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestIdp, readAuthnRequest, type TestIdp } from '../../packages/server/src/testing/test-idp.ts';
import { seedVerifiedUser, type VerifiedUser } from '../fixtures/accounts.ts';
import { organizationSwitcher } from '../fixtures/console.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { postJson } from '../fixtures/operations.ts';
import { inviteAndAccept } from '../fixtures/team.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 36, spec 1 §2 /settings/team/sso, /sso, /sso/{orgId}, /sso/failure; contract §3.8: an owner
// configures SAML from an identity provider's metadata, and a member logs in through that IdP.

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The test IdP (packages/server/src/testing) behind a tiny HTTP server: its sign-in URL answers an
 * HTTP-Redirect AuthnRequest, as a real IdP does once its user has signed in, with a page that POSTs a
 * signed Response for `signedInAs` to the ACS the request named.
 */
async function startIdp(): Promise<{ idp: TestIdp; signInAs(email: string): void; close(): Promise<void> }> {
  let signedInAs = '';
  let idp: TestIdp | undefined;
  const server: Server = createServer((request, response) => {
    if (!idp || !request.url?.startsWith('/sso?')) {
      response.writeHead(404).end();
      return;
    }
    const authnRequest = readAuthnRequest(`http://127.0.0.1${request.url}`);
    const samlResponse = idp.response({
      acsUrl: authnRequest.acsUrl,
      audience: authnRequest.issuer,
      inResponseTo: authnRequest.id,
      nameId: signedInAs,
      attributes: { email: signedInAs, displayName: 'Sam Sso' },
    });
    const relayState = authnRequest.relayState
      ? `<input type="hidden" name="RelayState" value="${escapeHtml(authnRequest.relayState)}">`
      : '';
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><title>Test IdP</title><form method="post" action="${escapeHtml(authnRequest.acsUrl)}">` +
          `<input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">${relayState}` +
          '<button>Continue</button></form><script>document.forms[0].submit()</script>',
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  idp = createTestIdp({ ssoUrl: `http://127.0.0.1:${port}/sso` });
  return {
    idp,
    signInAs: (email) => {
      signedInAs = email;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test.describe('single sign-on (SAML)', () => {
  let identityProvider: Awaited<ReturnType<typeof startIdp>>;
  test.beforeAll(async () => {
    identityProvider = await startIdp();
  });
  test.afterAll(() => identityProvider.close());

  test('an owner configures SSO from the IdP metadata and a member logs in through it', async ({
    signedInPage: page,
    account,
    request,
    browser,
    baseURL,
  }) => {
    // Two browsers and three logins on a machine the other suites share.
    test.slow();
    const { idp, signInAs } = identityProvider;
    const organizationId = account.organization.id;

    // The owner pastes the IdP's metadata XML.
    await page.goto('/settings/team/sso');
    await expect(page.getByRole('heading', { name: 'Single Sign-On', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Configure SSO' }).click();
    await expect(page.getByText('must provide either metadata URL or metadata XML')).toBeVisible();
    await page.getByRole('textbox', { name: 'Metadata XML' }).fill(`\n  ${idp.metadata()}  \n`);
    await page.getByRole('button', { name: 'Configure SSO' }).click();
    await expect(page.getByText('Saved changes successfully!')).toBeVisible();
    const configured = page.getByRole('region', { name: 'Configured identity provider' });
    await expect(configured).toContainText(idp.entityId);
    await expect(configured).toContainText(idp.ssoUrl);
    // The URLs the IdP is given, built from the auth host.
    await expect(
      page.getByText(`${baseURL}/auth/organizations/${organizationId}/saml/consume`),
    ).toBeVisible();
    await expect(page.getByText(`${baseURL}/sso/${organizationId}`)).toBeVisible();

    // ... and gives the organization an SSO login ID.
    const handle = `acme-${uniqueSuffix()}`.toLowerCase();
    await page.getByRole('textbox', { name: 'SSO login ID' }).fill(handle);
    await page.getByRole('button', { name: 'Update SSO login ID' }).click();
    await expect(page.getByText(`${baseURL}/sso/${handle}`)).toBeVisible();

    // A member of the organization.
    const member: VerifiedUser = await seedVerifiedUser(request);
    const role = await postJson<{ id: string; name: string }>(
      request,
      account.token.accessToken,
      `/auth/organizations/${organizationId}/roles`,
      { name: `Engineers ${uniqueSuffix()}`, type: 'platform_user' },
    );
    await inviteAndAccept(request, account, role, member);

    // The member, in a browser of their own, logs in through SSO by the login ID.
    const memberContext = await browser.newContext({ baseURL });
    try {
      const memberPage = await memberContext.newPage();
      signInAs(member.email);
      await memberPage.goto('/login');
      await memberPage.getByRole('link', { name: 'Log In with SSO' }).click();
      await expect(memberPage).toHaveURL(/\/sso$/);
      await memberPage.getByRole('textbox', { name: 'Organization ID or SSO login ID' }).fill(handle);
      await memberPage.getByRole('button', { name: 'Continue with SSO' }).click();
      // Through the IdP, back on the console, signed in to the organization.
      await expect(organizationSwitcher(memberPage, account.organization.name)).toBeVisible();
      const session = await memberPage.evaluate(async () => {
        const response = await fetch('/auth/current_token', { credentials: 'include' });
        return (await response.json()) as { access_token: string };
      });
      const claims = JSON.parse(
        Buffer.from(session.access_token.split('.')[1] ?? '', 'base64url').toString(),
      ) as {
        sub: string;
        act?: { email?: string };
      };
      // An organization (SSO) token: the organization as subject, the member as actor (contract §3.3).
      expect(claims.sub).toBe(`${baseURL}/auth/organizations/${organizationId}`);
      expect(claims.act?.email).toBe(member.email);

      // Signed in, the SSO login page says so (spec 1 §8).
      await memberPage.goto(`/sso/${handle}`);
      await expect(memberPage.getByText('You are already logged in!')).toBeVisible();
    } finally {
      await memberContext.close();
    }

    // Someone the IdP vouches for who is no member (just-in-time provisioning is off) is refused,
    // and lands on the failure page with the spec's text.
    const strangerContext = await browser.newContext({ baseURL });
    try {
      const strangerPage = await strangerContext.newPage();
      signInAs(`stranger-${uniqueSuffix()}@example.com`);
      await strangerPage.goto(`/sso/${organizationId}`);
      await strangerPage.getByRole('button', { name: 'Continue with SSO' }).click();
      await expect(strangerPage).toHaveURL(/\/sso\/failure\?message=access_denied$/);
      await expect(strangerPage.getByText('Access was denied by your identity provider.')).toBeVisible();
      await strangerPage.getByRole('link', { name: 'Back to Login' }).click();
      await expect(strangerPage).toHaveURL(/\/login$/);
    } finally {
      await strangerContext.close();
    }
  });
});
