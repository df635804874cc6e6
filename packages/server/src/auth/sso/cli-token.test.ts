import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliTokenPickups, tokens } from '../../db/schema.ts';
import { addMember } from '../../testing/factories.ts';
import { enforceSso } from '../../testing/sso-sessions.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';
import { readAuthnRequest, type TestIdp } from '../../testing/test-idp.ts';

const READ_PAGE = 'http://berth.test/sso/cli/read';

let t: TestApp;
let owner: TestUser;
let organizationId: string;
let idp: TestIdp;
beforeAll(async () => {
  t = await testApp();
  owner = await t.signUp();
  organizationId = (await t.createOrganization(owner, 'Cli Org')).id;
  // Enforced: the CLI token is how a member's CLI gets in at all.
  idp = await enforceSso(t, owner, organizationId);
});
afterAll(() => t.close());

/** An SSO login for a CLI token, as the console's /sso/cli page starts it; the ACS's answer. */
async function cliLogin(user: TestUser, query: Record<string, string>) {
  const params = new URLSearchParams({ redirect_uri: READ_PAGE, landing_page: 'clitoken', ...query });
  const started = await t.call('GET', `/auth/organizations/${organizationId}/saml/login?${params}`);
  expect(started.statusCode, started.body).toBe(302);
  const request = readAuthnRequest(String(started.headers.location));
  const binding = started.cookies.find((c) => c.name === 'berth_sso_binding');
  const samlResponse = idp.response({
    acsUrl: `http://berth.test/auth/organizations/${organizationId}/saml/consume`,
    audience: `http://berth.test/auth/organizations/${organizationId}/saml/metadata`,
    inResponseTo: request.id,
    nameId: user.email,
    attributes: { email: user.email },
  });
  return t.app.inject({
    method: 'POST',
    url: `/auth/organizations/${organizationId}/saml/consume`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `berth_sso_binding=${binding?.value}`,
    },
    payload: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
  });
}

/** The code in the fragment of the landing's redirect to the console's read page. */
function codeOf(location: string | undefined): string {
  const url = new URL(String(location));
  expect(`${url.origin}${url.pathname}`).toBe(READ_PAGE);
  expect(url.search).toBe('');
  const code = new URLSearchParams(url.hash.slice(1)).get('code');
  expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return code ?? '';
}

async function member() {
  const user = await t.signUp();
  await addMember(t.db, { organizationId, userId: user.id });
  return user;
}

const collect = (body: unknown) => t.call('POST', '/auth/cli_tokens', { body });

describe('CLI token (landing_page=clitoken)', () => {
  it('lands on the console’s read page with a one-time code, and sets no browser session', async () => {
    const user = await member();
    const answer = await cliLogin(user, { duration: '3600' });
    expect(answer.statusCode, answer.body).toBe(303);
    codeOf(answer.headers.location);
    expect(answer.cookies.find((c) => c.name === 'berth_session')).toBeUndefined();
    // The session the login made is revoked: it went to no browser.
    const live = await t.db
      .select()
      .from(tokens)
      .where(and(eq(tokens.userId, user.id), isNotNull(tokens.ssoOrganizationId), isNull(tokens.revokedAt)));
    expect(live).toEqual([]);
  });

  it('trades the code once for an organization token of the asked lifetime, which opens the organization', async () => {
    const user = await member();
    const code = codeOf((await cliLogin(user, { duration: '14400' })).headers.location);
    const before = Math.floor(Date.now() / 1000);
    const collected = await collect({ code });
    expect(collected.statusCode, collected.body).toBe(201);
    expect(collected.headers['cache-control']).toBe('no-store');
    const token = collected.json();
    expect(token).toMatchObject({ _type: 'token', scope: 'manage', token_type: 'bearer' });
    expect(token._links.user.href).toBe(`http://berth.test/auth/users/${user.id}`);
    const claims = decodeJwt(token.access_token);
    expect(claims.sub).toBe(`http://berth.test/auth/organizations/${organizationId}`);
    expect(claims.act).toMatchObject({ sub: `http://berth.test/auth/users/${user.id}` });
    expect(Number(claims.exp) - before).toBeGreaterThanOrEqual(14400 - 5);
    expect(Number(claims.exp) - before).toBeLessThanOrEqual(14400 + 5);
    // SSO is enforced here: a password session of the member is refused, the CLI token is not.
    const roles = `/auth/organizations/${organizationId}/roles`;
    expect((await t.call('GET', roles, { token: user.token })).statusCode).toBe(403);
    expect((await t.call('GET', roles, { token: token.access_token })).statusCode).toBe(200);
    const again = await collect({ code });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(
      'This CLI token was collected already or its link has expired. Start again from the CLI token page.',
    );
  });

  it('lasts a week unless told otherwise, and never longer', async () => {
    const user = await member();
    const week = 604800;
    for (const query of [{}, { duration: String(week * 4) }] as Record<string, string>[]) {
      const code = codeOf((await cliLogin(user, query)).headers.location);
      const token = (await collect({ code })).json();
      const claims = decodeJwt(token.access_token);
      expect(Number(claims.exp) - Math.floor(Date.now() / 1000)).toBeGreaterThan(week - 10);
      expect(Number(claims.exp) - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(week);
    }
  });

  it('refuses an expired code and an unknown one, and a malformed body', async () => {
    const user = await member();
    const code = codeOf((await cliLogin(user, { duration: '3600' })).headers.location);
    await t.db.update(cliTokenPickups).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await collect({ code })).statusCode).toBe(404);
    expect((await collect({ code: 'x'.repeat(43) })).statusCode).toBe(404);
    expect((await collect({})).statusCode).toBe(422);
    expect((await collect({ code: '' })).json().message).toBe('code must not be empty');
    expect((await collect({ code: 'x'.repeat(257) })).statusCode).toBe(422);
    // The expired one went with the next login's bookkeeping.
    await cliLogin(user, {});
    const left = await t.db.select().from(cliTokenPickups).where(eq(cliTokenPickups.userId, user.id));
    expect(left).toHaveLength(1);
  });
});
