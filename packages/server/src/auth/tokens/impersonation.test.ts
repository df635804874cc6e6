import { Writable } from 'node:stream';
import { decodeTokenClaims, impersonationMessages } from '@berth/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../admin-commands.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';

const logLines: Record<string, unknown>[] = [];
const stream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n')) if (line.trim()) logLines.push(JSON.parse(line));
    done();
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await testApp({}, { logger: { level: 'info', stream } });
});
afterAll(() => t.close());

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';

function impersonate(actor: TestUser, subject: string, scope: 'read' | 'manage', type = 'berth:user:email') {
  return t.call('POST', '/auth/tokens', {
    cookie: actor.sessionCookie,
    body: {
      grant_type: EXCHANGE,
      actor_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      actor_token: actor.token,
      subject_token_type: type,
      subject_token: subject,
      scope,
      sso_organization: '',
      expires_in: 86090,
      _source: 'app-ui',
    },
  });
}

async function staff(flag: 'superuser' | 'read-only'): Promise<TestUser> {
  const user = await t.signUp();
  await runAdminCommand(t.db, [
    'make-superuser',
    user.email,
    ...(flag === 'read-only' ? ['--read-only'] : []),
  ]);
  return user;
}

describe('impersonation', () => {
  it('lets a superuser act as another user, read-only: marked with the actor, writes refused, logged', async () => {
    const admin = await staff('superuser');
    const target = await t.signUp({ name: 'Target Person' });
    const response = await impersonate(admin, target.email.toUpperCase(), 'read');
    expect(response.statusCode).toBe(201);
    const token = response.json();
    expect(token._links.user.href).toBe(`http://berth.test/auth/users/${target.id}`);
    expect(token._links.actor.href).toBe(`http://berth.test/auth/users/${admin.id}`);
    const claims = decodeTokenClaims(token.access_token);
    expect(claims).toMatchObject({ scope: 'read', email: target.email, act: { email: admin.email } });
    // The browser session is now the impersonation.
    const cookie = response.cookies.find((c) => c.name === 'berth_session');
    const current = await t.call('GET', '/auth/current_token', { cookie: `berth_session=${cookie?.value}` });
    expect(current.json()._links.actor.href).toBe(`http://berth.test/auth/users/${admin.id}`);

    const read = await t.call('GET', `/auth/users/${target.id}`, { token: token.access_token });
    expect(read.statusCode).toBe(200);
    const write = await t.call('POST', '/auth/organizations', {
      token: token.access_token,
      body: { name: 'Nope' },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({
      error: 'access_denied',
      message: impersonationMessages.readOnlySession,
    });
    // A read-only impersonation cannot log the user out of their own sessions.
    const kick = await t.call('DELETE', `/auth/tokens/${target.tokenId}`, { token: token.access_token });
    expect(kick.statusCode).toBe(403);
    expect((await t.call('GET', `/auth/users/${target.id}`, { token: target.token })).statusCode).toBe(200);

    const logged = logLines.filter((line) => line.msg === 'impersonated request');
    expect(logged).toContainEqual(
      expect.objectContaining({
        impersonation: expect.objectContaining({ actorId: admin.id, userId: target.id, tokenId: token.id }),
      }),
    );
  });

  it('gives a superuser write access when asked, by user URL too', async () => {
    const admin = await staff('superuser');
    const target = await t.signUp();
    const response = await impersonate(
      admin,
      `http://berth.test/auth/users/${target.id}`,
      'manage',
      'aptible:user:href',
    );
    expect(response.statusCode).toBe(201);
    const write = await t.call('POST', '/auth/organizations', {
      token: response.json().access_token,
      body: { name: 'Made by staff' },
    });
    expect(write.statusCode).toBe(201);
  });

  it('lets a read-only impersonator in with scope read only', async () => {
    const viewer = await staff('read-only');
    const target = await t.signUp();
    const manage = await impersonate(viewer, target.email, 'manage');
    expect(manage.statusCode).toBe(403);
    expect(manage.json().message).toBe(impersonationMessages.readOnlyOnly);
    expect((await impersonate(viewer, target.email, 'read')).statusCode).toBe(201);
  });

  it('refuses non-staff, unknown users, chained impersonation and no token', async () => {
    const user = await t.signUp();
    const target = await t.signUp();
    const denied = await impersonate(user, target.email, 'read');
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ error: 'access_denied', message: impersonationMessages.notStaff });

    const admin = await staff('superuser');
    expect((await impersonate(admin, 'nobody@example.com', 'read')).statusCode).toBe(404);
    const first = (await impersonate(admin, user.email, 'read')).json();
    const chained = await impersonate({ ...admin, token: first.access_token }, target.email, 'read');
    expect(chained.statusCode).toBe(403);
    expect(chained.json().message).toBe(impersonationMessages.noChaining);

    const anonymous = await t.call('POST', '/auth/tokens', {
      body: {
        grant_type: EXCHANGE,
        actor_token: 'x',
        subject_token_type: 'berth:user:email',
        subject_token: target.email,
        scope: 'read',
      },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('ends with DELETE /tokens/:id, giving the impersonator their own session back', async () => {
    const admin = await staff('superuser');
    const target = await t.signUp();
    const response = await impersonate(admin, target.email, 'read');
    const token = response.json();
    const cookie = `berth_session=${response.cookies.find((c) => c.name === 'berth_session')?.value}`;
    const ended = await t.call('DELETE', `/auth/tokens/${token.id}`, { token: token.access_token, cookie });
    expect(ended.statusCode).toBe(204);
    const restored = ended.cookies.find((c) => c.name === 'berth_session' && c.value);
    expect(restored).toBeTruthy();
    const back = await t.call('GET', '/auth/current_token', { cookie: `berth_session=${restored?.value}` });
    expect(back.statusCode).toBe(200);
    expect(back.json()._links.user.href).toBe(`http://berth.test/auth/users/${admin.id}`);
    expect(back.json()._links.actor).toBeUndefined();
    expect((await t.call('GET', `/auth/users/${target.id}`, { token: token.access_token })).statusCode).toBe(
      401,
    );
  });

  it('keeps the actor when an impersonation token is refreshed (after joining an organization)', async () => {
    const admin = await staff('superuser');
    const target = await t.signUp();
    const token = (await impersonate(admin, target.email, 'read')).json();
    const refreshed = await t.call('POST', '/auth/tokens', {
      body: {
        grant_type: EXCHANGE,
        actor_token: token.access_token,
        subject_token_type: 'berth:user:href',
        subject_token: `http://berth.test/auth/users/${target.id}`,
        scope: 'read',
      },
    });
    expect(refreshed.statusCode).toBe(201);
    expect(refreshed.json()._links.actor.href).toBe(`http://berth.test/auth/users/${admin.id}`);
    expect(decodeTokenClaims(refreshed.json().access_token)?.scope).toBe('read');
    const upgrade = await t.call('POST', '/auth/tokens', {
      body: {
        grant_type: EXCHANGE,
        actor_token: token.access_token,
        subject_token_type: 'berth:user:href',
        subject_token: `http://berth.test/auth/users/${target.id}`,
        scope: 'manage',
      },
    });
    expect(upgrade.statusCode).toBe(400);
  });

  it('ends when the impersonator’s own token is revoked', async () => {
    const admin = await staff('superuser');
    const target = await t.signUp();
    const token = (await impersonate(admin, target.email, 'read')).json();
    await t.call('DELETE', `/auth/tokens/${admin.tokenId}`, { token: admin.token });
    expect((await t.call('GET', `/auth/users/${target.id}`, { token: token.access_token })).statusCode).toBe(
      401,
    );
  });
});

describe('npm run admin', () => {
  it('makes and revokes superusers by email, and reports unknown ones', async () => {
    const user = await t.signUp();
    expect(await runAdminCommand(t.db, ['make-superuser', user.email])).toContain('is now a superuser');
    const me = await t.call('GET', `/auth/users/${user.id}`, { token: user.token });
    expect(me.json()).toMatchObject({ superuser: true, read_only_impersonate: false });
    expect(await runAdminCommand(t.db, ['revoke-superuser', user.email])).toContain('no longer');
    await expect(runAdminCommand(t.db, ['make-superuser', 'nobody@example.com'])).rejects.toThrow('No user');
    await expect(runAdminCommand(t.db, ['frobnicate', user.email])).rejects.toThrow('Unknown command');
    await expect(runAdminCommand(t.db, [])).rejects.toThrow('Usage');
  });
});
