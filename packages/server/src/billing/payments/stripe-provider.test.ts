import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedStripeDelivery, startFakeStripe } from '../../testing/fake-stripe.ts';
import { type TestApp, testApp } from '../../testing/test-app.ts';
import { PaymentProviderUnavailable } from './payment-provider.ts';
import { createStripePaymentProvider } from './stripe-provider.ts';

const SECRET_KEY = 'sk_test_berthfake';
const WEBHOOK_SECRET = 'whsec_berthfakesecret';
const BILLING = 'http://berth.test/billing';

// The Stripe adapter against a stand-in speaking Stripe's documented wire format over loopback HTTP:
// the `stripe` package pointed at it by BERTH_STRIPE_API_URL (host, port and protocol).
let fake: Awaited<ReturnType<typeof startFakeStripe>>;
let t: TestApp;
beforeAll(async () => {
  fake = await startFakeStripe(SECRET_KEY);
  t = await testApp({
    payments: {
      mode: 'stripe',
      trialDays: 14,
      stripe: {
        secretKey: SECRET_KEY,
        publishableKey: 'pk_test_berthfake',
        webhookSecret: WEBHOOK_SECRET,
        apiUrl: fake.url,
      },
    },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function organizationWithCard(token = 'tok_visa') {
  const owner = await t.signUp();
  const org = await t.createOrganization(owner, 'Stripe Customer Inc');
  const added = await t.call('POST', `/billing/billing_details/${org.id}/stripe_sources`, {
    token: owner.token,
    body: { stripe_token_id: token },
  });
  return { owner, org, added };
}

/** A webhook delivery as Stripe makes it: the signed bytes, as JSON, with its Stripe-Signature. */
function deliver(body: string, signature: string) {
  return t.app.inject({
    method: 'POST',
    url: '/billing/stripe/webhooks',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    payload: body,
  });
}

describe('the Stripe adapter', () => {
  it('makes a customer for the organization and attaches the card token as a source, as Stripe documents', async () => {
    const before = fake.requests.length;
    const { org, added } = await organizationWithCard();
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      description: 'Visa ending in 4242',
      stripe_type: 'card',
      stripe_metadata: { brand: 'Visa', last4: '4242', exp_month: 12, exp_year: 2034 },
    });
    const [customer, source] = fake.requests.slice(before);
    expect(customer).toMatchObject({
      method: 'POST',
      path: '/v1/customers',
      authorization: `Bearer ${SECRET_KEY}`,
      idempotencyKey: expect.stringMatching(new RegExp(`^berth-customer-${org.id}-\\d+$`)),
      form: { name: 'Stripe Customer Inc', 'metadata[berth_organization_id]': org.id },
    });
    const customerId = [...fake.customers.values()].find(
      (c) => c.metadata.berth_organization_id === org.id,
    )?.id;
    expect(source).toMatchObject({
      method: 'POST',
      path: `/v1/customers/${customerId}/sources`,
      form: { source: 'tok_visa' },
    });
  });

  it('keeps one customer per organization: a second card goes to the same customer', async () => {
    const { owner, org } = await organizationWithCard();
    const before = fake.requests.length;
    const second = await t.call('POST', `/billing/billing_details/${org.id}/stripe_sources`, {
      token: owner.token,
      body: { stripe_token_id: 'tok_mastercard' },
    });
    expect(second.statusCode).toBe(201);
    expect(fake.requests.slice(before).map((r) => r.path)).toEqual([
      expect.stringMatching(/^\/v1\/customers\/cus_[0-9a-f]+\/sources$/),
    ]);
  });

  it("shows Stripe's own message for a declined card and keeps nothing", async () => {
    const { owner, org, added } = await organizationWithCard('tok_chargeDeclined');
    expect(added.statusCode).toBe(402);
    expect(added.json()).toMatchObject({ error: 'card_declined', message: 'Your card was declined.' });
    const detail = (await t.call('GET', `/billing/billing_details/${org.id}`, { token: owner.token })).json();
    expect(detail._links.payment_method).toBeUndefined();
  });

  it('applies a signed customer.source.deleted delivery: the card is deactivated and no longer the payment method', async () => {
    const { owner, org, added } = await organizationWithCard();
    const card = added.json();
    const detailPath = `/billing/billing_details/${org.id}`;
    expect((await t.call('GET', detailPath, { token: owner.token })).json()._links.payment_method.href).toBe(
      `${BILLING}/stripe_sources/${card.id}`,
    );
    const [row] = await t.db.query.paymentSources.findMany({ where: (s, { eq }) => eq(s.id, card.id) });
    const delivery = signedStripeDelivery(WEBHOOK_SECRET, {
      type: 'customer.source.deleted',
      object: {
        id: row?.externalId,
        object: 'card',
        brand: 'Visa',
        last4: '4242',
        funding: 'credit',
        exp_month: 12,
        exp_year: 2034,
      },
    });

    // A delivery signed with another secret, or tampered with after signing, changes nothing.
    const forged = signedStripeDelivery('whsec_notthesecret', {
      type: 'customer.source.deleted',
      object: { id: row?.externalId, object: 'card' },
    });
    for (const [body, signature] of [
      [forged.payload, forged.header],
      [delivery.payload.replace('customer.source.deleted', 'customer.source.updated'), delivery.header],
      [delivery.payload, ''],
    ] as const) {
      const refused = await deliver(body, signature);
      expect(refused.statusCode).toBe(400);
    }
    const still = (await t.call('GET', `${detailPath}/stripe_sources`, { token: owner.token })).json();
    expect(still._embedded.stripe_sources[0].deactivated_at).toBeNull();

    const accepted = await deliver(delivery.payload, delivery.header);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ received: true });
    const after = (await t.call('GET', `${detailPath}/stripe_sources`, { token: owner.token })).json();
    expect(after._embedded.stripe_sources[0].deactivated_at).toEqual(expect.any(String));
    expect(
      (await t.call('GET', detailPath, { token: owner.token })).json()._links.payment_method,
    ).toBeUndefined();
  });

  it('is served with BERTH_PAYMENTS=stripe only', async () => {
    const other = await testApp({ payments: { mode: 'local', trialDays: 14, stripe: null } });
    try {
      const delivery = signedStripeDelivery(WEBHOOK_SECRET, {
        type: 'customer.deleted',
        object: { id: 'cus_1' },
      });
      const answer = await other.app.inject({
        method: 'POST',
        url: '/billing/stripe/webhooks',
        headers: { 'content-type': 'application/json', 'stripe-signature': delivery.header },
        payload: delivery.payload,
      });
      expect(answer.statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('describes a card anew on customer.source.updated, and deactivates every card of a deleted customer', async () => {
    const { owner, org, added } = await organizationWithCard();
    const sourcesPath = `/billing/billing_details/${org.id}/stripe_sources`;
    const [row] = await t.db.query.paymentSources.findMany({
      where: (s, { eq }) => eq(s.id, added.json().id),
    });
    const updated = signedStripeDelivery(WEBHOOK_SECRET, {
      type: 'customer.source.updated',
      object: {
        id: row?.externalId,
        object: 'card',
        brand: 'Visa',
        last4: '4242',
        funding: 'credit',
        exp_month: 1,
        exp_year: 2040,
      },
    });
    expect((await deliver(updated.payload, updated.header)).statusCode).toBe(200);
    const [card] = (await t.call('GET', sourcesPath, { token: owner.token })).json()._embedded.stripe_sources;
    expect(card.stripe_metadata).toMatchObject({ exp_month: 1, exp_year: 2040 });

    const [detail] = await t.db.query.billingDetails.findMany({ where: (d, { eq }) => eq(d.id, org.id) });
    const deleted = signedStripeDelivery(WEBHOOK_SECRET, {
      type: 'customer.deleted',
      object: { id: detail?.customerId, object: 'customer' },
    });
    expect((await deliver(deleted.payload, deleted.header)).statusCode).toBe(200);
    const [gone] = (await t.call('GET', sourcesPath, { token: owner.token })).json()._embedded.stripe_sources;
    expect(gone.deactivated_at).toEqual(expect.any(String));
    // The next card goes to a new customer.
    const before = fake.requests.length;
    const again = await t.call('POST', sourcesPath, {
      token: owner.token,
      body: { stripe_token_id: 'tok_visa' },
    });
    expect(again.statusCode).toBe(201);
    const [newCustomer] = fake.requests.slice(before);
    expect(newCustomer?.path).toBe('/v1/customers');
    // Not the deleted customer's request again: Stripe would answer it with that customer.
    const first = fake.requests.find(
      (r) => r.path === '/v1/customers' && r.form['metadata[berth_organization_id]'] === org.id,
    );
    expect(newCustomer?.idempotencyKey).not.toBe(first?.idempotencyKey);
  });

  it('refuses a delivery signed with the right secret more than five minutes ago (a replay)', async () => {
    const { org, added } = await organizationWithCard();
    const [row] = await t.db.query.paymentSources.findMany({
      where: (s, { eq }) => eq(s.id, added.json().id),
    });
    const payload = JSON.stringify({
      id: 'evt_replayed',
      object: 'event',
      type: 'customer.source.deleted',
      data: { object: { id: row?.externalId, object: 'card' } },
    });
    const { createHmac } = await import('node:crypto');
    const signedAt = Math.floor(Date.now() / 1000) - 301;
    const signature = createHmac('sha256', WEBHOOK_SECRET).update(`${signedAt}.${payload}`).digest('hex');
    const refused = await deliver(payload, `t=${signedAt},v1=${signature}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('bad_signature');
    const [source] = await t.db.query.paymentSources.findMany({
      where: (s, { eq }) => eq(s.id, added.json().id),
    });
    expect(source?.deactivatedAt).toBeNull();
    expect(source?.billingDetailId).toBe(org.id);
  });

  it('refuses a signed delivery that is not JSON', async () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const { createHmac } = await import('node:crypto');
    const body = 'not json';
    const signature = createHmac('sha256', WEBHOOK_SECRET).update(`${timestamp}.${body}`).digest('hex');
    const refused = await deliver(body, `t=${timestamp},v1=${signature}`);
    expect(refused.statusCode).toBe(400);
  });

  it('says the card provider could not be reached when Stripe does not answer', async () => {
    const closed = await startFakeStripe(SECRET_KEY);
    await closed.close();
    const provider = createStripePaymentProvider({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiUrl: closed.url,
    });
    await expect(provider.createCustomer({ id: 'org-1', name: 'Nobody' }, 'org-1-0')).rejects.toBeInstanceOf(
      PaymentProviderUnavailable,
    );
  });

  it('calls a stand-in on an IPv6 loopback address (BERTH_STRIPE_API_URL=http://[::1]:PORT)', async () => {
    const ipv6 = await startFakeStripe(SECRET_KEY, '::1');
    try {
      const provider = createStripePaymentProvider({
        secretKey: SECRET_KEY,
        webhookSecret: WEBHOOK_SECRET,
        apiUrl: ipv6.url,
      });
      expect(ipv6.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      const customer = await provider.createCustomer({ id: 'org-6', name: 'Six' }, 'org-6-0');
      expect(customer).toMatch(/^cus_/);
      expect(ipv6.requests.map((request) => request.path)).toEqual(['/v1/customers']);
    } finally {
      await ipv6.close();
    }
  });

  it('acknowledges a signed event it has no use for', async () => {
    const delivery = signedStripeDelivery(WEBHOOK_SECRET, {
      type: 'invoice.created',
      object: { id: 'in_1', object: 'invoice' },
    });
    expect((await deliver(delivery.payload, delivery.header)).statusCode).toBe(200);
  });
});
