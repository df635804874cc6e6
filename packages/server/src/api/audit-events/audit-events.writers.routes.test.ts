import { auditEventCollection } from '@berth/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../../testing/factories.ts';
import { GROUP_SCHEMA, PATCH_OP, scimClient, setUpProvisioning, USER_SCHEMA } from '../../testing/scim.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';
import { createTestIdp } from '../../testing/test-idp.ts';

// Issue 41, the rest of the writers: provisioning (by its SCIM token), sessions ended by "log out other
// sessions" and by a password reset, an organization's settings and single sign-on enforcement. SAML
// just-in-time joins are checked in saml-login.test.ts, beside the login that makes them.

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

interface Event {
  action: string;
  actor_id: string | null;
  actor_email: string;
  resource_type: string;
  resource_id: string;
  resource_name: string;
  parent_type: string | null;
  parent_name: string | null;
  ip_address: string | null;
  detail: string;
  environment_id: string | null;
}

/** Every event the user may read in the organization, newest first, following next links. */
async function eventsOf(user: TestUser | string, organizationId: string): Promise<Event[]> {
  const token = typeof user === 'string' ? user : user.token;
  const events: Event[] = [];
  let next: string | undefined = `/api/organizations/${organizationId}/audit_events?per_page=100`;
  while (next) {
    const response = await t.call('GET', next.replace('http://berth.test', ''), { token });
    expect(response.statusCode, response.body).toBe(200);
    const page = auditEventCollection.parse(response.json());
    events.push(...(page._embedded.audit_events as Event[]));
    next = page._links.next?.href;
  }
  return events;
}

describe('audit events of provisioning (SCIM)', () => {
  it('records users provisioned, deactivated, reactivated and deprovisioned, groups and their members, by the SCIM token', async () => {
    const provisioning = await setUpProvisioning(t, 'Scim Audit');
    const scim = scimClient(t, provisioning.token);
    const [configuration] = (
      await t.call('GET', '/auth/scim_configurations', { token: provisioning.owner.token })
    ).json()._embedded.scim_configurations;
    const tokenActor = `SCIM token ${configuration.token_id}`;
    const userName = t.uniqueEmail('provisioned');
    const created = await scim('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName,
      name: { givenName: 'Pia', familyName: 'Provisioned' },
      active: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const userId = created.json().id as string;
    const group = await scim('POST', '/Groups', {
      schemas: [GROUP_SCHEMA],
      displayName: 'Platform',
      members: [{ value: userId }],
    });
    expect(group.statusCode, group.body).toBe(201);
    const groupId = group.json().id as string;
    const renamed = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'replace', value: { displayName: 'Platform Team' } },
        { op: 'remove', path: `members[value eq "${userId}"]` },
      ],
    });
    expect(renamed.statusCode, renamed.body).toBe(204);
    const deactivated = await scim('PATCH', `/Users/${userId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    const reactivated = await scim('PATCH', `/Users/${userId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect(reactivated.statusCode, reactivated.body).toBe(200);
    expect((await scim('DELETE', `/Groups/${groupId}`)).statusCode).toBe(204);
    expect((await scim('DELETE', `/Users/${userId}`)).statusCode).toBe(204);

    const events = (await eventsOf(provisioning.owner, provisioning.organizationId)).filter(
      (event) => event.actor_email === tokenActor,
    );
    // Newest first; the membership events name the member and their role.
    expect(
      events.map((event) => `${event.action} ${event.resource_name} ${event.parent_name ?? ''}`.trim()),
    ).toEqual([
      `scim_user.delete ${userName}`,
      'scim_group.delete Platform Team',
      `membership.create ${userName} Developers`,
      `scim_user.activate ${userName}`,
      `scim_user.deactivate ${userName}`,
      `membership.delete ${userName} Platform Team`,
      'scim_group.update Platform Team',
      `membership.create ${userName} Platform`,
      'scim_group.create Platform',
      `membership.create ${userName} Developers`,
      `scim_user.create ${userName}`,
    ]);
    for (const event of events) {
      expect(event).toMatchObject({ actor_id: null, ip_address: '127.0.0.1', environment_id: null });
    }
    expect(events.find((event) => event.action === 'scim_group.update')).toMatchObject({
      resource_type: 'role',
      resource_id: groupId,
      detail: 'renamed from Platform',
    });
    expect(events.find((event) => event.action === 'scim_user.create')).toMatchObject({
      resource_type: 'member',
      resource_id: userId,
      detail: 'new account',
    });
    expect(events.at(0)?.detail).toBe('account deleted');
    // The actor filter takes e-mail addresses: a token is found by the action instead.
    const filtered = await t.call(
      'GET',
      `/api/organizations/${provisioning.organizationId}/audit_events?action=scim_user.deactivate`,
      { token: provisioning.owner.token },
    );
    expect(filtered.json()._embedded.audit_events.map((event: Event) => event.resource_name)).toEqual([
      userName,
    ]);
  });

  it('records nothing for a request the SCIM token does not allow, and shows members none of it', async () => {
    const provisioning = await setUpProvisioning(t, 'Scim Denied');
    const member = await t.signUp();
    await addMember(t.db, { organizationId: provisioning.organizationId, userId: member.id });
    const refused = await scimClient(t, 'berth_scim_not-a-token')('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: t.uniqueEmail('nobody'),
    });
    expect(refused.statusCode).toBe(401);
    const scim = scimClient(t, provisioning.token);
    expect(
      (await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Ops', members: [] }))
        .statusCode,
    ).toBe(201);
    const ownerSees = await eventsOf(provisioning.owner, provisioning.organizationId);
    expect(
      ownerSees.filter((event) => event.action.startsWith('scim_')).map((event) => event.action),
    ).toEqual(['scim_group.create', 'scim_token.create', 'scim_configuration.create']);
    // Org-level events are for owners and role admins: a plain member reads none.
    expect(await eventsOf(member, provisioning.organizationId)).toEqual([]);
  });
});

describe('audit events of sessions ended', () => {
  it('records "log out other sessions" in each organization of the user, and nothing when nothing ended', async () => {
    const owner = await t.signUp();
    const orgA = await t.createOrganization(owner, 'Sessions A');
    const orgB = await t.createOrganization(owner, 'Sessions B');
    const user = await t.signUp();
    await addMember(t.db, { organizationId: orgA.id, userId: user.id });
    await addMember(t.db, { organizationId: orgB.id, userId: user.id });
    expect((await t.login(user.email, user.password)).statusCode).toBe(201);
    expect((await t.login(user.email, user.password)).statusCode).toBe(201);
    // "Log out other sessions" asks for an elevated token (contract §3.5); both it and the session stay.
    const elevated = (await t.login(user.email, user.password, 'elevated')).json();
    const keep = [
      `http://berth.test/auth/tokens/${user.tokenId}`,
      `http://berth.test/auth/tokens/${elevated.id}`,
    ];
    const refused = await t.call('POST', '/auth/tokens/revoke_all_accessible', {
      body: { except_tokens: keep },
    });
    expect(refused.statusCode).toBe(401);
    const revoke = () =>
      t.call('POST', '/auth/tokens/revoke_all_accessible', {
        token: elevated.access_token,
        body: { except_tokens: keep },
      });
    const first = await revoke();
    expect(first.statusCode, first.body).toBe(204);
    // A second call ends nothing more and records nothing.
    expect((await revoke()).statusCode).toBe(204);
    for (const org of [orgA, orgB]) {
      const events = (await eventsOf(owner, org.id)).filter((event) => event.action === 'session.revoke_all');
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        actor_id: user.id,
        actor_email: user.email,
        resource_type: 'user',
        resource_id: user.id,
        ip_address: '127.0.0.1',
        detail: 'log out other sessions (2 tokens)',
      });
    }
  });

  it('records the sessions a password reset ended, with the user as actor', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner, 'Reset Org');
    const user = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: user.id });
    expect(
      (await t.call('POST', '/auth/password/resets/new', { body: { email: user.email, origin: 'app' } }))
        .statusCode,
    ).toBe(204);
    let link: RegExpExecArray | null = null;
    for (let i = 0; i < 100 && !link; i++) {
      const mail = (await t.mailer.recent(500)).find(
        (m) => m.to === user.email && m.subject === 'Reset your Berth password',
      );
      link = mail ? /\/password\/update\/([^/\s]+)\/([^/\s]+)/.exec(mail.text) : null;
      if (!link) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const reset = await t.call('POST', '/auth/verifications', {
      body: {
        type: 'password_reset_challenge',
        challenge_id: link?.[1],
        verification_code: link?.[2],
        password: 'Brand-New-Pass7',
      },
    });
    expect(reset.statusCode, reset.body).toBeLessThan(300);
    const [event] = (await eventsOf(owner, org.id)).filter((e) => e.action === 'session.revoke_all');
    expect(event).toMatchObject({
      actor_id: user.id,
      actor_email: user.email,
      resource_id: user.id,
      ip_address: '127.0.0.1',
      detail: 'password reset (1 token)',
    });
  });
});

describe('audit events of organization settings', () => {
  it('records a rename, contacts changed and SSO enforcement on and off; a refusal records nothing', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner, 'Old Name');
    const member = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: member.id });
    const patch = (token: string | undefined, body: unknown) =>
      t.call('PATCH', `/auth/organizations/${org.id}`, { token, body });
    expect((await patch(undefined, { name: 'Nope' })).statusCode).toBe(401);
    expect((await patch(member.token, { name: 'Nope' })).statusCode).toBe(403);
    // Enforcement needs a SAML configuration: refused, and nothing recorded.
    expect((await patch(owner.token, { sso_enforced: true })).statusCode).toBe(422);
    expect((await patch(owner.token, { name: 'New Name', city: 'Lyon' })).statusCode).toBe(200);
    // The same values again change nothing and record nothing.
    expect((await patch(owner.token, { name: 'New Name', city: 'Lyon' })).statusCode).toBe(200);
    const configured = await t.call('POST', `/auth/organizations/${org.id}/saml_configurations`, {
      token: owner.token,
      body: { metadata: createTestIdp().metadataBase64(), metadata_url: '' },
    });
    expect(configured.statusCode, configured.body).toBe(201);
    expect((await patch(owner.token, { sso_enforced: true })).statusCode).toBe(200);
    expect((await patch(owner.token, { sso_enforced: false })).statusCode).toBe(200);

    const events = (await eventsOf(owner, org.id)).filter(
      (event) => event.action.startsWith('organization.') || event.action.startsWith('sso_enforcement.'),
    );
    expect(events.map((event) => event.action)).toEqual([
      'sso_enforcement.disable',
      'sso_enforcement.enable',
      'organization.update',
    ]);
    expect(events.at(-1)).toMatchObject({
      actor_id: owner.id,
      actor_email: owner.email,
      resource_type: 'organization',
      resource_id: org.id,
      resource_name: 'New Name',
      detail: 'renamed from Old Name; city',
      ip_address: '127.0.0.1',
    });
    expect(await eventsOf(member, org.id)).toEqual([]);
  });
});
