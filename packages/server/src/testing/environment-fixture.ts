import type { Scope } from '@berth/core';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { addMember, grant } from './factories.ts';
import type { TestApp, TestUser } from './test-app.ts';

/**
 * One organization with one environment and a member per access level, plus a stranger from another
 * organization (with an environment of their own): the cast of every api-family access test.
 */
export async function environmentFixture(t: TestApp, handle = 'production') {
  const owner = await t.signUp({ name: 'Owner' });
  const organization = await t.createOrganization(owner);
  const created = await t.createEnvironment(owner, organization.id, handle);
  const environmentId = Number(created.id);

  async function member(name: string, scope?: Scope): Promise<TestUser> {
    const user = await t.signUp({ name });
    const role = await addMember(t.db, { organizationId: organization.id, userId: user.id, name });
    if (scope) await grant(t.db, { roleId: role.id, environmentId: created.id, scope });
    return user;
  }

  const stranger = await t.signUp({ name: 'Stranger' });
  const strangerOrganization = await t.createOrganization(stranger, 'Other Org');
  const strangerEnvironment = await t.createEnvironment(stranger, strangerOrganization.id, 'elsewhere');

  return {
    owner,
    organization,
    environment: { id: environmentId, handle },
    /** basic_read only: sees the environment's resources, not configuration values. */
    reader: await member('Basic Reader', 'basic_read'),
    /** read: full visibility, no writes. */
    viewer: await member('Viewer', 'read'),
    deployer: await member('Deployer', 'deploy'),
    /** In the organization, without any permission on the environment: cannot see it at all. */
    outsider: await member('Outsider'),
    stranger,
    strangerEnvironment: { id: Number(strangerEnvironment.id), organizationId: strangerOrganization.id },
  };
}
export type EnvironmentFixture = Awaited<ReturnType<typeof environmentFixture>>;

type Method = Parameters<TestApp['call']>[0];

/**
 * Checks one call as several callers: `null` is the anonymous caller. A 403 must carry the spec's
 * tooltip for the scope (spec 1 §6) when `scope` is given.
 */
export async function expectAccess(
  t: TestApp,
  request: { method: Method; url: string; body?: unknown; scope?: Scope; environmentId?: number },
  cases: [TestUser | null, number][],
): Promise<LightMyRequestResponse[]> {
  const responses: LightMyRequestResponse[] = [];
  for (const [user, status] of cases) {
    const response = await t.call(request.method, request.url, {
      ...(user ? { token: user.token } : {}),
      ...(request.body !== undefined ? { body: request.body } : {}),
    });
    expect(response.statusCode, `${request.method} ${request.url} as ${user?.email ?? 'anonymous'}`).toBe(
      status,
    );
    if (status === 403 && request.scope && request.environmentId !== undefined) {
      expect(response.json().message).toBe(
        `You do not have "${request.scope}" permissions for this environment (id:${request.environmentId})`,
      );
    }
    responses.push(response);
  }
  return responses;
}
