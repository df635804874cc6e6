import type { SecuritySummaryResource } from '@berth/core';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../admin-commands.ts';
import {
  backups,
  certificates,
  disks,
  organizations,
  privilegedActivities,
  roles,
  users,
  vhosts,
} from '../../db/schema.ts';
import { cannotSee, environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { addMember, seedApp, seedDatabase, seedService } from '../../testing/factories.ts';
import type { TestUser } from '../../testing/test-app.ts';

const { t, f } = await environmentSuite();
const url = `/api/accounts/${f.environment.id}/security_summary`;

async function summary(user: TestUser = f.owner): Promise<SecuritySummaryResource> {
  const response = await t.call('GET', url, { token: user.token });
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe('GET /accounts/:id/security_summary', () => {
  it('answers Full Visibility (owners, read); refuses the rest with the spec text, 404 unseen, 401 anonymous', async () => {
    await expectAccess(t, { method: 'GET', url, scope: 'read', environmentId: f.environment.id }, [
      [f.owner, 200],
      [f.viewer, 200],
      [f.reader, 403],
      [f.deployer, 403],
      ...cannotSee(f),
    ]);
    // Another organization's environment is as absent as no environment at all.
    const elsewhere = await t.call('GET', `/api/accounts/${f.strangerEnvironment.id}/security_summary`, {
      token: f.owner.token,
    });
    expect(elsewhere.statusCode).toBe(404);
    expect(
      (await t.call('GET', '/api/accounts/nope/security_summary', { token: f.owner.token })).statusCode,
    ).toBe(404);
  });

  it('counts 2FA among who may reach the environment, and names those without it', async () => {
    const before = await summary();
    // The owner and the three members with a permission here; the outsider has none.
    expect(before.two_factor).toMatchObject({ members: 4, enabled: 0 });
    expect(before.two_factor.without.map((person) => person.name)).toEqual([
      'Basic Reader',
      'Deployer',
      'Owner',
      'Viewer',
    ]);
    await t.db.update(users).set({ otpEnabled: true }).where(eq(users.id, f.viewer.id));
    const after = await summary(f.viewer);
    expect(after.two_factor).toMatchObject({ members: 4, enabled: 1 });
    expect(after.two_factor.without.map((person) => person.name)).toEqual([
      'Basic Reader',
      'Deployer',
      'Owner',
    ]);
    await t.db.update(users).set({ otpEnabled: false }).where(eq(users.id, f.viewer.id));
  });

  it('says whether SSO is configured and enforced', async () => {
    expect((await summary()).sso).toEqual({ configured: false, enforced: false });
    await t.db
      .update(organizations)
      .set({ ssoEnforced: true })
      .where(eq(organizations.id, f.organization.id));
    expect((await summary()).sso).toEqual({ configured: false, enforced: true });
    await t.db
      .update(organizations)
      .set({ ssoEnforced: false })
      .where(eq(organizations.id, f.organization.id));
  });

  it("reports the databases' backups, retention and encryption, and the endpoints' TLS and allowlists", async () => {
    const environmentId = f.environment.id;
    const protectedDb = await seedDatabase(t.db, {
      environmentId,
      handle: 'orders',
      type: 'postgresql',
      provisioned: true,
      status: 'provisioned',
    });
    const overdueDb = await seedDatabase(t.db, {
      environmentId,
      handle: 'sessions',
      type: 'redis',
      provisioned: true,
      status: 'provisioned',
    });
    await seedDatabase(t.db, { environmentId, handle: 'scratch', type: 'redis', enableBackups: false });
    await t.db.insert(disks).values([
      { databaseId: protectedDb.id, environmentId, handle: 'orders-disk', keyBytes: 32 },
      { databaseId: overdueDb.id, environmentId, handle: 'sessions-disk', keyBytes: 0 },
    ]);
    const backedUpAt = new Date(Date.now() - 3_600_000);
    await t.db.insert(backups).values({
      environmentId,
      databaseId: protectedDb.id,
      databaseHandle: 'orders',
      databaseType: 'postgresql',
      kind: 'auto',
      createdAt: backedUpAt,
    });
    const app = await seedApp(t.db, { environmentId, handle: 'shop' });
    const web = await seedService(t.db, { environmentId, appId: app.id, handle: 'web' });
    const [certificate] = await t.db
      .insert(certificates)
      .values({
        environmentId,
        commonName: 'shop.example.com',
        certificateBody: 'pem',
        leafCertificate: 'pem',
        privateKey: 'key',
        notBefore: new Date(Date.now() - 86_400_000),
        notAfter: new Date(Date.now() + 10 * 86_400_000),
        sha256Fingerprint: 'ab',
      })
      .returning();
    await t.db.insert(vhosts).values([
      { environmentId, serviceId: web.id, type: 'http', certificateId: certificate?.id },
      { environmentId, serviceId: web.id, type: 'http', ipWhitelist: ['203.0.113.0/24'] },
      { environmentId, serviceId: web.id, type: 'tcp', internal: true },
    ]);

    const { backups: backupFacts, encryption, endpoints } = await summary();
    expect(backupFacts).toMatchObject({
      databases: 3,
      enabled: 2,
      without_backups: ['scratch'],
      overdue: 1,
      last_backup_at: backedUpAt.toISOString(),
      retention: { daily: expect.any(Number), keep_final: expect.any(Boolean) },
    });
    expect(encryption).toEqual({ disks: 2, encrypted: 1 });
    expect(endpoints).toEqual({
      total: 3,
      tls: 2,
      without_tls: 1,
      internal: 1,
      ip_allowlisted: 1,
      open_to_all: 1,
      certificates_expiring: 1,
    });
  });
});

describe('recent privileged activity', () => {
  it('records role changes, permissions on this environment, impersonation and token revocations', async () => {
    await t.db.delete(privilegedActivities).where(eq(privilegedActivities.organizationId, f.organization.id));
    const owner = f.owner;
    const member = await t.signUp({ name: 'Grace Hopper' });
    await addMember(t.db, { organizationId: f.organization.id, userId: member.id, name: 'Interns' });

    const role = await t.call('POST', `/auth/organizations/${f.organization.id}/roles`, {
      token: owner.token,
      body: { name: 'Auditors' },
    });
    expect(role.statusCode).toBe(201);
    const roleId = role.json().id as string;
    const granted = await t.call('POST', `/api/accounts/${f.environment.id}/permissions`, {
      token: owner.token,
      body: { role: roleId, scope: 'read' },
    });
    expect(granted.statusCode).toBe(201);
    // A permission on another environment of the organization is that environment's, not this one's.
    const other = await t.createEnvironment(owner, f.organization.id, 'staging');
    await t.call('POST', `/api/accounts/${other.id}/permissions`, {
      token: owner.token,
      body: { role: roleId, scope: 'deploy' },
    });
    const added = await t.call('POST', `/auth/roles/${roleId}/memberships`, {
      token: owner.token,
      body: { user_url: `http://berth.test/auth/users/${member.id}` },
    });
    expect(added.statusCode).toBe(201);
    const membershipId = added.json().id as string;
    await t.call('PATCH', `/auth/memberships/${membershipId}`, {
      token: owner.token,
      body: { privileged: true },
    });
    expect(
      (await t.call('DELETE', `/auth/memberships/${membershipId}`, { token: owner.token })).statusCode,
    ).toBe(204);

    // Staff impersonate the member; the member then logs out everywhere else.
    const staff = await t.signUp({ name: 'Support Staff' });
    await runAdminCommand(t.db, ['make-superuser', staff.email]);
    const impersonation = await t.call('POST', '/auth/tokens', {
      body: {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        actor_token: staff.token,
        subject_token_type: 'berth:user:email',
        subject_token: member.email,
        scope: 'read',
      },
    });
    expect(impersonation.statusCode).toBe(201);
    const elevated = (await t.login(member.email, member.password, 'elevated')).json();
    const revokeAll = await t.call('POST', '/auth/tokens/revoke_all_accessible', {
      token: elevated.access_token,
      body: { except_tokens: [`http://berth.test/auth/tokens/${elevated.id}`] },
    });
    expect(revokeAll.statusCode).toBe(204);
    // Logging out of one's own session is no privileged change.
    const ownLogout = await t.call('DELETE', `/auth/tokens/${elevated.id}`, { token: elevated.access_token });
    expect(ownLogout.statusCode).toBe(204);

    const activity = (await summary()).privileged_activity;
    expect(
      activity.map(({ kind, actor_name, subject_name, detail }) => [kind, actor_name, subject_name, detail]),
    ).toEqual([
      [
        'sessions_revoked',
        'Grace Hopper',
        'Grace Hopper',
        expect.stringMatching(/^their other sessions \(\d+ tokens?\)$/),
      ],
      ['impersonation_started', 'Support Staff', 'Grace Hopper', 'read-only'],
      ['role_member_removed', 'Owner', 'Grace Hopper', 'Auditors'],
      ['role_admin_granted', 'Owner', 'Grace Hopper', 'Auditors'],
      ['role_member_added', 'Owner', 'Grace Hopper', 'Auditors'],
      ['permission_granted', 'Owner', '', 'Full Visibility to the role Auditors'],
      ['role_created', 'Owner', '', 'Auditors'],
    ]);
    expect(activity[1]?.subject_email).toBe(member.email);
  });

  it('keeps the change when the role or member is gone, and records a member removed', async () => {
    const member = await t.signUp({ name: 'Leaving Member' });
    await addMember(t.db, { organizationId: f.organization.id, userId: member.id, name: 'Temporary' });
    const removed = await t.call('DELETE', `/auth/organizations/${f.organization.id}/users/${member.id}`, {
      token: f.owner.token,
    });
    expect(removed.statusCode).toBe(204);
    const [latest] = (await summary()).privileged_activity;
    expect(latest).toMatchObject({
      kind: 'member_removed',
      actor_name: 'Owner',
      subject_name: 'Leaving Member',
      subject_email: member.email,
    });
  });

  it('records nothing when a change is refused', async () => {
    const before = (await summary()).privileged_activity.length;
    const refused = await t.call('POST', `/auth/organizations/${f.organization.id}/roles`, {
      token: f.viewer.token,
      body: { name: 'Sneaky' },
    });
    expect(refused.statusCode).toBe(403);
    expect((await summary()).privileged_activity.length).toBe(before);
  });
});

// Full Visibility on one environment is not a view of the organization: its own changes are for those who
// may read its members and roles, and a Deploy Owner sees no more of the owner roles here than elsewhere.
describe('what the summary shows of the organization', () => {
  async function impersonate(email: string) {
    const staff = await t.signUp({ name: 'Support Staff' });
    await runAdminCommand(t.db, ['make-superuser', staff.email]);
    const impersonation = await t.call('POST', '/auth/tokens', {
      body: {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        actor_token: staff.token,
        subject_token_type: 'berth:user:email',
        subject_token: email,
        scope: 'read',
      },
    });
    expect(impersonation.statusCode).toBe(201);
  }

  it("shows a member with Full Visibility on the environment only this environment's permission changes", async () => {
    await t.db.delete(privilegedActivities).where(eq(privilegedActivities.organizationId, f.organization.id));
    const role = await t.call('POST', `/auth/organizations/${f.organization.id}/roles`, {
      token: f.owner.token,
      body: { name: 'Scoped Auditors' },
    });
    const roleId = role.json().id as string;
    await t.call('POST', `/api/accounts/${f.environment.id}/permissions`, {
      token: f.owner.token,
      body: { role: roleId, scope: 'read' },
    });
    const elsewhere = await t.createEnvironment(f.owner, f.organization.id, 'scoped-elsewhere');
    await t.call('POST', `/api/accounts/${elsewhere.id}/permissions`, {
      token: f.owner.token,
      body: { role: roleId, scope: 'deploy' },
    });
    const member = await t.signUp({ name: 'Impersonated Member' });
    await addMember(t.db, { organizationId: f.organization.id, userId: member.id, name: 'Members' });
    await impersonate(member.email);

    const kinds = (summaryOf: SecuritySummaryResource) =>
      summaryOf.privileged_activity.map(({ kind, detail }) => [kind, detail]);
    expect(kinds(await summary(f.viewer))).toEqual([
      ['permission_granted', 'Full Visibility to the role Scoped Auditors'],
    ]);
    expect(kinds(await summary(f.owner))).toEqual([
      ['impersonation_started', 'read-only'],
      ['permission_granted', 'Full Visibility to the role Scoped Auditors'],
      ['role_created', 'Scoped Auditors'],
    ]);
  });

  it("shows a Deploy Owner neither the owner roles' changes nor the members who hold only those", async () => {
    await t.db.delete(privilegedActivities).where(eq(privilegedActivities.organizationId, f.organization.id));
    const deployOwner = await t.signUp({ name: 'Deploy Owner' });
    await addMember(t.db, {
      organizationId: f.organization.id,
      userId: deployOwner.id,
      roleType: 'platform_owner',
      name: 'Deploy Owners',
    });
    const [ownerRole] = await t.db
      .select()
      .from(roles)
      .where(and(eq(roles.organizationId, f.organization.id), eq(roles.type, 'owner')));
    const secondOwner = await t.signUp({ name: 'Second Owner' });
    // Only a member is added to a role: one by a role of their own first, which they then leave.
    const entry = await addMember(t.db, {
      organizationId: f.organization.id,
      userId: secondOwner.id,
      name: 'Way In',
    });
    const added = await t.call('POST', `/auth/roles/${ownerRole?.id}/memberships`, {
      token: f.owner.token,
      body: { user_url: `http://berth.test/auth/users/${secondOwner.id}` },
    });
    expect(added.statusCode).toBe(201);
    await t.db.delete(roles).where(eq(roles.id, entry.id));
    await impersonate(secondOwner.email);
    const made = await t.call('POST', `/auth/organizations/${f.organization.id}/roles`, {
      token: f.owner.token,
      body: { name: 'Seen By All' },
    });
    expect(made.statusCode).toBe(201);

    const byOwner = await summary(f.owner);
    expect(byOwner.privileged_activity.map((entry) => [entry.kind, entry.subject_name])).toEqual([
      ['role_created', ''],
      ['impersonation_started', 'Second Owner'],
      ['role_member_added', 'Second Owner'],
    ]);
    expect(byOwner.two_factor.without.map((person) => person.name)).toEqual(
      expect.arrayContaining(['Owner', 'Second Owner', 'Deploy Owner']),
    );

    const byDeployOwner = await summary(deployOwner);
    expect(byDeployOwner.privileged_activity.map((entry) => [entry.kind, entry.detail])).toEqual([
      ['role_created', 'Seen By All'],
    ]);
    const names = byDeployOwner.two_factor.without.map((person) => person.name);
    expect(names).toContain('Deploy Owner');
    expect(names).not.toContain('Owner');
    expect(names).not.toContain('Second Owner');
    expect(byDeployOwner.two_factor.members).toBe(byOwner.two_factor.members - 2);
  });
});
