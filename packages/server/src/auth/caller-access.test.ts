import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, grant } from '../testing/factories.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';
import { loadCallerAccess } from './caller-access.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

describe('loadCallerAccess', () => {
  it('reads every role the user holds with its permissions, a role without any included', async () => {
    const owner = await t.signUp();
    const org = await t.createOrganization(owner);
    const prod = await t.createEnvironment(owner, org.id, 'prod');
    const staging = await t.createEnvironment(owner, org.id, 'staging');
    const member = await t.signUp({ name: 'Mia' });
    const user = { id: member.id, name: 'Mia', email: member.email };
    const developers = await addMember(t.db, { organizationId: org.id, userId: member.id });
    await grant(t.db, { roleId: developers.id, environmentId: prod.id, scope: 'deploy' });
    await grant(t.db, { roleId: developers.id, environmentId: staging.id, scope: 'admin' });
    const readers = await addMember(t.db, { organizationId: org.id, userId: member.id, name: 'Readers' });
    // In a second organization, a role with no permission at all.
    const other = await t.createOrganization(owner, 'Other');
    const bare = await addMember(t.db, { organizationId: other.id, userId: member.id, name: 'Bare' });

    const access = await loadCallerAccess(t.db, user);
    expect(access.user).toEqual(user);
    expect(access.memberships.map((m) => m.roleId).sort()).toEqual(
      [developers.id, readers.id, bare.id].sort(),
    );
    expect(access.memberships.find((m) => m.roleId === bare.id)).toMatchObject({
      organizationId: other.id,
      roleType: 'platform_user',
      privileged: false,
    });
    const inOrg = access.actors.get(org.id);
    expect(inOrg?.roleTypes).toEqual(['platform_user', 'platform_user']);
    expect(inOrg?.permissions).toEqual(
      expect.arrayContaining([
        { environmentId: prod.id, scope: 'deploy' },
        { environmentId: staging.id, scope: 'admin' },
      ]),
    );
    expect(inOrg?.permissions).toHaveLength(2);
    expect(access.actors.get(other.id)).toEqual({ roleTypes: ['platform_user'], permissions: [] });
  });

  it('reads a user without any membership as belonging nowhere', async () => {
    const loner = await t.signUp();
    const access = await loadCallerAccess(t.db, { id: loner.id, name: 'Test User', email: loner.email });
    expect(access.memberships).toEqual([]);
    expect(access.actors.size).toBe(0);
  });
});
