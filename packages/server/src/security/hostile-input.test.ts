import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { MAX_LENGTH } from '@berth/core';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggableError, loggablePath } from '../http/loggable-error.ts';
import { STRONG_PASSWORD, type TestApp, testApp } from '../testing/test-app.ts';

// Issue "Hostile input and fair sharing": no request may stall the server, whoever sends it.

let t: TestApp;
let logged = '';
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logged += chunk.toString();
    done();
  },
});

beforeAll(async () => {
  t = await testApp({}, { logger: { level: 'info', stream: logStream } });
});
afterAll(async () => {
  await t.close();
});

function signUpBody(email: string) {
  return { name: 'Mallory', email, password: STRONG_PASSWORD, challengeToken: '', origin: 'app' };
}

describe('the sign-up email pattern attack', () => {
  it('answers "a@" + 50,000 dots + "@" at once, and other requests are not held up', async () => {
    const email = `a@${'.'.repeat(50_000)}@`;
    const started = performance.now();
    const [attack, config] = await Promise.all([
      t.call('POST', '/auth/users', { body: signUpBody(email) }),
      t.call('GET', '/config.json'),
    ]);
    // The bound: the attack took 3.3 s before; a linear check takes milliseconds.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(attack.statusCode).toBe(422);
    expect(attack.json().message).toBe('Must provide valid email');
    expect(config.statusCode).toBe(200);
  });

  it('refuses the same on the claim check, and at the largest body the server takes', async () => {
    for (const url of ['/auth/users', '/auth/claims/user']) {
      for (const [dots, message] of [
        [60_000, 'Must provide valid email'],
        // Past the backstop every body string has, the generic bound answers first.
        [1_000_000, `email must be at most ${MAX_LENGTH.bodyString} characters`],
      ] as const) {
        const started = performance.now();
        const response = await t.call('POST', url, { body: signUpBody(`a@${'.'.repeat(dots)}@`) });
        expect(performance.now() - started).toBeLessThan(1000);
        expect(response.statusCode).toBe(422);
        expect(response.json().message).toBe(message);
      }
    }
  });

  it('answers a long but well-formed address with 422, not 500', async () => {
    const email = `${'a'.repeat(300)}@example.com`;
    const response = await t.call('POST', '/auth/users', { body: signUpBody(email) });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('Must provide valid email');
  });
});

describe('a login with a huge username', () => {
  it('is refused with 422 and leaves nothing of itself in the log', async () => {
    for (const [bytes, message] of [
      [30_000, `Email must be at most ${MAX_LENGTH.email} characters`],
      [50_000, `username must be at most ${MAX_LENGTH.bodyString} characters`],
    ] as const) {
      // 60,000 and 100,000 hex characters: the second is the random 100 KB username.
      const username = randomBytes(bytes).toString('hex');
      const before = logged.length;
      const response = await t.call('POST', '/auth/tokens', {
        body: { username, password: 'whatever', grant_type: 'password', scope: 'manage' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().message).toBe(message);
      const written = logged.slice(before);
      expect(written).not.toContain(username.slice(0, 64));
      expect(written.length).toBeLessThan(5_000);
    }
  });

  it('counts failed logins against the address as before for well-formed usernames', async () => {
    const user = await t.signUp();
    const wrong = await t.login(user.email, 'Wrong-password1');
    expect(wrong.statusCode).toBe(401);
  });
});

describe('every string a request carries is bounded', () => {
  it('refuses an over-long query value or path segment before any handler', async () => {
    const user = await t.signUp();
    const query = await t.call('GET', `/api/apps?search=${'x'.repeat(MAX_LENGTH.query + 1)}`, {
      token: user.token,
    });
    expect(query.statusCode).toBe(400);
    expect(query.json().message).toBe(
      `The query parameter search must be at most ${MAX_LENGTH.query} characters`,
    );
    const path = await t.call('GET', `/api/apps/${'9'.repeat(MAX_LENGTH.pathParameter + 1)}`, {
      token: user.token,
    });
    expect(path.statusCode).toBe(414);
    expect(path.json()).toMatchObject({ error: 'uri_too_long', message: 'A path parameter is too long' });
    const badUrl = await t.call('GET', '/api/apps/%E0%A4%A', { token: user.token });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json().message).toBe('The URL is not valid');
  });

  it('refuses an over-long string anywhere in a body, even in a field no schema reads', async () => {
    const user = await t.signUp();
    const response = await t.call('PATCH', `/auth/users/${user.id}`, {
      token: user.token,
      body: { name: 'Fine Name', extra: { nested: ['ok', 'y'.repeat(MAX_LENGTH.bodyString + 1)] } },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(
      `extra.nested.1 must be at most ${MAX_LENGTH.bodyString} characters`,
    );
    const key = await t.call('PATCH', `/auth/users/${user.id}`, {
      token: user.token,
      body: { ['k'.repeat(MAX_LENGTH.bodyString + 1)]: 1 },
    });
    expect(key.statusCode).toBe(422);
  });

  it('survives a deeply nested body without exhausting the stack', async () => {
    const user = await t.signUp();
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/auth/users/${user.id}`,
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      payload: `{"name":"Fine Name","deep":${deep}}`,
    });
    expect(response.statusCode).toBeLessThan(500);
  });

  it('refuses a bearer header of spaces without backtracking', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/apps',
      headers: { authorization: `Bearer${' '.repeat(100_000)}x ` },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('requests as they are logged', () => {
  it('carry no query string and no mailed code', async () => {
    const before = logged.length;
    await t.call('GET', '/api/operation_logs/1?expires=123&signature=SECRETSIGNATURE');
    await t.call('GET', '/verify/abc/SECRETCODE');
    await t.call('GET', '/claim/abc/SECRETCLAIM');
    const written = logged.slice(before);
    expect(written).toContain('/api/operation_logs/1');
    expect(written).toContain('/verify/…');
    for (const secret of ['SECRETSIGNATURE', 'SECRETCODE', 'SECRETCLAIM'])
      expect(written).not.toContain(secret);
  });

  it('keep at most 300 characters of a path', () => {
    expect(loggablePath(`/api/${'a'.repeat(1000)}?q=1`)).toHaveLength(300);
    expect(loggablePath('/password/update/x/y')).toBe('/password/…');
  });
});

describe('errors as they are logged', () => {
  it('keep a failed query and its cause, never its parameters', () => {
    const cause = Object.assign(new Error('index row size 100016 exceeds maximum 2712'), { code: '54000' });
    const failed = new DrizzleQueryError(
      'insert into "login_attempts" ("key") values ($1)',
      ['email:secret-address@example.com'],
      cause,
    );
    const safe = loggableError(failed);
    expect(safe.message).toBe(
      'Failed query (index row size 100016 exceeds maximum 2712): insert into "login_attempts" ("key") values ($1)',
    );
    expect(safe.stack).not.toContain('secret-address');
    expect(safe.stack).toContain('    at ');
    expect((safe as Error & { code?: string }).code).toBe('54000');
  });

  it('cut a long message to a bounded size', () => {
    expect(loggableError(new Error('x'.repeat(100_000))).message).toHaveLength(1000);
    expect(loggableError('plain text').message).toBe('plain text');
  });
});
