import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environments, stacks } from '../db/schema.ts';
import { seedApp } from '../testing/factories.ts';
import { type TestApp, type TestUser, testApp } from '../testing/test-app.ts';
import { makeCertificate } from '../testing/test-certificates.ts';

// Email verification is enforced by the server (the auth guard), not only by the console: an account
// whose address is unverified may read, and write only what sign-up and verification need.

const VERIFY_FIRST = 'Verify your email address before making changes.';
const auth = 'http://berth.test/auth';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

type Response = Awaited<ReturnType<TestApp['call']>>;

function expectVerifyFirst(response: Response) {
  expect(response.statusCode, response.body).toBe(403);
  expect(response.json()).toEqual({
    code: 403,
    error: 'email_not_verified',
    message: VERIFY_FIRST,
    exception_context: {},
  });
}

/** An environment of the organization placed directly, so the refusals below have something to target. */
async function seedEnvironment(organizationId: string, handle: string) {
  const [stack] = await t.db.select().from(stacks).where(eq(stacks.isDefault, true));
  const [environment] = await t.db
    .insert(environments)
    .values({ organizationId, stackId: Number(stack?.id), handle })
    .returning();
  if (!environment) throw new Error('environment insert returned nothing');
  return environment;
}

async function ownerRoleOf(user: TestUser, organizationId: string): Promise<string> {
  const roles = (
    await t.call('GET', `/auth/organizations/${organizationId}/roles`, { token: user.token })
  ).json()._embedded.roles as { id: string; type: string }[];
  const owner = roles.find((role) => role.type === 'owner');
  if (!owner) throw new Error('no owner role');
  return owner.id;
}

async function verifyByMail(email: string) {
  const { challengeId, code } = await t.verificationLink(email);
  return t.call('POST', '/auth/verifications', {
    body: { type: 'email_verification_challenge', challenge_id: challengeId, verification_code: code },
  });
}

describe('an account whose email address is not verified', () => {
  it('may sign in, create its first organization, read, exchange its token, resend, verify and log out', async () => {
    const user = await t.signUp({ verified: false });

    // Sign-up's Create Organization step.
    const first = await t.call('POST', '/auth/organizations', {
      token: user.token,
      body: { name: 'First Co' },
    });
    expect(first.statusCode, first.body).toBe(201);
    // The console reads these to show the verify page.
    expect((await t.call('GET', `/auth/users/${user.id}`, { token: user.token })).json()).toMatchObject({
      verified: false,
      _links: { selected_organization: { href: `${auth}/organizations/${first.json().id}` } },
    });
    expect((await t.call('GET', '/auth/organizations', { token: user.token })).statusCode).toBe(200);

    const exchanged = await t.call('POST', '/auth/tokens', {
      body: {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        actor_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        actor_token: user.token,
        subject_token_type: 'berth:user:href',
        subject_token: `${auth}/users/${user.id}`,
        scope: 'manage',
        expires_in: 86090,
      },
    });
    expect(exchanged.statusCode, exchanged.body).toBe(201);
    const elevated = await t.elevate(user);

    // Resending is allowed; moving the account to another address is a change like any other.
    const resent = await t.call('POST', `/auth/users/${user.id}/email_verification_challenges`, {
      token: user.token,
      body: { origin: 'app' },
    });
    expect(resent.statusCode, resent.body).toBe(204);
    expectVerifyFirst(
      await t.call('POST', `/auth/users/${user.id}/email_verification_challenges`, {
        token: elevated,
        body: { email: t.uniqueEmail('elsewhere'), origin: 'app' },
      }),
    );

    const revokedOthers = await t.call('POST', '/auth/tokens/revoke_all_accessible', {
      token: elevated,
      body: { except_tokens: [`${auth}/tokens/${user.tokenId}`] },
    });
    expect(revokedOthers.statusCode, revokedOthers.body).toBe(204);
    const loggedOut = await t.call('DELETE', `/auth/tokens/${user.tokenId}`, { token: user.token });
    expect(loggedOut.statusCode, loggedOut.body).toBe(204);

    const again = await t.login(user.email, user.password);
    expect(again.statusCode, again.body).toBe(201);
    expect((await verifyByMail(user.email)).statusCode).toBe(204);
    const me = await t.call('GET', `/auth/users/${user.id}`, { token: again.json().access_token });
    expect(me.json().verified).toBe(true);
  });

  it('is refused every other write (403) until it verifies, then the same writes succeed', async () => {
    const user = await t.signUp({ verified: false });
    const organization = await t.createOrganization(user, 'Unverified Co');
    const environment = await seedEnvironment(organization.id, 'seeded');
    const app = await seedApp(t.db, { environmentId: environment.id, handle: 'seeded-app' });
    const ownerRoleId = await ownerRoleOf(user, organization.id);
    const invitee = t.uniqueEmail('invitee');
    const cert = makeCertificate({ subject: { commonName: 'shop.example.com' } });

    const writes: [string, () => Promise<Response>][] = [
      [
        'a second organization',
        () => t.call('POST', '/auth/organizations', { token: user.token, body: { name: 'Second Co' } }),
      ],
      [
        'an environment',
        () =>
          t.call('POST', '/api/accounts', {
            token: user.token,
            body: { handle: 'staging', organization_id: organization.id, type: 'development' },
          }),
      ],
      [
        'an app',
        () =>
          t.call('POST', `/api/accounts/${environment.id}/apps`, {
            token: user.token,
            body: { handle: 'web', account_id: String(environment.id) },
          }),
      ],
      [
        'a deploy',
        () =>
          t.call('POST', `/api/apps/${app.id}/operations`, {
            token: user.token,
            body: { type: 'deploy', git_ref: 'main' },
          }),
      ],
      [
        'a certificate',
        () =>
          t.call('POST', `/api/accounts/${environment.id}/certificates`, {
            token: user.token,
            body: { certificate_body: cert.certificatePem, private_key: cert.privateKeyPem },
          }),
      ],
      [
        'an invitation',
        () =>
          t.call('POST', `/auth/roles/${ownerRoleId}/invitations`, {
            token: user.token,
            body: { email: invitee, origin: 'app' },
          }),
      ],
      [
        'a role',
        () =>
          t.call('POST', `/auth/organizations/${organization.id}/roles`, {
            token: user.token,
            body: { name: 'Developers', type: 'platform_user' },
          }),
      ],
    ];

    for (const [, write] of writes) expectVerifyFirst(await write());
    // Nothing was made, and no mail went to the address the invitation named.
    expect(
      (await t.call('GET', '/auth/organizations', { token: user.token })).json()._embedded.organizations,
    ).toHaveLength(1);
    await expect(t.latestMailTo(invitee)).rejects.toThrow('No mail');

    expect((await verifyByMail(user.email)).statusCode).toBe(204);
    // The same token: the guard reads the account as it is now, not as the token was signed.
    for (const [what, write] of writes) {
      const response = await write();
      expect(response.statusCode, `${what}: ${response.body}`).toBe(201);
    }
    expect((await t.latestMailTo(invitee)).text).toMatch(/\/claim\//);
  });

  it('may accept an invitation with its mailed code, which verifies the address', async () => {
    const owner = await t.signUp({ name: 'Olive Owner' });
    const organization = await t.createOrganization(owner, 'Inviting Co');
    const roleId = await ownerRoleOf(owner, organization.id);
    const user = await t.signUp({ verified: false });
    const invited = await t.call('POST', `/auth/roles/${roleId}/invitations`, {
      token: owner.token,
      body: { email: user.email, origin: 'app' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const match = /\/claim\/([^/\s]+)\/([^/\s]+)/.exec((await t.latestMailTo(user.email)).text);
    const [, invitationId, code] = match ?? [];

    // Without the code nothing proves the address.
    expectVerifyFirst(
      await t.call('POST', `/auth/invitations/${invitationId}/accept`, { token: user.token }),
    );
    const accepted = await t.call('POST', '/auth/verifications', {
      token: user.token,
      body: { type: 'invitation', invitation_id: invitationId, verification_code: code },
    });
    expect(accepted.statusCode, accepted.body).toBe(204);
    expect((await t.call('GET', `/auth/users/${user.id}`, { token: user.token })).json().verified).toBe(true);
    const environment = await t.call('POST', '/api/accounts', {
      token: user.token,
      body: { handle: 'joined', organization_id: organization.id, type: 'development' },
    });
    expect(environment.statusCode, environment.body).toBe(201);
  });

  it('may not create a first organization twice by racing two requests', async () => {
    const user = await t.signUp({ verified: false });
    const responses = await Promise.all(
      ['One', 'Two', 'Three'].map((name) =>
        t.call('POST', '/auth/organizations', { token: user.token, body: { name } }),
      ),
    );
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(1);
    for (const response of responses.filter((r) => r.statusCode !== 201)) expectVerifyFirst(response);
  });
});
