import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '../db/schema.ts';
import { addMember } from '../testing/factories.ts';
import { type TestApp, type TestUser, testApp } from '../testing/test-app.ts';
import { createBilling } from './billing.service.ts';
import { createLocalPaymentProvider } from './payments/local-provider.ts';

const BILLING = 'http://berth.test/billing';
const detailPath = (id: string) => `/billing/billing_details/${id}`;
const sourcesPath = (id: string) => `${detailPath(id)}/stripe_sources`;
const trialsPath = (id: string) => `${detailPath(id)}/trials`;
const DAY_MS = 24 * 60 * 60 * 1000;

const ADDRESS = {
  street_one: '1 Main St',
  street_two: '',
  city: 'Springfield',
  state: 'IL',
  post_code: '62701',
  country: 'US',
};

async function ownedOrganization(t: TestApp, name = 'Billed Inc') {
  const owner = await t.signUp();
  const org = await t.createOrganization(owner, name);
  return { owner, org };
}

async function member(
  t: TestApp,
  organizationId: string,
  roleType: 'platform_user' | 'platform_owner' | 'billing_owner',
) {
  const user = await t.signUp();
  await addMember(t.db, { organizationId, userId: user.id, roleType });
  return user;
}

async function addCard(t: TestApp, user: TestUser, organizationId: string, token: string) {
  return t.call('POST', sourcesPath(organizationId), { token: user.token, body: { stripe_token_id: token } });
}

/** Puts the organization on another plan through the Plans page's call; its answer. */
async function changePlan(t: TestApp, user: TestUser, organizationId: string, planName: string) {
  const plans = (await t.call('GET', '/api/plans', { token: user.token })).json()._embedded.plans;
  const plan = plans.find((p: { name: string }) => p.name === planName);
  const active = (
    await t.call('GET', `/api/active_plans?organization_id=${organizationId}`, { token: user.token })
  ).json()._embedded.active_plans[0];
  return t.call('PUT', `/api/active_plans/${active.id}`, { token: user.token, body: { plan_id: plan.id } });
}

describe('BERTH_PAYMENTS=none (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ defaultPlan: 'starter' });
  });
  afterAll(() => t.close());

  it('gives every billing detail a free payment source, so nothing sends pages to Plans', async () => {
    const { owner, org } = await ownedOrganization(t);
    // The organization names its billing detail (contract §4.1), which the console loads at boot.
    const listed = (await t.call('GET', '/auth/organizations', { token: owner.token })).json();
    const mine = listed._embedded.organizations.find((o: { id: string }) => o.id === org.id);
    expect(mine._links.billing_detail).toEqual({ href: `${BILLING}/billing_details/${org.id}` });

    const detail = await t.call('GET', detailPath(org.id), { token: owner.token });
    expect(detail.statusCode).toBe(200);
    const body = detail.json();
    expect(body).toMatchObject({ id: org.id, _type: 'billing_detail', organization_details_json: {} });
    const sources = (await t.call('GET', sourcesPath(org.id), { token: owner.token })).json();
    expect(sources._embedded.stripe_sources).toHaveLength(1);
    const [free] = sources._embedded.stripe_sources;
    expect(free).toMatchObject({ _type: 'stripe_source', stripe_type: 'free', deactivated_at: null });
    expect(body._links.payment_method).toEqual({ href: `${BILLING}/stripe_sources/${free.id}` });
    expect(
      (await t.call('GET', `/billing/stripe_sources/${free.id}`, { token: owner.token })).json().id,
    ).toBe(free.id);
    // No trial: nobody is asked to pay.
    expect((await t.call('GET', trialsPath(org.id), { token: owner.token })).json().total_count).toBe(0);
    const billing = createBilling({ db: t.db, mode: 'none', provider: null, trialDays: 14 });
    expect(await billing.hasPaymentMethod(org.id)).toBe(true);
  });

  it('reads the same for every member, and again on every load (one free source)', async () => {
    const { owner, org } = await ownedOrganization(t);
    const developer = await member(t, org.id, 'platform_user');
    for (const user of [developer, owner, developer]) {
      const detail = (await t.call('GET', detailPath(org.id), { token: user.token })).json();
      expect(detail._links.payment_method).toBeDefined();
    }
    expect((await t.call('GET', sourcesPath(org.id), { token: owner.token })).json().total_count).toBe(1);
  });

  it('gives an organization billed under another provider a free source once payments are off', async () => {
    const { owner, org } = await ownedOrganization(t);
    const local = createBilling({
      db: t.db,
      mode: 'local',
      provider: createLocalPaymentProvider(),
      trialDays: 14,
    });
    await local.get({ id: owner.id, name: '', email: owner.email }, org.id);
    expect(await local.hasPaymentMethod(org.id)).toBe(false);
    const detail = (await t.call('GET', detailPath(org.id), { token: owner.token })).json();
    expect(detail._links.payment_method).toBeDefined();
  });

  it('makes one billing detail and one free source however many first loads race', async () => {
    const { owner, org } = await ownedOrganization(t);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => t.call('GET', detailPath(org.id), { token: owner.token })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((answer) => answer.json()._links.payment_method.href)).size).toBe(1);
    expect((await t.call('GET', sourcesPath(org.id), { token: owner.token })).json().total_count).toBe(1);
  });

  it('lets an owner change plan freely: the free source is a payment method', async () => {
    const { owner, org } = await ownedOrganization(t);
    const changed = await changePlan(t, owner, org.id, 'growth');
    expect(changed.statusCode).toBe(200);
  });

  it('takes no card: nothing is charged', async () => {
    const { owner, org } = await ownedOrganization(t);
    const refused = await addCard(t, owner, org.id, 'tok_visa');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(
      'Payments are off on this installation (BERTH_PAYMENTS=none): no card is needed',
    );
  });
});

describe('BERTH_PAYMENTS=local', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ defaultPlan: 'starter', payments: { mode: 'local', trialDays: 14, stripe: null } });
  });
  afterAll(() => t.close());
  const billing = () =>
    createBilling({ db: t.db, mode: 'local', provider: createLocalPaymentProvider(), trialDays: 14 });

  it('starts a new organization without a payment method, on a trial from its creation', async () => {
    const { owner, org } = await ownedOrganization(t);
    const detail = (await t.call('GET', detailPath(org.id), { token: owner.token })).json();
    expect(detail._links.payment_method).toBeUndefined();
    expect(detail._links).toMatchObject({
      self: { href: `${BILLING}/billing_details/${org.id}` },
      organization: { href: `http://berth.test/auth/organizations/${org.id}` },
    });
    expect((await t.call('GET', sourcesPath(org.id), { token: owner.token })).json().total_count).toBe(0);
    const trials = (await t.call('GET', trialsPath(org.id), { token: owner.token })).json();
    expect(trials._embedded.trials).toHaveLength(1);
    const [trial] = trials._embedded.trials;
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, org.id));
    expect(trial).toMatchObject({ _type: 'trial', range_begin: row?.createdAt.toISOString() });
    expect(Date.parse(trial.range_end) - Date.parse(trial.range_begin)).toBe(14 * DAY_MS);
    expect(await billing().hasPaymentMethod(org.id)).toBe(false);
  });

  it("refuses Stripe's declining test token with the card provider's message, and keeps nothing", async () => {
    const { owner, org } = await ownedOrganization(t);
    const declined = await addCard(t, owner, org.id, 'tok_chargeDeclined');
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ error: 'card_declined', message: 'Your card was declined.' });
    const unknown = await addCard(t, owner, org.id, 'tok_nonsense');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toBe("No such token: 'tok_nonsense'");
    const missing = await t.call('POST', sourcesPath(org.id), { token: owner.token, body: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toBe('A card token (stripe_token_id) is required');
    expect((await t.call('GET', sourcesPath(org.id), { token: owner.token })).json().total_count).toBe(0);
    expect(
      (await t.call('GET', detailPath(org.id), { token: owner.token })).json()._links.payment_method,
    ).toBeUndefined();
  });

  it("takes Stripe's test tokens tok_visa and tok_mastercard; the first card becomes the payment method", async () => {
    const { owner, org } = await ownedOrganization(t);
    const visa = await addCard(t, owner, org.id, 'tok_visa');
    expect(visa.statusCode).toBe(201);
    expect(visa.json()).toMatchObject({
      _type: 'stripe_source',
      description: 'Visa ending in 4242',
      stripe_type: 'card',
      stripe_token_id: 'tok_visa',
      deactivated_at: null,
      stripe_metadata: { brand: 'Visa', last4: '4242', funding: 'credit' },
      _links: { billing_detail: { href: `${BILLING}/billing_details/${org.id}` } },
    });
    const visaHref = `${BILLING}/stripe_sources/${visa.json().id}`;
    expect(
      (await t.call('GET', detailPath(org.id), { token: owner.token })).json()._links.payment_method,
    ).toEqual({
      href: visaHref,
    });
    expect(await billing().hasPaymentMethod(org.id)).toBe(true);

    const mastercard = await addCard(t, owner, org.id, 'tok_mastercard');
    expect(mastercard.statusCode).toBe(201);
    expect(mastercard.json().description).toBe('MasterCard ending in 4444');
    // A second card does not replace the first until the payer says so.
    expect(
      (await t.call('GET', detailPath(org.id), { token: owner.token })).json()._links.payment_method.href,
    ).toBe(visaHref);
    const switched = await t.call('PATCH', detailPath(org.id), {
      token: owner.token,
      body: { payment_method: `${BILLING}/stripe_sources/${mastercard.json().id}` },
    });
    expect(switched.statusCode).toBe(200);
    expect(switched.json()._links.payment_method.href).toBe(
      `${BILLING}/stripe_sources/${mastercard.json().id}`,
    );
    expect((await t.call('GET', sourcesPath(org.id), { token: owner.token })).json().total_count).toBe(2);
  });

  it('holds plan changes until a card is added (the payment-method guard)', async () => {
    const { owner, org } = await ownedOrganization(t);
    const refused = await changePlan(t, owner, org.id, 'growth');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('You must add a payment method before changing your plan.');
    expect((await addCard(t, owner, org.id, 'tok_chargeDeclined')).statusCode).toBe(402);
    expect((await changePlan(t, owner, org.id, 'growth')).statusCode).toBe(422);
    expect((await addCard(t, owner, org.id, 'tok_visa')).statusCode).toBe(201);
    expect((await changePlan(t, owner, org.id, 'growth')).statusCode).toBe(200);
  });

  it('refuses a payment method that is not one of its own active sources', async () => {
    const { owner, org } = await ownedOrganization(t);
    const other = await ownedOrganization(t, 'Other Inc');
    const theirs = (await addCard(t, other.owner, other.org.id, 'tok_visa')).json();
    for (const payment_method of [
      `${BILLING}/stripe_sources/${theirs.id}`,
      `${BILLING}/stripe_sources/nope`,
    ]) {
      const refused = await t.call('PATCH', detailPath(org.id), {
        token: owner.token,
        body: { payment_method },
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe(
        'The payment method must be an active payment source of this billing detail',
      );
    }
  });

  it('keeps the billing address under the payment form’s rules, and the console’s other keys', async () => {
    const { owner, org } = await ownedOrganization(t);
    const named = await t.call('POST', '/billing/billing_details', {
      token: owner.token,
      body: { id: org.id, organization_details_json: { name: 'Billed Inc', vat: 'EU123' } },
    });
    expect(named.statusCode).toBe(201);
    const saved = await t.call('PATCH', detailPath(org.id), {
      token: owner.token,
      body: { organization_details_json: { billing_address: ADDRESS } },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().organization_details_json).toEqual({
      name: 'Billed Inc',
      vat: 'EU123',
      billing_address: ADDRESS,
    });

    const cases: [Record<string, string>, string][] = [
      [{ ...ADDRESS, post_code: '6270' }, 'invalid zip code'],
      [{ ...ADDRESS, state: 'N/A' }, 'state / province / district is required'],
      [{ ...ADDRESS, city: ' ' }, 'City must not be empty'],
      [{ ...ADDRESS, street_one: 'x'.repeat(201) }, 'Street address must be at most 200 characters'],
    ];
    for (const [address, message] of cases) {
      const refused = await t.call('PATCH', detailPath(org.id), {
        token: owner.token,
        body: { organization_details_json: { billing_address: address } },
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe(message);
    }
    // Outside the US neither rule applies; the saved address is untouched by the refusals.
    const abroad = { ...ADDRESS, state: 'N/A', post_code: 'SW1A 1AA', country: 'GB' };
    const ok = await t.call('PATCH', detailPath(org.id), {
      token: owner.token,
      body: { organization_details_json: { billing_address: abroad } },
    });
    expect(ok.json().organization_details_json.billing_address).toEqual(abroad);
  });

  it('keeps both changes when two arrive at once, each with its own keys', async () => {
    const { owner, org } = await ownedOrganization(t);
    const changes = Array.from({ length: 6 }, (_, n) =>
      t.call('PATCH', detailPath(org.id), {
        token: owner.token,
        body: { organization_details_json: { [`key${n}`]: `value${n}` } },
      }),
    );
    expect((await Promise.all(changes)).map((response) => response.statusCode)).toEqual(Array(6).fill(200));
    const read = await t.call('GET', detailPath(org.id), { token: owner.token });
    expect(read.json().organization_details_json).toEqual(
      Object.fromEntries(Array.from({ length: 6 }, (_, n) => [`key${n}`, `value${n}`])),
    );
  });

  it('answers 401 without a token, 404 to another organization, 403 to members without billing access', async () => {
    const { owner, org } = await ownedOrganization(t);
    const stranger = await ownedOrganization(t, 'Elsewhere');
    const developer = await member(t, org.id, 'platform_user');
    const source = (await addCard(t, owner, org.id, 'tok_visa')).json();

    for (const [method, url] of [
      ['GET', detailPath(org.id)],
      ['PATCH', detailPath(org.id)],
      ['GET', sourcesPath(org.id)],
      ['POST', sourcesPath(org.id)],
      ['GET', trialsPath(org.id)],
      ['GET', `/billing/stripe_sources/${source.id}`],
      ['POST', '/billing/billing_details'],
    ] as const) {
      expect(
        (await t.call(method, url, { body: { stripe_token_id: 'tok_visa', id: org.id } })).statusCode,
      ).toBe(401);
    }
    for (const [method, url] of [
      ['GET', detailPath(org.id)],
      ['PATCH', detailPath(org.id)],
      ['GET', sourcesPath(org.id)],
      ['POST', sourcesPath(org.id)],
      ['GET', trialsPath(org.id)],
      ['GET', `/billing/stripe_sources/${source.id}`],
      ['GET', detailPath('not-an-id')],
    ] as const) {
      const answer = await t.call(method, url, {
        token: stranger.owner.token,
        body: { stripe_token_id: 'tok_visa' },
      });
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
    }
    const notTheirs = await t.call('POST', '/billing/billing_details', {
      token: stranger.owner.token,
      body: { id: org.id },
    });
    expect(notTheirs.statusCode).toBe(404);

    // A developer reads what the console's guard and trial notice need, not the card or the address.
    expect((await t.call('GET', detailPath(org.id), { token: developer.token })).json()).toMatchObject({
      organization_details_json: null,
      _links: { payment_method: { href: `${BILLING}/stripe_sources/${source.id}` } },
    });
    const seen = (await t.call('GET', sourcesPath(org.id), { token: developer.token })).json()._embedded
      .stripe_sources;
    expect(seen).toEqual([
      expect.objectContaining({
        id: source.id,
        description: '',
        stripe_token_id: '',
        stripe_metadata: null,
        deactivated_at: null,
      }),
    ]);
    expect((await t.call('GET', trialsPath(org.id), { token: developer.token })).statusCode).toBe(200);
    // A Deploy Owner runs the platform, not its billing (spec 1 §6).
    const deployOwner = await member(t, org.id, 'platform_owner');
    for (const [user, method, url, body] of [
      [developer, 'PATCH', detailPath(org.id), { organization_details_json: { name: 'Mine now' } }],
      [deployOwner, 'PATCH', detailPath(org.id), { organization_details_json: { name: 'Mine now' } }],
      [deployOwner, 'POST', sourcesPath(org.id), { stripe_token_id: 'tok_visa' }],
      [developer, 'POST', sourcesPath(org.id), { stripe_token_id: 'tok_visa' }],
      [developer, 'POST', '/billing/billing_details', { id: org.id }],
    ] as const) {
      const refused = await t.call(method, url, { token: user.token, body });
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(refused.json().message).toBe('You must be an account owner or billing owner to manage billing.');
    }
    expect((await t.call('GET', sourcesPath(org.id), { token: owner.token })).json().total_count).toBe(1);
  });

  it('lets a Billing Only Owner add a card and set the address', async () => {
    const { org } = await ownedOrganization(t);
    const billingOwner = await member(t, org.id, 'billing_owner');
    const added = await addCard(t, billingOwner, org.id, 'tok_mastercard');
    expect(added.statusCode).toBe(201);
    const saved = await t.call('PATCH', detailPath(org.id), {
      token: billingOwner.token,
      body: { organization_details_json: { billing_address: ADDRESS } },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()._links.payment_method.href).toBe(`${BILLING}/stripe_sources/${added.json().id}`);
  });

  it('gives one trial however many first loads race', async () => {
    const { owner, org } = await ownedOrganization(t);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.call('GET', i % 2 ? trialsPath(org.id) : detailPath(org.id), { token: owner.token }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(6).fill(200));
    expect((await t.call('GET', trialsPath(org.id), { token: owner.token })).json().total_count).toBe(1);
  });

  it('runs the trial from the organization’s creation, however late its billing detail is made', async () => {
    const { owner, org } = await ownedOrganization(t);
    const createdAt = new Date(Date.now() - 30 * DAY_MS);
    await t.db.update(organizations).set({ createdAt }).where(eq(organizations.id, org.id));
    const [trial] = (await t.call('GET', trialsPath(org.id), { token: owner.token })).json()._embedded.trials;
    expect(trial.range_begin).toBe(createdAt.toISOString());
    expect(trial.range_end).toBe(new Date(createdAt.getTime() + 14 * DAY_MS).toISOString());
    expect(Date.parse(trial.range_end)).toBeLessThan(Date.now());
  });
});

describe('BERTH_PAYMENTS=local: lists, the trial link and the details kept', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ defaultPlan: 'starter', payments: { mode: 'local', trialDays: 14, stripe: null } });
  });
  afterAll(() => t.close());

  it('answers the payment sources one page at a time, with the next and previous pages linked', async () => {
    const { owner, org } = await ownedOrganization(t);
    const added: string[] = [];
    for (const token of ['tok_visa', 'tok_mastercard', 'tok_visa']) {
      added.push((await addCard(t, owner, org.id, token)).json().id);
    }
    const first = (await t.call('GET', `${sourcesPath(org.id)}?per_page=2`, { token: owner.token })).json();
    expect(first).toMatchObject({ current_page: 1, per_page: 2, total_count: 3 });
    expect(first._embedded.stripe_sources.map((s: { id: string }) => s.id)).toEqual(added.slice(0, 2));
    expect(first._links.next.href).toBe(
      `${BILLING}/billing_details/${org.id}/stripe_sources?page=2&per_page=2`,
    );
    const second = (
      await t.call('GET', `${sourcesPath(org.id)}?page=2&per_page=2`, { token: owner.token })
    ).json();
    expect(second._embedded.stripe_sources.map((s: { id: string }) => s.id)).toEqual(added.slice(2));
    expect(second._links.next).toBeUndefined();
    expect(second._links.prev.href).toBe(
      `${BILLING}/billing_details/${org.id}/stripe_sources?page=1&per_page=2`,
    );
    // Without page: page 1 of at most 5000 (contract §1.4).
    const whole = (await t.call('GET', sourcesPath(org.id), { token: owner.token })).json();
    expect(whole).toMatchObject({ current_page: 1, per_page: 5000, total_count: 3 });

    const trials = (
      await t.call('GET', `${trialsPath(org.id)}?page=2&per_page=1`, { token: owner.token })
    ).json();
    expect(trials).toMatchObject({ current_page: 2, per_page: 1, total_count: 1 });
    expect(trials._embedded.trials).toEqual([]);
  });

  it("serves a trial at its self link to the organization's members only", async () => {
    const { owner, org } = await ownedOrganization(t);
    const stranger = await ownedOrganization(t, 'Elsewhere');
    const developer = await member(t, org.id, 'platform_user');
    const [trial] = (await t.call('GET', trialsPath(org.id), { token: owner.token })).json()._embedded.trials;
    const path = new URL(trial._links.self.href).pathname;
    expect(path).toBe(`/billing/trials/${trial.id}`);
    for (const user of [owner, developer]) {
      const answer = await t.call('GET', path, { token: user.token });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toEqual(trial);
    }
    expect((await t.call('GET', path)).statusCode).toBe(401);
    expect((await t.call('GET', path, { token: stranger.owner.token })).statusCode).toBe(404);
    expect((await t.call('GET', '/billing/trials/not-a-trial', { token: owner.token })).statusCode).toBe(404);
  });

  it('shows a member without billing access whether a payment source is active, not which card it is', async () => {
    const { owner, org } = await ownedOrganization(t);
    const developer = await member(t, org.id, 'platform_user');
    const card = (await addCard(t, owner, org.id, 'tok_visa')).json();
    const seen = await t.call('GET', `/billing/stripe_sources/${card.id}`, { token: developer.token });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({
      id: card.id,
      deactivated_at: null,
      description: '',
      stripe_token_id: '',
      stripe_metadata: null,
    });
  });

  it('keeps organization_details_json within its bound, however many changes add to it', async () => {
    const { owner, org } = await ownedOrganization(t);
    const message = 'organization_details_json must be at most 16384 characters';
    const tooMuch = await t.call('PATCH', detailPath(org.id), {
      token: owner.token,
      body: { organization_details_json: { notes: 'x'.repeat(17_000) } },
    });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().message).toBe(message);
    const kept = await t.call('PATCH', detailPath(org.id), {
      token: owner.token,
      body: { organization_details_json: { notes: 'x'.repeat(9_000) } },
    });
    expect(kept.statusCode).toBe(200);
    // Each change alone is small; together they would pass the bound.
    const added = await t.call('POST', '/billing/billing_details', {
      token: owner.token,
      body: { id: org.id, organization_details_json: { more: 'y'.repeat(9_000) } },
    });
    expect(added.statusCode).toBe(422);
    expect(added.json().message).toBe(message);
    const detail = (await t.call('GET', detailPath(org.id), { token: owner.token })).json();
    expect(detail.organization_details_json).toEqual({ notes: 'x'.repeat(9_000) });
  });
});

describe('BERTH_PAYMENTS=local with BERTH_TRIAL_DAYS=0', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ payments: { mode: 'local', trialDays: 0, stripe: null } });
  });
  afterAll(() => t.close());

  it('gives no trial', async () => {
    const { owner, org } = await ownedOrganization(t);
    expect((await t.call('GET', trialsPath(org.id), { token: owner.token })).json().total_count).toBe(0);
    expect(
      (await t.call('GET', detailPath(org.id), { token: owner.token })).json()._links.payment_method,
    ).toBeUndefined();
  });
});
