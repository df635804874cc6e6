import { plainTextMessages } from '@berth/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, operationLogs, operations } from '../db/schema.ts';
import { addMember } from '../testing/factories.ts';
import { type TestApp, type TestUser, testApp } from '../testing/test-app.ts';

// Issue 15 "Input": refs, handles and names are one line of visible text. A control character (CR, LF,
// tab…), a bidi control (U+202E and the others) or a zero-width character is refused with 422; letters of
// every script are kept.

let t: TestApp;
let owner: TestUser;
let member: TestUser;
let stranger: TestUser;
let org: { id: string };
let environment: { id: string };
let appId: number;
beforeAll(async () => {
  t = await testApp();
  owner = await t.signUp({ name: 'Owner' });
  org = await t.createOrganization(owner, 'Acme');
  environment = await t.createEnvironment(owner, org.id, 'prod');
  const [app] = await t.db
    .insert(apps)
    .values({ environmentId: Number(environment.id), handle: 'web' })
    .returning();
  if (!app) throw new Error('no app');
  appId = app.id;
  member = await t.signUp({ name: 'Member' });
  await addMember(t.db, { organizationId: org.id, userId: member.id, name: 'Readers' });
  stranger = await t.signUp({ name: 'Stranger' });
  await t.createOrganization(stranger, 'Elsewhere');
});
afterAll(() => t.close());

const control = plainTextMessages.control;
const invisible = plainTextMessages.invisible;

function expect422(
  response: { statusCode: number; body: string; json: () => { message: string } },
  message: string,
) {
  expect(response.statusCode, response.body).toBe(422);
  expect(response.json().message).toBe(message);
}

describe('operation refs (git_ref, docker_image)', () => {
  const deploy = (user: TestUser | null, body: Record<string, unknown>) =>
    t.call('POST', `/api/apps/${appId}/operations`, {
      ...(user ? { token: user.token } : {}),
      body: { type: 'deploy', ...body },
    });

  it('refuses a git_ref with a newline, and writes no operation nor log line', async () => {
    const before = await t.db.select({ id: operations.id }).from(operations);
    const forged = 'main\n2026-01-01 12:00:00 +0000 INFO -- : Deploy succeeded';
    expect422(await deploy(owner, { git_ref: forged }), control('git_ref'));
    expect422(await deploy(owner, { git_ref: 'main\r' }), control('git_ref'));
    expect422(await deploy(owner, { git_ref: 'main\u0007' }), control('git_ref'));
    expect422(
      await t.call('POST', `/api/apps/${appId}/operations`, {
        token: owner.token,
        body: { type: 'scan_code', git_ref: 'main\nx' },
      }),
      control('git_ref'),
    );
    expect(await t.db.select({ id: operations.id }).from(operations)).toHaveLength(before.length);
    const lines = await t.db.select({ line: operationLogs.line }).from(operationLogs);
    expect(lines.some(({ line }) => line.includes('Deploy succeeded'))).toBe(false);
  });

  it('refuses a docker_image with a control or bidi character', async () => {
    expect422(await deploy(owner, { docker_image: 'nginx:latest\n' }), control('docker_image'));
    expect422(await deploy(owner, { docker_image: 'nginx\u202e:latest' }), invisible('docker_image'));
  });

  it('still takes an ordinary ref', async () => {
    const response = await deploy(owner, { git_ref: 'feature/ünïcode-1' });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('keeps its denials: no token, another organization, no permission', async () => {
    expect((await deploy(null, { git_ref: 'main' })).statusCode).toBe(401);
    expect((await deploy(stranger, { git_ref: 'main' })).statusCode).toBe(404);
    expect((await deploy(member, { git_ref: 'main' })).statusCode).toBe(404);
  });
});

describe('handles', () => {
  it('refuses an environment handle with a newline or a zero-width space', async () => {
    const create = (handle: string) =>
      t.call('POST', '/api/accounts', {
        token: owner.token,
        body: { handle, organization_id: org.id, type: 'development' },
      });
    expect422(await create('staging\n'), control('Handle'));
    expect422(await create('stag\u200bing'), invisible('Handle'));
    const rename = await t.call('PATCH', `/api/accounts/${environment.id}`, {
      token: owner.token,
      body: { handle: 'prod\u202e' },
    });
    expect422(rename, invisible('Handle'));
  });

  it('refuses an app handle and a process type with control characters', async () => {
    const create = await t.call('POST', `/api/accounts/${environment.id}/apps`, {
      token: owner.token,
      body: { handle: 'api\r\nx' },
    });
    expect422(create, control('Handle'));
    const rename = await t.call('PUT', `/api/apps/${appId}`, {
      token: owner.token,
      body: { handle: '\u2066web' },
    });
    expect422(rename, invisible('Handle'));
    const definition = await t.call('POST', `/api/apps/${appId}/service_definitions`, {
      token: owner.token,
      body: { process_type: 'web\nforged', command: 'run' },
    });
    expect422(definition, control('Process type'));
  });

  it('keeps its denials: no token, another organization', async () => {
    const body = { handle: 'staging', organization_id: org.id, type: 'development' };
    expect((await t.call('POST', '/api/accounts', { body })).statusCode).toBe(401);
    expect(
      (
        await t.call('POST', `/api/accounts/${environment.id}/apps`, {
          token: stranger.token,
          body: { handle: 'x' },
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('names (organization, role)', () => {
  it.each([
    ['Acme\u202eInc', invisible('Name')],
    ['Acme\u200b', invisible('Name')],
    ['\u2067Acme', invisible('Name')],
    ['Acme\r\nInc', control('Name')],
    ['Acme\n', control('Name')],
  ])('refuses the organization name %j', async (name, message) => {
    expect422(await t.call('POST', '/auth/organizations', { token: owner.token, body: { name } }), message);
    expect422(
      await t.call('PATCH', `/auth/organizations/${org.id}`, { token: owner.token, body: { name } }),
      message,
    );
  });

  it('takes names in every script', async () => {
    const created = await t.call('POST', '/auth/organizations', {
      token: stranger.token,
      body: { name: 'שלום 東京 Société مرحبا' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().name).toBe('שלום 東京 Société مرحبا');
  });

  it('refuses a role name with a bidi control or a line break, on create and rename', async () => {
    expect422(
      await t.call('POST', `/auth/organizations/${org.id}/roles`, {
        token: owner.token,
        body: { name: 'Ops\u202e' },
      }),
      invisible('Name'),
    );
    const created = await t.call('POST', `/auth/organizations/${org.id}/roles`, {
      token: owner.token,
      body: { name: 'Développeurs' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect422(
      await t.call('PUT', `/auth/roles/${created.json().id}`, {
        token: owner.token,
        body: { name: 'Dev\nOps' },
      }),
      control('Name'),
    );
  });

  it('keeps its denials: no token, another organization, no permission', async () => {
    expect((await t.call('POST', '/auth/organizations', { body: { name: 'X' } })).statusCode).toBe(401);
    const patch = (user: TestUser) =>
      t.call('PATCH', `/auth/organizations/${org.id}`, { token: user.token, body: { name: 'Renamed' } });
    expect((await patch(stranger)).statusCode).toBe(404);
    expect((await patch(member)).statusCode).toBe(403);
  });
});
