import { invitationMessages, permissionMessages } from '@berth/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitations } from '../../db/schema.ts';
import { addMember } from '../../testing/factories.ts';
import { STRONG_PASSWORD, type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

async function teamWithRole(name = 'Readers') {
  const owner = await t.signUp({ name: 'Olive Owner' });
  const org = await t.createOrganization(owner, 'Acme Works');
  const role = (
    await t.call('POST', `/auth/organizations/${org.id}/roles`, { token: owner.token, body: { name } })
  ).json() as { id: string };
  return { owner, org, role };
}

async function invite(owner: TestUser, roleId: string, email: string) {
  return t.call('POST', `/auth/roles/${roleId}/invitations`, {
    token: owner.token,
    body: { email, origin: 'app' },
  });
}

/** The invitation id and code of the newest claim link mailed to the address. */
async function claimLink(email: string) {
  const { text } = await t.latestMailTo(email);
  const match = /\/claim\/([^/\s]+)\/([^/\s]+)/.exec(text);
  if (!match?.[1] || !match[2]) throw new Error('No claim link in the mail');
  return { invitationId: match[1], code: match[2] };
}

const acceptWithCode = (user: TestUser, link: { invitationId: string; code: string }) =>
  t.call('POST', '/auth/verifications', {
    token: user.token,
    body: { type: 'invitation', invitation_id: link.invitationId, verification_code: link.code },
  });

describe('inviting', () => {
  it('mails a claim link and lists the invitation as pending with its display fields', async () => {
    const { owner, org, role } = await teamWithRole();
    const email = t.uniqueEmail('invitee');
    const response = await invite(owner, role.id, email.toUpperCase());
    expect(response.statusCode).toBe(201);
    const invitation = response.json();
    expect(invitation).toMatchObject({
      _type: 'invitation',
      email,
      organization_name: 'Acme Works',
      inviter_name: 'Olive Owner',
      role_name: 'Readers',
      expired: false,
    });
    expect(Date.parse(invitation.verification_code_expires_at)).toBeGreaterThan(Date.now() + 6 * 86400_000);
    const mail = await t.latestMailTo(email);
    expect(mail.subject).toBe('Olive Owner invited you to Acme Works on Berth');
    expect((await claimLink(email)).invitationId).toBe(invitation.id);

    const pending = (
      await t.call('GET', `/auth/organizations/${org.id}/invitations`, { token: owner.token })
    ).json();
    expect(pending._embedded.invitations.map((i: { id: string }) => i.id)).toEqual([invitation.id]);
  });

  it('refuses a bad address with the spec message, a member without rights, strangers and no token', async () => {
    const { owner, org, role } = await teamWithRole();
    const bad = await invite(owner, role.id, 'not-an-email');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe('Must provide valid email');
    const empty = await invite(owner, role.id, '');
    expect(empty.json().message).toBe('Email must not be empty');

    const member = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: member.id });
    const denied = await invite(member, role.id, t.uniqueEmail());
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(permissionMessages.roleManagement);
    const stranger = await t.signUp();
    expect((await invite(stranger, role.id, t.uniqueEmail())).statusCode).toBe(404);
    expect(
      (await t.call('GET', `/auth/organizations/${org.id}/invitations`, { token: stranger.token }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.call('POST', `/auth/roles/${role.id}/invitations`, { body: { email: t.uniqueEmail() } }))
        .statusCode,
    ).toBe(401);
  });

  it('refuses to invite someone who already holds the role', async () => {
    const { owner, org } = await teamWithRole();
    const roles = (await t.call('GET', `/auth/organizations/${org.id}/roles`, { token: owner.token })).json()
      ._embedded.roles;
    const ownerRole = roles.find((r: { type: string }) => r.type === 'owner');
    const response = await invite(owner, ownerRole.id, owner.email);
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(`${owner.email} already holds the Account Owners role`);
  });
});

describe('GET /invitations/:id', () => {
  it('shows the display fields without a token, and the spec message when unknown', async () => {
    const { owner, role } = await teamWithRole();
    const invitation = (await invite(owner, role.id, t.uniqueEmail())).json();
    const shown = await t.call('GET', `/auth/invitations/${invitation.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ organization_name: 'Acme Works', role_name: 'Readers' });
    const missing = await t.call('GET', '/auth/invitations/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(invitationMessages.notFound);
    expect((await t.call('GET', '/auth/invitations/nope')).statusCode).toBe(404);
  });
});

describe('accepting', () => {
  it('makes the invitee a member of the role with the mailed code, once', async () => {
    const { owner, org, role } = await teamWithRole();
    const invitee = await t.signUp();
    await invite(owner, role.id, invitee.email);
    const link = await claimLink(invitee.email);
    expect((await acceptWithCode(invitee, link)).statusCode).toBe(204);

    const memberships = (
      await t.call('GET', `/auth/roles/${role.id}/memberships`, { token: owner.token })
    ).json()._embedded.memberships;
    expect(memberships.map((m: { _links: { user: { href: string } } }) => m._links.user.href)).toEqual([
      `http://berth.test/auth/users/${invitee.id}`,
    ]);
    const orgs = (await t.call('GET', '/auth/organizations', { token: invitee.token })).json()._embedded
      .organizations;
    expect(orgs.map((o: { id: string }) => o.id)).toEqual([org.id]);
    // Used up: the invitation is gone, so the link now answers the not-found message.
    const again = await acceptWithCode(invitee, link);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(invitationMessages.notFound);
    const pending = (
      await t.call('GET', `/auth/organizations/${org.id}/invitations`, { token: owner.token })
    ).json();
    expect(pending._embedded.invitations).toEqual([]);
  });

  it('refuses another account with the mismatch message and a wrong code', async () => {
    const { owner, role } = await teamWithRole();
    const email = t.uniqueEmail('invitee');
    await invite(owner, role.id, email);
    const link = await claimLink(email);
    const other = await t.signUp();
    const mismatch = await acceptWithCode(other, link);
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().message).toBe(invitationMessages.mismatch(email, other.email));
    const wrong = await acceptWithCode(other, { ...link, code: 'wrong-code' });
    expect(wrong.statusCode).toBe(404);
    expect((await acceptWithCode(other, link)).statusCode).toBe(422); // still pending for its invitee
  });

  it('refuses an expired invitation with the spec message, until it is resent', async () => {
    const { owner, role } = await teamWithRole();
    const invitee = await t.signUp();
    const invitation = (await invite(owner, role.id, invitee.email)).json();
    await t.db
      .update(invitations)
      .set({ codeExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, invitation.id));
    const link = await claimLink(invitee.email);
    expect((await t.call('GET', `/auth/invitations/${invitation.id}`)).json().expired).toBe(true);
    const expired = await acceptWithCode(invitee, link);
    expect(expired.statusCode).toBe(422);
    expect(expired.json().message).toBe(invitationMessages.expired('Acme Works', 'Olive Owner'));

    const resent = await t.call('POST', '/auth/resets', {
      token: owner.token,
      body: { type: 'invitation', origin: 'app', invitation_id: invitation.id },
    });
    expect(resent.statusCode).toBe(204);
    const fresh = await claimLink(invitee.email);
    expect(fresh.code).not.toBe(link.code);
    expect((await acceptWithCode(invitee, link)).statusCode).toBe(404); // the old code no longer works
    expect((await acceptWithCode(invitee, fresh)).statusCode).toBe(204);
  });

  it('accepts without a code for the verified invited account (POST /invitations/:id/accept)', async () => {
    const { owner, role } = await teamWithRole();
    const invitee = await t.signUp();
    const invitation = (await invite(owner, role.id, invitee.email)).json();
    const other = await t.signUp();
    expect(
      (await t.call('POST', `/auth/invitations/${invitation.id}/accept`, { token: other.token })).statusCode,
    ).toBe(422);
    expect(
      (await t.call('POST', `/auth/invitations/${invitation.id}/accept`, { token: invitee.token }))
        .statusCode,
    ).toBe(204);
  });

  it('lets a new person sign up with the code as challenge token, verified at once', async () => {
    const { owner, org, role } = await teamWithRole();
    const email = t.uniqueEmail('newcomer');
    await invite(owner, role.id, email);
    const link = await claimLink(email);
    const signup = await t.call('POST', '/auth/users', {
      body: {
        name: 'New Person',
        email,
        password: STRONG_PASSWORD,
        challengeToken: link.code,
        origin: 'app',
      },
    });
    expect(signup.statusCode).toBe(201);
    expect(signup.json().verified).toBe(true);
    const forged = await t.call('POST', '/auth/users', {
      body: {
        name: 'Other Person',
        email: t.uniqueEmail(),
        password: STRONG_PASSWORD,
        challengeToken: link.code,
      },
    });
    expect(forged.statusCode).toBe(422);
    expect(forged.json().message).toBe('This invitation code is invalid or has expired');

    const session = (await t.login(email, STRONG_PASSWORD)).json();
    const newcomer = { id: signup.json().id, token: session.access_token } as TestUser;
    expect((await acceptWithCode(newcomer, link)).statusCode).toBe(204);
    const orgs = (await t.call('GET', '/auth/organizations', { token: newcomer.token })).json()._embedded
      .organizations;
    expect(orgs.map((o: { id: string }) => o.id)).toEqual([org.id]);
  });
});

describe('revoking and resending', () => {
  it('revokes for managers only; strangers see 404', async () => {
    const { owner, org, role } = await teamWithRole();
    const invitation = (await invite(owner, role.id, t.uniqueEmail())).json();
    const member = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: member.id });
    expect(
      (await t.call('DELETE', `/auth/invitations/${invitation.id}`, { token: member.token })).statusCode,
    ).toBe(403);
    const stranger = await t.signUp();
    expect(
      (await t.call('DELETE', `/auth/invitations/${invitation.id}`, { token: stranger.token })).statusCode,
    ).toBe(404);
    expect(
      (
        await t.call('POST', '/auth/resets', {
          token: stranger.token,
          body: { type: 'invitation', invitation_id: invitation.id },
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.call('DELETE', `/auth/invitations/${invitation.id}`)).statusCode).toBe(401);
    expect(
      (await t.call('DELETE', `/auth/invitations/${invitation.id}`, { token: owner.token })).statusCode,
    ).toBe(204);
    expect((await t.call('GET', `/auth/invitations/${invitation.id}`)).statusCode).toBe(404);
  });

  it('refuses other reset types', async () => {
    const { owner } = await teamWithRole();
    const response = await t.call('POST', '/auth/resets', { token: owner.token, body: { type: 'password' } });
    expect(response.statusCode).toBe(422);
  });
});

describe('who may invite and see invitations', () => {
  // spec 1 §6: they do not even see those roles, so the answer is the 404 of an unknown role.
  it('keeps Deploy Owners from inviting into the owner and billing roles', async () => {
    const { owner, org } = await teamWithRole();
    const deployOwner = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: deployOwner.id, roleType: 'platform_owner' });
    const roles = (await t.call('GET', `/auth/organizations/${org.id}/roles`, { token: owner.token })).json()
      ._embedded.roles as { id: string; type: string }[];
    for (const type of ['owner', 'billing_owner']) {
      const role = roles.find((r) => r.type === type);
      const response = await invite(deployOwner, role?.id ?? '', t.uniqueEmail());
      expect(response.statusCode).toBe(404);
    }
  });

  it('shows pending invitations to owners and role admins (their roles only), not to other members', async () => {
    const { owner, org, role } = await teamWithRole();
    const other = (
      await t.call('POST', `/auth/organizations/${org.id}/roles`, {
        token: owner.token,
        body: { name: 'Other' },
      })
    ).json() as { id: string };
    await invite(owner, role.id, t.uniqueEmail());
    await invite(owner, other.id, t.uniqueEmail());

    const plain = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: plain.id });
    const denied = await t.call('GET', `/auth/organizations/${org.id}/invitations`, { token: plain.token });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(permissionMessages.roleManagement);

    const admin = await t.signUp();
    const base = await addMember(t.db, { organizationId: org.id, userId: admin.id, name: 'Base' });
    expect(base.id).toBeTruthy();
    const membership = (
      await t.call('POST', `/auth/roles/${role.id}/memberships`, {
        token: owner.token,
        body: { user_url: `http://berth.test/auth/users/${admin.id}` },
      })
    ).json();
    await t.call('PATCH', `/auth/memberships/${membership.id}`, {
      token: owner.token,
      body: { privileged: true },
    });
    const seen = (
      await t.call('GET', `/auth/organizations/${org.id}/invitations`, { token: admin.token })
    ).json();
    expect(seen._embedded.invitations.map((i: { role_name: string }) => i.role_name)).toEqual(['Readers']);
    const all = (
      await t.call('GET', `/auth/organizations/${org.id}/invitations`, { token: owner.token })
    ).json();
    expect(all._embedded.invitations).toHaveLength(2);
  });
});

describe('sign-up while invited (contract §3.7)', () => {
  it('answers use_invitation when the address signs up without the invitation', async () => {
    const { owner, role } = await teamWithRole();
    const email = t.uniqueEmail('invited');
    await invite(owner, role.id, email);
    const response = await t.call('POST', '/auth/users', {
      body: { name: 'Invited Person', email, password: STRONG_PASSWORD, challengeToken: '', origin: 'app' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toBe('use_invitation');
    const claim = await t.call('POST', '/auth/claims/user', {
      body: { name: 'Invited Person', email, password: STRONG_PASSWORD, challengeToken: '' },
    });
    expect(claim.json().error).toBe('use_invitation');
  });
});

describe('mail delivery failing', () => {
  it('keeps the invitation and its mail in the outbox when SMTP is down', async () => {
    const failing = await testApp({ smtpUrl: 'smtp://127.0.0.1:9' });
    try {
      const owner = await (async () => {
        // Sign-up's own verification mail also fails to deliver; the account still exists (logged, kept).
        const email = failing.uniqueEmail();
        await failing.call('POST', '/auth/users', {
          body: { name: 'Owner', email, password: STRONG_PASSWORD, challengeToken: '' },
        });
        // The kept mail still carries a working link; only a verified owner may invite.
        const { challengeId, code } = await failing.verificationLink(email);
        const verified = await failing.call('POST', '/auth/verifications', {
          body: { type: 'email_verification_challenge', challenge_id: challengeId, verification_code: code },
        });
        expect(verified.statusCode).toBe(204);
        const session = (await failing.login(email, STRONG_PASSWORD)).json();
        return { token: session.access_token as string };
      })();
      const org = (
        await failing.call('POST', '/auth/organizations', { token: owner.token, body: { name: 'Down Inc' } })
      ).json();
      const role = (
        await failing.call('POST', `/auth/organizations/${org.id}/roles`, {
          token: owner.token,
          body: { name: 'R' },
        })
      ).json();
      const email = failing.uniqueEmail('invitee');
      const response = await failing.call('POST', `/auth/roles/${role.id}/invitations`, {
        token: owner.token,
        body: { email },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().expired).toBe(false);
      const kept = (await failing.mailer.recent(50)).find((m) => m.to === email);
      expect(kept?.error).toBeTruthy();
      expect(kept?.text).toMatch(/\/claim\//);
    } finally {
      await failing.close();
    }
  });
});
