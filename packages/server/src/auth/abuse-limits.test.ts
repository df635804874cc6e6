import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { emailVerificationChallenges, invitations } from '../db/schema.ts';
import { STRONG_PASSWORD, type TestApp, type TestUser, testApp } from '../testing/test-app.ts';

// Small limits, so each case reaches them in a few requests. Each test uses addresses of its own.
const SIGNUP_LIMIT = 3;
const PER_CODE = 3;
const PER_ADDRESS = 5;

let t: TestApp;
beforeAll(async () => {
  // Sign-ups from 127.0.0.1 (t.signUp) stay under the test default; the sign-up limit has an app of its own.
  t = await testApp({
    verificationRateLimit: { perCode: PER_CODE, perAddress: PER_ADDRESS, windowSeconds: 900 },
    loginRateLimit: { perAccount: 3, perAddress: 1000, windowSeconds: 900 },
  });
});
afterAll(() => t.close());

type Answer = Awaited<ReturnType<TestApp['call']>>;

/** A POST from a given client address, as the test app's `call` sends it. */
const post = (url: string, body: unknown, remoteAddress: string, token?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    remoteAddress,
    headers: {
      'content-type': 'application/hal+json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    payload: JSON.stringify(body),
  });

const signUpBody = (email = t.uniqueEmail('signup')) => ({
  name: 'Sam Signup',
  email,
  password: STRONG_PASSWORD,
  challengeToken: '',
  origin: 'app',
});

const statuses = (answers: Answer[]) => answers.map((a) => a.statusCode).join(',');

/** A 429 of the abuse limits: its message, and a Retry-After of whole seconds within `max`. */
function expectLimited(answer: Answer, message: string, max: number, min = 1) {
  expect(answer.statusCode).toBe(429);
  expect(answer.json()).toMatchObject({ code: 429, error: 'rate_limited', message });
  const retryAfter = String(answer.headers['retry-after']);
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(min);
  expect(Number(retryAfter)).toBeLessThanOrEqual(max);
}

const SIGNUP_LIMITED = 'Too many sign-up attempts from this address. Please wait a minute and try again.';
const CODES_LIMITED =
  'Too many wrong verification codes were tried from this address. Please wait 15 minutes and try again.';
const LINK_INVALID = 'This verification link is invalid or has expired';
const LINK_DEAD =
  'This verification link was tried too many times with a wrong code. Ask for a new verification email.';
const INVITATION_DEAD =
  'This invitation link was tried too many times with a wrong code. Ask for the invitation to be sent again.';

describe('sign-up limit per client address', () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await testApp({ signupRateLimit: { perAddress: SIGNUP_LIMIT, windowSeconds: 60 } });
  });
  afterAll(() => s.close());
  const post = (url: string, body: unknown, remoteAddress: string) =>
    s.app.inject({
      method: 'POST',
      url,
      remoteAddress,
      headers: { 'content-type': 'application/hal+json' },
      payload: JSON.stringify(body),
    });
  it('lets at most the limit of parallel sign-ups from one address through; the rest get 429 with Retry-After', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post('/auth/users', signUpBody(), '10.1.0.1')),
    );
    const created = answers.filter((a) => a.statusCode === 201);
    const limited = answers.filter((a) => a.statusCode === 429);
    expect(created.length + limited.length, statuses(answers)).toBe(8);
    expect(created.length).toBeLessThanOrEqual(SIGNUP_LIMIT);
    expect(limited.length).toBeGreaterThanOrEqual(8 - SIGNUP_LIMIT);
    for (const answer of limited) expectLimited(answer, SIGNUP_LIMITED, 60);

    // Another address signs up as usual.
    expect((await post('/auth/users', signUpBody(), '10.1.0.2')).statusCode).toBe(201);
  });

  it('counts every sign-up, refused or not, but a refused request does not push the wait further', async () => {
    for (let i = 0; i < SIGNUP_LIMIT; i += 1) {
      // A taken address is answered 422, and still counts.
      const email = i === 0 ? (await s.signUp()).email : s.uniqueEmail();
      expect((await post('/auth/users', signUpBody(email), '10.1.1.1')).statusCode).toBe(i === 0 ? 422 : 201);
    }
    const first = await post('/auth/users', signUpBody(), '10.1.1.1');
    expectLimited(first, SIGNUP_LIMITED, 60, 55);
    const again = await post('/auth/users', signUpBody(), '10.1.1.1');
    expectLimited(again, SIGNUP_LIMITED, Number(first.headers['retry-after']));
  });

  it('limits sign-up checks (POST /auth/claims/user) the same way, counted apart from sign-ups', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => post('/auth/claims/user', signUpBody(), '10.1.2.1')),
    );
    expect(answers.filter((a) => a.statusCode === 200).length, statuses(answers)).toBeLessThanOrEqual(
      SIGNUP_LIMIT,
    );
    const limited = answers.filter((a) => a.statusCode === 429);
    expect(limited.length).toBeGreaterThanOrEqual(6 - SIGNUP_LIMIT);
    for (const answer of limited) expectLimited(answer, SIGNUP_LIMITED, 60);
    // The checks used up their own allowance only: this address may still sign up.
    expect((await post('/auth/users', signUpBody(), '10.1.2.1')).statusCode).toBe(201);
  });

  it('counts the client named by a trusted proxy (BERTH_TRUST_PROXY), not the proxy', async () => {
    const proxied = await testApp({
      trustProxy: { addresses: ['127.0.0.0/8'] },
      signupRateLimit: { perAddress: 2, windowSeconds: 60 },
    });
    try {
      const viaProxy = (client: string) =>
        proxied.app.inject({
          method: 'POST',
          url: '/auth/users',
          remoteAddress: '127.0.0.1',
          headers: { 'content-type': 'application/hal+json', 'x-forwarded-for': client },
          payload: JSON.stringify(signUpBody(proxied.uniqueEmail())),
        });
      expect((await viaProxy('198.51.100.7')).statusCode).toBe(201);
      expect((await viaProxy('198.51.100.7')).statusCode).toBe(201);
      expect((await viaProxy('198.51.100.7')).statusCode).toBe(429);
      expect((await viaProxy('198.51.100.8')).statusCode).toBe(201);
    } finally {
      await proxied.close();
    }
  });
});

const verify = (challengeId: string, code: string, address: string) =>
  post(
    '/auth/verifications',
    { type: 'email_verification_challenge', challenge_id: challengeId, verification_code: code },
    address,
  );

/** An unverified user and the link of their verification mail. */
async function unverified(): Promise<{ user: TestUser; link: { challengeId: string; code: string } }> {
  const user = await t.signUp({ verified: false });
  return { user, link: await t.verificationLink(user.email) };
}

describe('wrong verification codes per link', () => {
  it('kills a link after the limit of wrong codes: even the right code is refused, a new link works', async () => {
    const { user, link } = await unverified();
    for (let i = 0; i < PER_CODE; i += 1) {
      const wrong = await verify(link.challengeId, `wrong-${i}`, `10.2.0.${i + 1}`);
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json()).toMatchObject({ error: 'invalid_verification', message: LINK_INVALID });
    }
    const dead = await verify(link.challengeId, link.code, '10.2.0.9');
    expect(dead.statusCode).toBe(422);
    expect(dead.json()).toMatchObject({ error: 'verification_locked', message: LINK_DEAD });

    const resent = await t.call('POST', `/auth/users/${user.id}/email_verification_challenges`, {
      token: user.token,
      body: { origin: 'app' },
    });
    expect(resent.statusCode).toBe(204);
    const fresh = await t.verificationLink(user.email);
    expect(fresh.challengeId).not.toBe(link.challengeId);
    expect((await verify(fresh.challengeId, fresh.code, '10.2.0.9')).statusCode).toBe(204);
  });

  it('checks at most the limit of parallel wrong codes for one link', async () => {
    const { link } = await unverified();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => verify(link.challengeId, `guess-${i}`, `10.2.1.${i + 1}`)),
    );
    expect(answers.map((a) => a.json().error).filter((e) => e === 'invalid_verification')).toHaveLength(
      PER_CODE,
    );
    expect(answers.map((a) => a.json().error).filter((e) => e === 'verification_locked')).toHaveLength(
      10 - PER_CODE,
    );
    const [row] = await t.db
      .select({ failed: emailVerificationChallenges.failedAttempts })
      .from(emailVerificationChallenges)
      .where(eq(emailVerificationChallenges.id, link.challengeId));
    expect(row?.failed).toBe(PER_CODE);
  });

  it('a right code before the limit still verifies', async () => {
    const { link } = await unverified();
    for (let i = 0; i < PER_CODE - 1; i += 1) {
      expect((await verify(link.challengeId, 'nope', '10.2.2.1')).statusCode).toBe(422);
    }
    expect((await verify(link.challengeId, link.code, '10.2.2.1')).statusCode).toBe(204);
  });
});

describe('wrong verification codes per client address', () => {
  it('refuses parallel guesses from one address past the limit with 429 and Retry-After', async () => {
    const links = await Promise.all(Array.from({ length: 3 }, () => unverified()));
    const answers = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        verify((links[i % 3] as (typeof links)[number]).link.challengeId, `guess-${i}`, '10.3.0.1'),
      ),
    );
    const checked = answers.filter((a) => a.statusCode === 422);
    const limited = answers.filter((a) => a.statusCode === 429);
    expect(checked.length + limited.length, statuses(answers)).toBe(9);
    // Never more checked than the limit. Under true concurrency (PostgreSQL) requests that all count one
    // another may all be refused, and take their records back: then nothing blocks and the wait is short.
    expect(checked.length).toBeLessThanOrEqual(PER_ADDRESS);
    expect(limited.length).toBeGreaterThanOrEqual(9 - PER_ADDRESS);
    for (const answer of limited) {
      expect(answer.json()).toMatchObject({ code: 429, error: 'rate_limited' });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(answer.headers['retry-after'])).toBeLessThanOrEqual(900);
    }

    // Wrong guesses one after another use up what is left; the one past the limit waits the window out.
    let refused: Answer | undefined;
    for (let i = 0; i <= PER_ADDRESS && !refused; i += 1) {
      const answer = await verify(
        (links[0] as (typeof links)[number]).link.challengeId,
        `more-${i}`,
        '10.3.0.1',
      );
      if (answer.statusCode === 429) refused = answer;
      else expect(answer.statusCode).toBe(422);
    }
    if (!refused) throw new Error('no 429 within the limit');
    expectLimited(refused, CODES_LIMITED, 900, 890);

    // Unknown links count as well, and the right code is not checked from this address any more...
    const { link } = await unverified();
    expectLimited(await verify(link.challengeId, link.code, '10.3.0.1'), CODES_LIMITED, 900);
    // ...while it works from another one (the refused attempt did not count against the link).
    expect((await verify(link.challengeId, link.code, '10.3.0.2')).statusCode).toBe(204);
  });

  it('counts failures only: right codes do not use up the allowance', async () => {
    for (let i = 0; i < PER_ADDRESS + 2; i += 1) {
      const { link } = await unverified();
      expect((await verify(link.challengeId, link.code, '10.3.1.1')).statusCode).toBe(204);
    }
    const unknown = await verify('00000000-0000-4000-8000-000000000000', 'code', '10.3.1.1');
    expect(unknown.statusCode).toBe(422);
  });
});

describe('wrong invitation codes', () => {
  async function invitation() {
    const owner = await t.signUp({ name: 'Olive Owner' });
    const org = await t.createOrganization(owner, 'Acme Works');
    const role = (
      await t.call('POST', `/auth/organizations/${org.id}/roles`, {
        token: owner.token,
        body: { name: 'Readers' },
      })
    ).json() as { id: string };
    const invitee = await t.signUp();
    const invited = await t.call('POST', `/auth/roles/${role.id}/invitations`, {
      token: owner.token,
      body: { email: invitee.email, origin: 'app' },
    });
    expect(invited.statusCode).toBe(201);
    const { text } = await t.latestMailTo(invitee.email);
    const [, invitationId = '', code = ''] = /\/claim\/([^/\s]+)\/([^/\s]+)/.exec(text) ?? [];
    return { owner, invitee, invitationId, code };
  }

  const accept = (user: TestUser, invitationId: string, code: string, address: string) =>
    post(
      '/auth/verifications',
      { type: 'invitation', invitation_id: invitationId, verification_code: code },
      address,
      user.token,
    );

  it('kills the link after the limit of parallel wrong codes; a resend revives the invitation', async () => {
    const { owner, invitee, invitationId, code } = await invitation();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => accept(invitee, invitationId, `guess-${i}`, `10.4.0.${i + 1}`)),
    );
    expect(
      answers.filter((a) => a.statusCode === 404),
      statuses(answers),
    ).toHaveLength(PER_CODE);
    const dead = answers.filter((a) => a.statusCode === 422);
    expect(dead).toHaveLength(8 - PER_CODE);
    for (const answer of dead) {
      expect(answer.json()).toMatchObject({ error: 'invitation_locked', message: INVITATION_DEAD });
    }
    const right = await accept(invitee, invitationId, code, '10.4.0.20');
    expect(right.statusCode).toBe(422);
    expect(right.json().message).toBe(INVITATION_DEAD);

    const resent = await t.call('POST', '/auth/resets', {
      token: owner.token,
      body: { type: 'invitation', invitation_id: invitationId },
    });
    expect(resent.statusCode).toBe(204);
    const [row] = await t.db
      .select({ failed: invitations.failedAttempts })
      .from(invitations)
      .where(eq(invitations.id, invitationId));
    expect(row?.failed).toBe(0);
    const { text } = await t.latestMailTo(invitee.email);
    const [, , fresh = ''] = /\/claim\/([^/\s]+)\/([^/\s]+)/.exec(text) ?? [];
    expect((await accept(invitee, invitationId, fresh, '10.4.0.20')).statusCode).toBe(204);
  });

  it('counts wrong invitation codes against the address too', async () => {
    const { invitee, invitationId, code } = await invitation();
    // Fewer than the link's limit on the link, the rest on invitations that do not exist.
    for (let i = 0; i < PER_ADDRESS; i += 1) {
      const id = i < PER_CODE - 1 ? invitationId : randomUUID();
      expect((await accept(invitee, id, `guess-${i}`, '10.4.1.1')).statusCode).toBe(404);
    }
    expectLimited(await accept(invitee, invitationId, code, '10.4.1.1'), CODES_LIMITED, 900);
    expect((await accept(invitee, invitationId, code, '10.4.1.2')).statusCode).toBe(204);
  });
});

describe('login lock', () => {
  const login = (email: string, password: string, address = '10.5.0.1') =>
    post('/auth/tokens', { username: email, password, grant_type: 'password', scope: 'manage' }, address);

  it('answers 429 with Retry-After: the seconds until the lock ends', async () => {
    const user = await t.signUp();
    for (let i = 0; i < 3; i += 1) expect((await login(user.email, 'Wrong-password1')).statusCode).toBe(401);
    const locked = await login(user.email, STRONG_PASSWORD);
    expectLimited(locked, 'Too many failed login attempts. Please wait 15 minutes and try again.', 900, 890);
  });

  it('a successful login resets the account count: two failures, a success and two failures do not lock', async () => {
    const user = await t.signUp();
    expect((await login(user.email, 'Wrong-password1')).statusCode).toBe(401);
    expect((await login(user.email, 'Wrong-password1')).statusCode).toBe(401);
    expect((await login(user.email, STRONG_PASSWORD)).statusCode).toBe(201);
    expect((await login(user.email, 'Wrong-password1')).statusCode).toBe(401);
    expect((await login(user.email, 'Wrong-password1')).statusCode).toBe(401);
    // Both failures after the success count: the third is checked, the next attempt is refused.
    expect((await login(user.email, 'Wrong-password1')).statusCode).toBe(401);
    expect((await login(user.email, STRONG_PASSWORD)).statusCode).toBe(429);
  });
});

describe('configuration', () => {
  it('reads the abuse limits from the environment', () => {
    const config = loadConfig({
      BERTH_SIGNUP_LIMIT_PER_ADDRESS: '7',
      BERTH_VERIFICATION_LIMIT_PER_CODE: '4',
      BERTH_VERIFICATION_LIMIT_PER_ADDRESS: '30',
    });
    expect(config.signupRateLimit).toEqual({ perAddress: 7, windowSeconds: 60 });
    expect(config.verificationRateLimit).toEqual({ perCode: 4, perAddress: 30, windowSeconds: 900 });
    expect(loadConfig({}).signupRateLimit.perAddress).toBe(20);
    expect(loadConfig({}).verificationRateLimit).toMatchObject({ perCode: 5, perAddress: 20 });
    expect(() => loadConfig({ BERTH_SIGNUP_LIMIT_PER_ADDRESS: 'many' })).toThrow(
      'BERTH_SIGNUP_LIMIT_PER_ADDRESS must be an integer, got "many"',
    );
  });
});
