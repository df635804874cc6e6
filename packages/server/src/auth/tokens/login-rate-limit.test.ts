import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, type TestApp, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ loginRateLimit: { perAccount: 10, perAddress: 10, windowSeconds: 900 } });
});
afterAll(() => t.close());

/** A password login from a given address (each test uses its own, so the per-address count is its own). */
const login = (email: string, password: string, remoteAddress: string) =>
  t.app.inject({
    method: 'POST',
    url: '/auth/tokens',
    remoteAddress,
    headers: { 'content-type': 'application/hal+json' },
    payload: JSON.stringify({ username: email, password, grant_type: 'password', scope: 'manage' }),
  });

const statuses = (responses: { statusCode: number }[]) => responses.map((r) => r.statusCode);

describe('login rate limiting under concurrency', () => {
  it('15 parallel wrong passwords for one account: at most 10 are checked, the rest get 429', async () => {
    const user = await t.signUp();
    const responses = await Promise.all(
      Array.from({ length: 15 }, () => login(user.email, 'Wrong-password1', '10.0.0.1')),
    );
    const invalid = responses.filter((r) => r.statusCode === 401);
    const limited = responses.filter((r) => r.statusCode === 429);
    expect(invalid.length + limited.length, `statuses ${statuses(responses)}`).toBe(15);
    expect(invalid.length).toBeLessThanOrEqual(10);
    expect(limited.length).toBeGreaterThanOrEqual(5);
    for (const r of invalid) expect(r.json().error).toBe('invalid_credentials');
    for (const r of limited) expect(r.json().error).toBe('rate_limited');

    // The right password inside the window is refused too, from any address.
    const afterwards = await login(user.email, STRONG_PASSWORD, '10.0.0.2');
    expect(afterwards.statusCode).toBe(429);
    expect(afterwards.json().error).toBe('rate_limited');
  });

  it('15 parallel wrong logins from one address across accounts: at most 10 are checked', async () => {
    const responses = await Promise.all(
      Array.from({ length: 15 }, () => login(t.uniqueEmail('guess'), 'Wrong-password1', '10.0.1.1')),
    );
    expect(responses.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(10);
    expect(responses.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(5);
    const user = await t.signUp();
    expect((await login(user.email, STRONG_PASSWORD, '10.0.1.1')).statusCode).toBe(429);
  });

  it('a successful login is not counted as a failure', async () => {
    const user = await t.signUp();
    for (let i = 0; i < 12; i += 1) {
      expect((await login(user.email, STRONG_PASSWORD, '10.0.2.1')).statusCode).toBe(201);
    }
    for (let i = 0; i < 10; i += 1) {
      expect((await login(user.email, 'Wrong-password1', '10.0.2.1')).statusCode).toBe(401);
    }
    expect((await login(user.email, STRONG_PASSWORD, '10.0.2.1')).statusCode).toBe(429);
  });
});
