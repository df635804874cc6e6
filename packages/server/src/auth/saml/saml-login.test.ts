import { impersonationMessages } from '@berth/core';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships, samlIdentities, scimUsers, users } from '../../db/schema.ts';
import { addMember } from '../../testing/factories.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';
import { makeCertificate } from '../../testing/test-certificates.ts';
import {
  createTestIdp,
  type ResponseOptions,
  readAuthnRequest,
  wrapSignedAssertion,
} from '../../testing/test-idp.ts';
import { SSO_LOGIN_STARTS_PER_MINUTE } from './saml-login.service.ts';

const FAILURE_PAGE = 'http://berth.test/sso/failure';

describe('SAML login (SP-initiated, HTTP-Redirect then HTTP-POST)', () => {
  let t: TestApp;
  let owner: TestUser;
  let organizationId: string;
  const idp = createTestIdp();
  const acsUrl = () => `http://berth.test/auth/organizations/${organizationId}/saml/consume`;
  const audience = () => `http://berth.test/auth/organizations/${organizationId}/saml/metadata`;

  beforeAll(async () => {
    t = await testApp();
    owner = await t.signUp({ name: 'Olive Owner' });
    organizationId = (await t.createOrganization(owner, 'Sso Org')).id;
    const configured = await t.call('POST', `/auth/organizations/${organizationId}/saml_configurations`, {
      token: owner.token,
      body: { metadata: idp.metadataBase64(), metadata_url: '' },
    });
    expect(configured.statusCode, configured.body).toBe(201);
  });
  afterAll(() => t.close());

  /** A member of the organization, with the NameID their IdP account has. */
  async function member() {
    const user = await t.signUp({ name: 'Mia Member' });
    await addMember(t.db, { organizationId, userId: user.id });
    return user;
  }

  /** Starts a login as a browser would: the IdP's URL, the request it carries, the binding cookie. */
  async function startLogin(path = organizationId, redirect = FAILURE_PAGE) {
    const response = await t.call(
      'GET',
      `/auth/organizations/${path}/saml/login?redirect_uri=${encodeURIComponent(redirect)}`,
    );
    expect(response.statusCode, response.body).toBe(302);
    const location = String(response.headers.location);
    const binding = response.cookies.find((c) => c.name === 'berth_sso_binding');
    return { location, request: readAuthnRequest(location), cookie: `berth_sso_binding=${binding?.value}` };
  }

  async function post(samlResponse: string, cookie: string, path = organizationId) {
    return t.app.inject({
      method: 'POST',
      url: `/auth/organizations/${path}/saml/consume`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      payload: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
    });
  }

  /** A login answered with a response the test shapes; the ACS's answer. */
  async function loginWith(email: string, shape: Partial<ResponseOptions> = {}) {
    const { request, cookie } = await startLogin();
    const response = idp.response({
      acsUrl: acsUrl(),
      audience: audience(),
      inResponseTo: request.id,
      nameId: email,
      attributes: { email, displayName: 'Jit Person' },
      ...shape,
    });
    return { answer: await post(response, cookie), response, cookie, request };
  }

  const failure = (code: string) => `${FAILURE_PAGE}?message=${code}`;

  it('sends the browser to the IdP with a signed AuthnRequest for this SP', async () => {
    const { location, request } = await startLogin();
    expect(location.startsWith(`${idp.ssoUrl}?`)).toBe(true);
    expect(new URL(location).searchParams.get('Signature')).toBeTruthy();
    expect(request.acsUrl).toBe(acsUrl());
    expect(request.issuer).toBe(audience());
  });

  it('logs a member in: an organization token as the session cookie, then the console', async () => {
    const user = await member();
    const { answer } = await loginWith(user.email);
    expect(answer.statusCode, answer.body).toBe(303);
    expect(answer.headers.location).toBe('http://berth.test/');
    const session = answer.cookies.find((c) => c.name === 'berth_session');
    expect(session?.value).toBeTruthy();
    expect(session?.httpOnly).toBe(true);
    const current = await t.call('GET', '/auth/current_token', { cookie: `berth_session=${session?.value}` });
    expect(current.statusCode).toBe(200);
    const claims = decodeJwt(current.json().access_token);
    // Contract §3.3 and spec 1 §4: subject the organization, actor the user.
    expect(claims.sub).toBe(`http://berth.test/auth/organizations/${organizationId}`);
    expect(claims.act).toMatchObject({ sub: `http://berth.test/auth/users/${user.id}`, email: user.email });
    expect(current.json()._links.user.href).toBe(`http://berth.test/auth/users/${user.id}`);
    // The token works, and only in its organization.
    const organizations = await t.call('GET', '/auth/organizations', { token: current.json().access_token });
    expect(organizations.statusCode, organizations.body).toBe(200);
    expect(organizations.json()._embedded.organizations.map((o: { id: string }) => o.id)).toEqual([
      organizationId,
    ]);
  });

  it('keeps an organization token one when it is refreshed by exchange', async () => {
    const user = await member();
    const { answer } = await loginWith(user.email);
    const session = answer.cookies.find((c) => c.name === 'berth_session');
    const current = await t.call('GET', '/auth/current_token', { cookie: `berth_session=${session?.value}` });
    const token = current.json().access_token as string;
    const exchanged = await t.call('POST', '/auth/tokens', {
      token,
      body: {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        actor_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        actor_token: token,
        subject_token_type: 'berth:user:href',
        subject_token: `http://berth.test/auth/users/${user.id}`,
        scope: 'manage',
        expires_in: 86090,
      },
    });
    expect(exchanged.statusCode, exchanged.body).toBe(201);
    expect(decodeJwt(exchanged.json().access_token).sub).toBe(
      `http://berth.test/auth/organizations/${organizationId}`,
    );
  });

  it('an organization token of one organization grants nothing in another the user belongs to (403: sign in there)', async () => {
    const user = await member();
    const other = (await t.createOrganization(owner, 'Other Org')).id;
    await addMember(t.db, { organizationId: other, userId: user.id });
    const { answer } = await loginWith(user.email);
    const session = answer.cookies.find((c) => c.name === 'berth_session');
    const token = (
      await t.call('GET', '/auth/current_token', { cookie: `berth_session=${session?.value}` })
    ).json().access_token;
    expect((await t.call('GET', `/auth/organizations/${other}/roles`, { token })).statusCode).toBe(403);
    expect((await t.call('GET', `/auth/organizations/${organizationId}/roles`, { token })).statusCode).toBe(
      200,
    );
  });

  it('resolves the login path by handle as well as by id', async () => {
    const [configuration] = (await t.call('GET', '/auth/saml_configurations', { token: owner.token })).json()
      ._embedded.saml_configurations;
    const named = await t.call('PATCH', `/auth/saml_configurations/${configuration.id}`, {
      token: owner.token,
      body: { handle: 'Sso-Org' },
    });
    expect(named.statusCode, named.body).toBe(200);
    const { request } = await startLogin('sso-org');
    expect(request.acsUrl).toBe(acsUrl());
  });

  it('refuses an unsigned response', async () => {
    const user = await member();
    const { answer } = await loginWith(user.email, { signAssertion: false });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(failure('invalid_credentials'));
    expect(answer.cookies.find((c) => c.name === 'berth_session')).toBeUndefined();
  });

  it('refuses a response signed by another key, even one named in its KeyInfo', async () => {
    const user = await member();
    const foreign = makeCertificate({ keyType: 'rsa', subject: { commonName: 'Test IdP' } });
    const { answer } = await loginWith(user.email, { signer: foreign, signResponse: true });
    expect(answer.headers.location).toBe(failure('invalid_credentials'));
  });

  it('refuses a wrapped (XSW) response: a forged assertion around a genuinely signed one', async () => {
    const user = await member();
    const victim = await member();
    const { request, cookie } = await startLogin();
    const signed = idp.responseXml({
      acsUrl: acsUrl(),
      audience: audience(),
      inResponseTo: request.id,
      nameId: user.email,
      attributes: { email: user.email },
    });
    const wrapped = wrapSignedAssertion(signed, victim.email);
    expect(wrapped).toContain(victim.email);
    const answer = await post(Buffer.from(wrapped).toString('base64'), cookie);
    expect(answer.headers.location).toBe(failure('invalid_credentials'));
    expect(answer.cookies.find((c) => c.name === 'berth_session')).toBeUndefined();
  });

  it('refuses a response for another audience', async () => {
    const user = await member();
    const { answer } = await loginWith(user.email, { audience: 'https://other-sp.example.com/metadata' });
    expect(answer.headers.location).toBe(failure('invalid_credentials'));
  });

  it('refuses a response whose assertion names another recipient', async () => {
    const user = await member();
    const { answer } = await loginWith(user.email, { recipient: 'https://other-sp.example.com/acs' });
    expect(answer.headers.location).toBe(failure('invalid_credentials'));
  });

  it('refuses a response addressed to another destination', async () => {
    const user = await member();
    const { answer } = await loginWith(user.email, {
      destination: 'https://other-sp.example.com/acs',
      signResponse: true,
    });
    expect(answer.headers.location).toBe(failure('invalid_credentials'));
  });

  it('refuses a response from another issuer than the configured IdP, even signed with its key', async () => {
    const user = await member();
    const { answer } = await loginWith(user.email, { issuer: 'https://impostor.example.com' });
    expect(answer.headers.location).toBe(failure('invalid_credentials'));
  });

  it('refuses an expired assertion (past its NotOnOrAfter and the minute of skew)', async () => {
    const user = await member();
    const { answer } = await loginWith(user.email, {
      now: new Date(Date.now() - 10 * 60_000),
      validForMs: 5 * 60_000 - 61_000,
    });
    expect(answer.headers.location).toBe(failure('invalid_credentials'));
  });

  it('takes an assertion within the minute of skew', async () => {
    const user = await member();
    const { answer } = await loginWith(user.email, { now: new Date(Date.now() - 5 * 60_000 - 30_000) });
    expect(answer.headers.location).toBe('http://berth.test/');
  });

  it('refuses a response used before', async () => {
    const user = await member();
    const { answer, response, cookie } = await loginWith(user.email);
    expect(answer.headers.location).toBe('http://berth.test/');
    const again = await post(response, cookie);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).not.toBe('http://berth.test/');
    expect(again.cookies.find((c) => c.name === 'berth_session')).toBeUndefined();
  });

  it('lets only one of two copies of a response sent at once through', async () => {
    const user = await member();
    const { request, cookie } = await startLogin();
    const response = idp.response({
      acsUrl: acsUrl(),
      audience: audience(),
      inResponseTo: request.id,
      nameId: user.email,
      attributes: { email: user.email },
    });
    const answers = await Promise.all([
      post(response, cookie),
      post(response, cookie),
      post(response, cookie),
    ]);
    const logins = answers.filter((answer) => answer.headers.location === 'http://berth.test/');
    expect(logins).toHaveLength(1);
  });

  it('refuses an unsolicited response (no InResponseTo) and one answering no request of ours', async () => {
    const user = await member();
    const { cookie } = await startLogin();
    const unsolicited = idp.response({
      acsUrl: acsUrl(),
      audience: audience(),
      inResponseTo: null,
      nameId: user.email,
    });
    expect((await post(unsolicited, cookie)).headers.location).toBe(failure('csrf_detected'));
    const unknown = idp.response({
      acsUrl: acsUrl(),
      audience: audience(),
      inResponseTo: '_0123456789abcdef0123456789abcdef',
      nameId: user.email,
    });
    expect((await post(unknown, cookie)).headers.location).toBe(failure('csrf_detected'));
  });

  it('refuses the answer to a login another browser started', async () => {
    const user = await member();
    const { request } = await startLogin();
    const { cookie: otherBrowser } = await startLogin();
    const response = idp.response({
      acsUrl: acsUrl(),
      audience: audience(),
      inResponseTo: request.id,
      nameId: user.email,
      attributes: { email: user.email },
    });
    expect((await post(response, otherBrowser)).headers.location).toBe(failure('csrf_detected'));
  });

  it('refuses a response with a DTD', async () => {
    const user = await member();
    const { answer } = await loginWith(user.email, {
      prolog: '<!DOCTYPE r [<!ENTITY e "x">]>',
    });
    expect(answer.headers.location).toBe(failure('invalid_credentials'));
  });

  it('refuses an oversized body before reading it', async () => {
    const { cookie } = await startLogin();
    const answer = await post('A'.repeat(512 * 1024), cookie);
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(failure('invalid_credentials'));
  });

  it('tells the IdP refusing the person as access_denied', async () => {
    const user = await member();
    const { answer } = await loginWith(user.email, {
      status: 'urn:oasis:names:tc:SAML:2.0:status:Responder',
    });
    expect(answer.headers.location).toBe(failure('access_denied'));
  });

  it('refuses someone who is no member while just-in-time provisioning is off', async () => {
    const stranger = await t.signUp();
    const { answer } = await loginWith(stranger.email);
    expect(answer.headers.location).toBe(failure('access_denied'));
    const nobody = t.uniqueEmail('nobody');
    expect((await loginWith(nobody)).answer.headers.location).toBe(failure('access_denied'));
    expect(await t.db.select().from(users).where(eq(users.email, nobody))).toHaveLength(0);
  });

  it('makes an invited person a member at their first SSO login', async () => {
    const roles = (
      await t.call('GET', `/auth/organizations/${organizationId}/roles`, { token: owner.token })
    ).json()._embedded.roles as { id: string; type: string }[];
    const deployOwners = roles.find((role) => role.type === 'platform_owner');
    const email = t.uniqueEmail('invited');
    const invited = await t.call('POST', `/auth/roles/${deployOwners?.id}/invitations`, {
      token: owner.token,
      body: { email, origin: 'app' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const { answer } = await loginWith(email);
    expect(answer.headers.location).toBe('http://berth.test/');
    const [created] = await t.db.select().from(users).where(eq(users.email, email));
    expect(created?.verified).toBe(true);
    const members = await t.call('GET', `/auth/organizations/${organizationId}/users`, {
      token: owner.token,
    });
    expect(members.json()._embedded.users.map((u: { email: string }) => u.email)).toContain(email);
    const pending = await t.call('GET', `/auth/organizations/${organizationId}/invitations`, {
      token: owner.token,
    });
    expect(pending.json()._embedded.invitations).toHaveLength(0);
  });

  it('never joins an existing account by an invitation alone: its owner accepts it with their own sign-in', async () => {
    const roles = (
      await t.call('GET', `/auth/organizations/${organizationId}/roles`, { token: owner.token })
    ).json()._embedded.roles as { id: string; type: string }[];
    const deployOwners = roles.find((role) => role.type === 'platform_owner');
    // The owner runs the IdP and sends invitations: with both they could otherwise take any account.
    const victim = await t.signUp({ name: 'Vic Elsewhere' });
    const invited = await t.call('POST', `/auth/roles/${deployOwners?.id}/invitations`, {
      token: owner.token,
      body: { email: victim.email, origin: 'app' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const { answer } = await loginWith(victim.email);
    expect(answer.headers.location).toBe(failure('access_denied'));
    expect(answer.cookies.find((c) => c.name === 'berth_session')).toBeUndefined();
    expect(await t.db.select().from(samlIdentities).where(eq(samlIdentities.userId, victim.id))).toHaveLength(
      0,
    );
    const members = await t.call('GET', `/auth/organizations/${organizationId}/users`, {
      token: owner.token,
    });
    expect(members.json()._embedded.users.map((u: { email: string }) => u.email)).not.toContain(victim.email);
    const pending = await t.call('GET', `/auth/organizations/${organizationId}/invitations`, {
      token: owner.token,
    });
    expect(pending.json()._embedded.invitations.map((i: { email: string }) => i.email)).toContain(
      victim.email,
    );
  });

  it('gives an organization token no staff powers: impersonation needs the staff member’s own sign-in', async () => {
    const staff = await member();
    await t.db.update(users).set({ superuser: true }).where(eq(users.id, staff.id));
    const someone = await t.signUp({ name: 'Sam Someone' });
    const { answer } = await loginWith(staff.email);
    const session = answer.cookies.find((c) => c.name === 'berth_session');
    const token = (
      await t.call('GET', '/auth/current_token', { cookie: `berth_session=${session?.value}` })
    ).json().access_token as string;
    const exchange = (scope: string, actorToken: string) =>
      t.call('POST', '/auth/tokens', {
        token: actorToken,
        body: {
          grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
          actor_token_type: 'urn:ietf:params:oauth:token-type:jwt',
          actor_token: actorToken,
          subject_token_type: 'berth:user:email',
          subject_token: someone.email,
          scope,
          sso_organization: '',
          expires_in: 86090,
        },
      });
    for (const scope of ['manage', 'read']) {
      const refused = await exchange(scope, token);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toMatchObject({
        error: 'access_denied',
        message: impersonationMessages.ssoSession,
      });
    }
    // The same staff member's password session may.
    expect((await exchange('read', staff.token)).statusCode).toBe(201);
  });

  it('with just-in-time provisioning, makes the person a member with the default role, keyed by NameID', async () => {
    const roles = (
      await t.call('GET', `/auth/organizations/${organizationId}/roles`, { token: owner.token })
    ).json()._embedded.roles as { id: string; type: string }[];
    const defaultRole = roles.find((role) => role.type === 'platform_owner');
    const [configuration] = (await t.call('GET', '/auth/saml_configurations', { token: owner.token })).json()
      ._embedded.saml_configurations;
    const turnedOn = await t.call('PATCH', `/auth/saml_configurations/${configuration.id}`, {
      token: owner.token,
      body: { jit_enabled: true, default_role_id: defaultRole?.id },
    });
    expect(turnedOn.statusCode, turnedOn.body).toBe(200);
    expect(turnedOn.json()).toMatchObject({ jit_enabled: true, default_role_id: defaultRole?.id });

    const email = t.uniqueEmail('jit');
    const nameId = `employee-${email}`;
    const { answer } = await loginWith(email, {
      nameId,
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    });
    expect(answer.headers.location, String(answer.headers.location)).toBe('http://berth.test/');
    const [created] = await t.db.select().from(users).where(eq(users.email, email));
    expect(created).toMatchObject({ name: 'Jit Person', verified: true });
    const memberRoles = await t.call('GET', `/auth/users/${created?.id}/roles`, { token: owner.token });
    expect(memberRoles.json()._embedded.roles.map((r: { id: string }) => r.id)).toEqual([defaultRole?.id]);
    // The join is an audit event by the user, from their address, naming the role it gave (issue 41).
    const audit = await t.call(
      'GET',
      `/api/organizations/${organizationId}/audit_events?action=member.join&actor=${encodeURIComponent(email)}`,
      {
        token: owner.token,
      },
    );
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.json()._embedded.audit_events).toEqual([
      expect.objectContaining({
        action: 'member.join',
        actor_id: created?.id,
        actor_email: email,
        resource_type: 'member',
        resource_id: created?.id,
        parent_type: 'role',
        parent_name: 'Deploy Owners',
        detail: 'just-in-time provisioning',
        ip_address: '127.0.0.1',
      }),
    ]);
    // No password anyone knows: a password login fails, SSO goes on working by NameID.
    expect((await t.login(email, 'Correct-Horse9')).statusCode).toBe(401);
    const [identity] = await t.db.select().from(samlIdentities).where(eq(samlIdentities.nameId, nameId));
    expect(identity?.userId).toBe(created?.id);
    expect((await loginWith('changed@example.com', { nameId })).answer.headers.location).toBe(
      'http://berth.test/',
    );
    // An account that exists and is no member is never taken over by its address.
    const stranger = await t.signUp();
    expect((await loginWith(stranger.email)).answer.headers.location).toBe(failure('access_denied'));
    await t.call('PATCH', `/auth/saml_configurations/${configuration.id}`, {
      token: owner.token,
      body: { jit_enabled: false },
    });
  });

  it('does not bring back, by just-in-time provisioning, a person provisioning deactivated', async () => {
    const roles = (
      await t.call('GET', `/auth/organizations/${organizationId}/roles`, { token: owner.token })
    ).json()._embedded.roles as { id: string; type: string }[];
    const defaultRole = roles.find((role) => role.type === 'platform_owner');
    const [configuration] = (await t.call('GET', '/auth/saml_configurations', { token: owner.token })).json()
      ._embedded.saml_configurations;
    await t.call('PATCH', `/auth/saml_configurations/${configuration.id}`, {
      token: owner.token,
      body: { jit_enabled: true, default_role_id: defaultRole?.id },
    });
    try {
      const email = t.uniqueEmail('deprovisioned');
      expect((await loginWith(email)).answer.headers.location).toBe('http://berth.test/');
      const [person] = await t.db.select().from(users).where(eq(users.email, email));
      if (!person) throw new Error('no JIT user');
      // What SCIM's deactivation leaves: the provisioned row inactive, no membership.
      await t.db.insert(scimUsers).values({ organizationId, userId: person.id, active: false });
      await t.db.delete(memberships).where(eq(memberships.userId, person.id));
      const { answer } = await loginWith(email);
      expect(answer.headers.location).toBe(failure('access_denied'));
      expect(await t.db.select().from(memberships).where(eq(memberships.userId, person.id))).toHaveLength(0);
    } finally {
      await t.call('PATCH', `/auth/saml_configurations/${configuration.id}`, {
        token: owner.token,
        body: { jit_enabled: false },
      });
    }
  });

  it('sends a login for an organization without SSO back with configuration_error', async () => {
    const bare = await t.createOrganization(owner, 'No Sso');
    const response = await t.call(
      'GET',
      `/auth/organizations/${bare.id}/saml/login?redirect_uri=${encodeURIComponent(FAILURE_PAGE)}`,
    );
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(failure('configuration_error'));
  });

  it('limits the login starts of one client address (each keeps a request id), not the others', async () => {
    const from = (address: string) =>
      t.app.inject({
        method: 'GET',
        url: `/auth/organizations/${organizationId}/saml/login?redirect_uri=${encodeURIComponent(FAILURE_PAGE)}`,
        remoteAddress: address,
      });
    for (let i = 0; i < SSO_LOGIN_STARTS_PER_MINUTE; i += 1) {
      expect((await from('10.77.0.1')).statusCode).toBe(302);
    }
    const refused = await from('10.77.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(
      /^Too many single sign-on attempts from this address\. Please wait/,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('10.77.0.2')).statusCode).toBe(302);
  }, 120_000);

  it('redirects only to the console: another origin falls back to its failure page', async () => {
    const bare = await t.createOrganization(owner, 'No Sso Either');
    const response = await t.call(
      'GET',
      `/auth/organizations/${bare.id}/saml/login?redirect_uri=${encodeURIComponent('https://evil.example.com/sso/failure')}`,
    );
    expect(response.headers.location).toBe(failure('configuration_error'));
  });

  it('serves the SP metadata: entity ID, ACS URL and the SP certificate', async () => {
    const response = await t.call('GET', `/auth/organizations/${organizationId}/saml/metadata`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/samlmetadata+xml');
    expect(response.body).toContain(`entityID="${audience()}"`);
    expect(response.body).toContain(`Location="${acsUrl()}"`);
    expect(response.body).toContain('<ds:X509Certificate>');
    expect(response.body).not.toContain('PRIVATE KEY');
    expect(
      (await t.call('GET', '/auth/organizations/00000000-0000-0000-0000-000000000000/saml/metadata'))
        .statusCode,
    ).toBe(404);
  });
});
