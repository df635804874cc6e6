import type { Scope } from '@berth/core';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, expect } from 'vitest';
import { addMember, grant } from './factories.ts';
import { type TestApp, type TestUser, testApp } from './test-app.ts';

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

/**
 * The set-up of a test file that plays the environment fixture's cast: a fresh server with the fixture,
 * closed after the file's tests. At the top of the file: `const { t, f } = await environmentSuite();`
 * (the file's own records are then seeded in a `beforeAll`).
 */
export async function environmentSuite(): Promise<{ t: TestApp; f: EnvironmentFixture }> {
  const t = await testApp();
  afterAll(() => t.close());
  return { t, f: await environmentFixture(t) };
}

/** The fixture's organization, environment and one of its apps, as an operation on that app records them. */
export function onApp(f: EnvironmentFixture, appId: number) {
  return {
    organizationId: f.organization.id,
    environmentId: f.environment.id,
    resourceType: 'app',
    resourceId: appId,
  } as const;
}

type Method = Parameters<TestApp['call']>[0];
type AccessCase = [TestUser | null, number];

/** The callers who cannot see the environment at all: anonymous (401), the stranger and the outsider (404). */
export function cannotSee(f: EnvironmentFixture): AccessCase[] {
  return [
    [null, 401],
    [f.stranger, 404],
    [f.outsider, 404],
  ];
}

/** The callers refused a write (any scope above read): those who cannot see, then basic_read and read (403). */
export function cannotWrite(f: EnvironmentFixture): AccessCase[] {
  return [...cannotSee(f), [f.reader, 403], [f.viewer, 403]];
}

/**
 * Checks one call as several callers: `null` is the anonymous caller. A 403 must carry the spec's
 * tooltip for the scope (spec 1 §6) when `scope` is given.
 */
export async function expectAccess(
  t: TestApp,
  request: { method: Method; url: string; body?: unknown; scope?: Scope; environmentId?: number },
  cases: AccessCase[],
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
