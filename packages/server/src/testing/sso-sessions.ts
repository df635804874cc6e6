import { eq } from 'drizzle-orm';
import { createTokenService } from '../auth/tokens/token.service.ts';
import { loadSigningKey } from '../auth/tokens/token-keys.ts';
import { familyUrls } from '../config.ts';
import { users } from '../db/schema.ts';
import type { TestApp, TestUser } from './test-app.ts';
import { createTestIdp, type TestIdp } from './test-idp.ts';

/**
 * An organization (SSO) token of the user for the organization, as a SAML login makes it (the token
 * service's own issue, with the server's signing key), for tests about what such a token may reach.
 */
export async function ssoToken(t: TestApp, user: TestUser, organizationId: string): Promise<string> {
  const tokens = createTokenService({
    db: t.db,
    key: await loadSigningKey(t.db, t.config.jwtSecret),
    urls: familyUrls(t.config),
  });
  const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
  if (!row) throw new Error(`No user ${user.id}`);
  return (await tokens.issue(row, 'manage', 3600, { ssoOrganizationId: organizationId })).accessToken;
}

/** Configures SAML for the organization through the API, from a test identity provider's metadata. */
export async function configureSaml(t: TestApp, owner: TestUser, organizationId: string): Promise<TestIdp> {
  const idp = createTestIdp();
  const response = await t.call('POST', `/auth/organizations/${organizationId}/saml_configurations`, {
    token: owner.token,
    body: { metadata: idp.metadataBase64(), metadata_url: '' },
  });
  if (response.statusCode !== 201) throw new Error(`SAML configuration failed: ${response.body}`);
  return idp;
}

/** Configures SAML and turns enforcement on, as the organization's Account Owner. */
export async function enforceSso(t: TestApp, owner: TestUser, organizationId: string): Promise<TestIdp> {
  const idp = await configureSaml(t, owner, organizationId);
  const response = await t.call('PATCH', `/auth/organizations/${organizationId}`, {
    token: owner.token,
    body: { sso_enforced: true },
  });
  if (response.statusCode !== 200) throw new Error(`enforcing SSO failed: ${response.body}`);
  return idp;
}
