import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitedError } from '../../http/errors.ts';
import { STRONG_PASSWORD, type TestApp, testApp } from '../../testing/test-app.ts';
import { createLoginLimiter } from '../rate-limit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ loginRateLimit: { perAccount: 10, perAddress: 10, windowSeconds: 900 } });
});
afterAll(() => t.close());

/** A password login from a given address (each test uses its own, so the per-address count is its own). */
const login = (email: string, password: string, remoteAddress: string, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/auth/tokens',
    remoteAddress,
    headers: { 'content-type': 'application/hal+json', ...(cookie ? { cookie } : {}) },
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

    // Refused attempts checked nothing and count for nothing: the passwords checked make up the limit.
    for (let checked = invalid.length; checked < 10; checked += 1) {
      expect((await login(user.email, 'Wrong-password1', `10.0.0.${10 + checked}`)).statusCode).toBe(401);
    }
    // The right password inside the window is refused too, from any address.
    const afterwards = await login(user.email, STRONG_PASSWORD, '10.0.0.2');
    expect(afterwards.statusCode).toBe(429);
    expect(afterwards.json().error).toBe('rate_limited');
  });

  it('15 parallel wrong logins from one address across accounts: at most 10 are checked', async () => {
    const responses = await Promise.all(
      Array.from({ length: 15 }, () => login(t.uniqueEmail('guess'), 'Wrong-password1', '10.0.1.1')),
    );
    const checked = responses.filter((r) => r.statusCode === 401).length;
    expect(checked).toBeLessThanOrEqual(10);
    expect(responses.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(5);
    for (let i = checked; i < 10; i += 1) {
      expect((await login(t.uniqueEmail('guess'), 'Wrong-password1', '10.0.1.1')).statusCode).toBe(401);
    }
    const user = await t.signUp();
    expect((await login(user.email, STRONG_PASSWORD, '10.0.1.1')).statusCode).toBe(429);
  });

  it('15 parallel wrong passwords from one known device: at most 10 are checked, and the account stays open', async () => {
    const user = await t.signUp();
    const first = await login(user.email, STRONG_PASSWORD, '10.0.3.1');
    const device = first.cookies.find((c) => c.name === 'berth_device');
    expect(device).toBeDefined();
    const cookie = `berth_device=${device?.value}`;
    // Each from its own address, so only the device's count can stop them.
    const responses = await Promise.all(
      Array.from({ length: 15 }, (_, i) => login(user.email, 'Wrong-password1', `10.0.4.${i + 1}`, cookie)),
    );
    const checked = responses.filter((r) => r.statusCode === 401).length;
    expect(checked + responses.filter((r) => r.statusCode === 429).length, `${statuses(responses)}`).toBe(15);
    expect(checked).toBeLessThanOrEqual(10);
    for (let i = checked; i < 10; i += 1) {
      expect((await login(user.email, 'Wrong-password1', `10.0.5.${i + 1}`, cookie)).statusCode).toBe(401);
    }
    // The device is locked out; the account is not, so another device logs in.
    expect((await login(user.email, STRONG_PASSWORD, '10.0.3.1', cookie)).statusCode).toBe(429);
    expect((await login(user.email, STRONG_PASSWORD, '10.0.3.2')).statusCode).toBe(201);
  });

  it('lets no more than the limit through rounds of 40 parallel attempts, refused ones leaving nothing', async () => {
    const limiter = createLoginLimiter({
      db: t.db,
      limits: { perAccount: 5, perAddress: 1000, windowSeconds: 900 },
    });
    const email = t.uniqueEmail('race');
    let through = 0;
    for (let round = 0; round < 3; round += 1) {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 40 }, (_, i) => limiter.attempt(email, `10.0.6.${i}`)),
      );
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(RateLimitedError);
      }
      // Each let through stays counted as a failure (no success is reported).
      through += outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
      expect(through).toBeLessThanOrEqual(5);
    }
    for (; through < 5; through += 1) await limiter.attempt(email, '10.0.6.100');
    await expect(limiter.attempt(email, '10.0.6.101')).rejects.toBeInstanceOf(RateLimitedError);
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
