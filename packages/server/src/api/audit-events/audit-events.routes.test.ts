import { AUDIT_CSV_HEADER, auditEventCollection, auditFilterMessages } from '@berth/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, memberships, roles } from '../../db/schema.ts';
import { addMember, grant } from '../../testing/factories.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

interface Event {
  action: string;
  actor_email: string;
  resource_type: string;
  resource_name: string;
  parent_type: string | null;
  parent_name: string | null;
  ip_address: string | null;
  detail: string;
  environment_id: string | null;
}

async function ok(response: { statusCode: number; body: string }, status = 201) {
  expect(response.statusCode, response.body).toBe(status);
  return JSON.parse(response.body || 'null');
}

/** Every event the user may read, following next links from `url`. */
async function allEvents(user: TestUser, url: string): Promise<Event[]> {
  const events: Event[] = [];
  let next: string | undefined = url;
  while (next) {
    const response = await t.call('GET', next.replace('http://berth.test', ''), { token: user.token });
    const page = auditEventCollection.parse(await ok(response, 200));
    events.push(...(page._embedded.audit_events as Event[]));
    next = page._links.next?.href;
  }
  return events;
}

/**
 * An organization where the owner made an environment with an app, a role (renamed, with a permission),
 * invited someone who accepted, made them role admin, and created an API token.
 */
async function history() {
  const owner = await t.signUp({ name: 'Olive Owner' });
  const org = await t.createOrganization(owner, 'Audit Works');
  const prod = await t.createEnvironment(owner, org.id, 'prod');
  const staging = await t.createEnvironment(owner, org.id, 'staging');
  await ok(
    await t.call('POST', `/api/accounts/${prod.id}/apps`, { token: owner.token, body: { handle: 'web' } }),
  );
  await ok(
    await t.call('POST', `/api/accounts/${staging.id}/apps`, {
      token: owner.token,
      body: { handle: 'worker' },
    }),
  );
  const role = await ok(
    await t.call('POST', `/auth/organizations/${org.id}/roles`, {
      token: owner.token,
      body: { name: 'Devs' },
    }),
  );
  await ok(
    await t.call('PUT', `/auth/roles/${role.id}`, { token: owner.token, body: { name: 'Developers' } }),
    200,
  );
  await ok(
    await t.call('POST', `/api/accounts/${prod.id}/permissions`, {
      token: owner.token,
      body: { role: role.id, scope: 'read' },
    }),
  );
  const invitee = await t.signUp({ name: 'Ivy Invitee' });
  const invitation = await ok(
    await t.call('POST', `/auth/roles/${role.id}/invitations`, {
      token: owner.token,
      body: { email: invitee.email, origin: 'app' },
    }),
  );
  await ok(await t.call('POST', `/auth/invitations/${invitation.id}/accept`, { token: invitee.token }), 204);
  await ok(
    await t.call('POST', `/auth/users/${owner.id}/personal_access_tokens`, {
      token: await t.elevate(owner),
      body: { name: 'CI', scope: 'manage', expires_in_days: 30 },
    }),
  );
  return { owner, org, prod, staging, role, invitee };
}

describe('GET /organizations/:id/audit_events', () => {
  it("lists an owner every change, newest first, with actor, address and the target's parent", async () => {
    const h = await history();
    const events = await allEvents(h.owner, `/api/organizations/${h.org.id}/audit_events`);
    expect(events.map((event) => event.action)).toEqual([
      'api_token.create',
      'invitation.accept',
      'invitation.create',
      'permission.create',
      'role.update',
      'role.create',
      'app.create',
      'app.create',
      'environment.create',
      'environment.create',
    ]);
    const web = events.find((event) => event.resource_name === 'web');
    expect(web).toMatchObject({
      actor_email: h.owner.email,
      resource_type: 'app',
      parent_type: 'environment',
      parent_name: 'prod',
      environment_id: h.prod.id,
      ip_address: '127.0.0.1',
    });
    expect(events.find((event) => event.action === 'invitation.accept')).toMatchObject({
      actor_email: h.invitee.email,
      resource_name: h.invitee.email,
      parent_name: 'Developers',
    });
    expect(events.find((event) => event.action === 'role.update')?.detail).toBe('renamed from Devs');
    expect(events.find((event) => event.action === 'permission.create')).toMatchObject({
      parent_name: 'Developers',
      detail: expect.stringContaining('prod'),
      environment_id: null,
    });
  });

  it('records member changes and removals, and filters by action and actor', async () => {
    const h = await history();
    const [membership] = await t.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.userId, h.invitee.id), eq(memberships.roleId, h.role.id)));
    await ok(
      await t.call('PATCH', `/auth/memberships/${membership?.id}`, {
        token: h.owner.token,
        body: { privileged: true },
      }),
      200,
    );
    await ok(
      await t.call('DELETE', `/auth/organizations/${h.org.id}/users/${h.invitee.id}`, {
        token: h.owner.token,
      }),
      204,
    );
    const base = `/api/organizations/${h.org.id}/audit_events`;
    const removed = await allEvents(h.owner, `${base}?action=member.remove`);
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatchObject({ actor_email: h.owner.email, resource_name: h.invitee.email });
    expect((await allEvents(h.owner, `${base}?action=membership.update`))[0]?.detail).toBe('made role admin');
    const byInvitee = await allEvents(
      h.owner,
      `${base}?actor=${encodeURIComponent(h.invitee.email.toUpperCase())}`,
    );
    expect(byInvitee.map((event) => event.action)).toEqual(['invitation.accept']);
    expect(await allEvents(h.owner, `${base}?action=all&until=2000-01-01T00:00:00Z`)).toEqual([]);
    expect((await allEvents(h.owner, `${base}?since=2000-01-01T00:00:00Z`)).length).toBe(12);

    const badAction = await t.call('GET', `${base}?action=role.explode`, { token: h.owner.token });
    expect(badAction.statusCode).toBe(422);
    expect(badAction.json().message).toBe(auditFilterMessages.action);
    const badActor = await t.call('GET', `${base}?actor=${'a'.repeat(300)}`, { token: h.owner.token });
    expect(badActor.statusCode).toBe(422);
    const badCursor = await t.call('GET', `${base}?after=x`, { token: h.owner.token });
    expect(badCursor.statusCode).toBe(422);
  });

  it('pages with next links that keep the filters and reach every event once', async () => {
    const h = await history();
    const base = `/api/organizations/${h.org.id}/audit_events`;
    const whole = await allEvents(h.owner, base);
    const paged = await allEvents(h.owner, `${base}?per_page=3`);
    expect(paged).toEqual(whole);
    const first = await ok(
      await t.call('GET', `${base}?per_page=1&action=app.create`, { token: h.owner.token }),
      200,
    );
    expect(first.total_count).toBe(2);
    expect(first._links.next.href).toContain('action=app.create');
    const second = await allEvents(h.owner, first._links.next.href);
    expect(second.map((event) => event.resource_name)).toEqual(['web']);
  });

  it("shows a reader only his environments' events, and org-level ones to role admins", async () => {
    const h = await history();
    const reader = await t.signUp();
    const readers = await addMember(t.db, { organizationId: h.org.id, userId: reader.id, name: 'Readers' });
    await grant(t.db, { roleId: readers.id, environmentId: h.prod.id, scope: 'read' });
    const seen = await allEvents(reader, `/api/organizations/${h.org.id}/audit_events`);
    expect(seen.map((event) => [event.action, event.resource_name])).toEqual([
      ['app.create', 'web'],
      ['environment.create', 'prod'],
    ]);

    // A member who reads no environment and manages no role reads nothing.
    const bystander = await t.signUp();
    await addMember(t.db, { organizationId: h.org.id, userId: bystander.id, name: 'Nobody' });
    expect(await allEvents(bystander, `/api/organizations/${h.org.id}/audit_events`)).toEqual([]);

    // A role admin manages members: the organization's own events are theirs to read.
    await t.db.update(memberships).set({ privileged: true }).where(eq(memberships.roleId, readers.id));
    const admin = await allEvents(reader, `/api/organizations/${h.org.id}/audit_events`);
    expect(admin.map((event) => event.action)).toContain('role.create');
    expect(admin.map((event) => event.resource_name)).not.toContain('worker');
  });

  it('leaves out, for a Deploy Owner, the events of roles he may not see (the Account Owner role)', async () => {
    const h = await history();
    const [ownerRole] = await t.db
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.organizationId, h.org.id), eq(roles.type, 'owner')));
    const candidate = await t.signUp();
    await ok(
      await t.call('POST', `/auth/roles/${ownerRole?.id}/invitations`, {
        token: h.owner.token,
        body: { email: candidate.email, origin: 'app' },
      }),
    );
    const deployOwner = await t.signUp();
    await addMember(t.db, {
      organizationId: h.org.id,
      userId: deployOwner.id,
      roleType: 'platform_owner',
      name: 'Deploy Owners',
    });
    const base = `/api/organizations/${h.org.id}/audit_events`;
    const everyInvitation = await allEvents(h.owner, `${base}?action=invitation.create`);
    expect(everyInvitation.map((event) => event.resource_name).sort()).toEqual(
      [candidate.email, h.invitee.email].sort(),
    );
    const seen = await allEvents(deployOwner, `${base}?action=invitation.create`);
    expect(seen.map((event) => event.resource_name)).toEqual([h.invitee.email]);
    // The rest of the organization's history is his to read, as an owner's.
    expect((await allEvents(deployOwner, base)).map((event) => event.action)).toContain('role.create');
  });

  it('refuses without a token, and answers 404 to a stranger or an id that is no organization', async () => {
    const h = await history();
    const url = `/api/organizations/${h.org.id}/audit_events`;
    expect((await t.call('GET', url)).statusCode).toBe(401);
    const stranger = await t.signUp();
    await t.createOrganization(stranger, 'Elsewhere');
    expect((await t.call('GET', url, { token: stranger.token })).statusCode).toBe(404);
    expect(
      (await t.call('GET', '/api/organizations/nope/audit_events', { token: h.owner.token })).statusCode,
    ).toBe(404);
    expect((await t.call('GET', `${url}/export`)).statusCode).toBe(401);
    expect((await t.call('GET', `${url}/export`, { token: stranger.token })).statusCode).toBe(404);
  });

  it('writes no event for a change that fails', async () => {
    const h = await history();
    const again = await t.call('POST', `/api/accounts/${h.prod.id}/apps`, {
      token: h.owner.token,
      body: { handle: 'web' },
    });
    expect(again.statusCode).toBe(422);
    const rows = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, h.org.id), eq(auditEvents.action, 'app.create')));
    expect(rows).toHaveLength(2);
  });
});

describe('GET /organizations/:id/audit_events/export', () => {
  it('downloads the visible events as JSON lines or CSV, filtered as the list', async () => {
    const h = await history();
    const url = `/api/organizations/${h.org.id}/audit_events/export`;
    const jsonl = await t.call('GET', url, { token: h.owner.token });
    expect(jsonl.statusCode, jsonl.body).toBe(200);
    expect(jsonl.headers['content-type']).toContain('application/x-ndjson');
    expect(jsonl.headers['content-disposition']).toMatch(
      /^attachment; filename="audit-events-\d{4}-\d{2}-\d{2}\.jsonl"$/,
    );
    const lines = jsonl.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const listed = await allEvents(h.owner, `/api/organizations/${h.org.id}/audit_events`);
    expect(lines.map((line) => line.action)).toEqual(listed.map((event) => event.action));
    expect(lines[0]).toMatchObject({
      action: 'api_token.create',
      actor_email: h.owner.email,
      ip_address: '127.0.0.1',
    });

    const csv = await t.call('GET', `${url}?format=csv&action=app.create`, { token: h.owner.token });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const rows = csv.body.trim().split('\r\n');
    expect(rows[0]).toBe(AUDIT_CSV_HEADER.join(','));
    expect(rows.slice(1).map((row) => row.split(',')[6])).toEqual(['worker', 'web']);

    const reader = await t.signUp();
    const readers = await addMember(t.db, { organizationId: h.org.id, userId: reader.id, name: 'Readers' });
    await grant(t.db, { roleId: readers.id, environmentId: h.staging.id, scope: 'read' });
    const theirs = await t.call('GET', url, { token: reader.token });
    expect(
      theirs.body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).resource_name),
    ).toEqual(['worker', 'staging']);

    expect((await t.call('GET', `${url}?format=xml`, { token: h.owner.token })).statusCode).toBe(422);
  });
});
