import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A card as Stripe's API returns one (the fields Berth reads, and a few it does not). */
interface FakeCard {
  id: string;
  object: 'card';
  brand: string;
  funding: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  customer: string;
  country: string;
}

/** What the fake Stripe was asked, for tests to check the requests Berth made. */
export interface FakeStripeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  form: Record<string, string>;
}

const CARDS: Record<string, Pick<FakeCard, 'brand' | 'funding' | 'last4'>> = {
  tok_visa: { brand: 'Visa', funding: 'credit', last4: '4242' },
  tok_mastercard: { brand: 'MasterCard', funding: 'credit', last4: '4444' },
};

/**
 * A stand-in for Stripe's API on a loopback port, speaking its documented wire format: form-encoded
 * requests with a bearer secret key, JSON objects with `object` and `id`, and `{error: {type, code,
 * message}}` failures (402 card_error, 404 invalid_request_error). Only what the Stripe adapter calls.
 */
export async function startFakeStripe(secretKey: string, host = '127.0.0.1') {
  const requests: FakeStripeRequest[] = [];
  const customers = new Map<string, { id: string; name: string; metadata: Record<string, string> }>();
  const byIdempotencyKey = new Map<string, string>();

  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stripe.test');
      const form = Object.fromEntries(new URLSearchParams(body));
      const idempotencyKey = request.headers['idempotency-key'];
      requests.push({
        method: request.method ?? '',
        path: url.pathname,
        authorization: request.headers.authorization,
        idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
        form,
      });
      const send = (status: number, json: unknown) => {
        response.writeHead(status, {
          'content-type': 'application/json',
          'request-id': `req_${randomBytes(6).toString('hex')}`,
        });
        response.end(JSON.stringify(json));
      };
      const fail = (status: number, type: string, code: string, message: string, param?: string) =>
        send(status, { error: { type, code, message, ...(param ? { param } : {}) } });

      if (request.headers.authorization !== `Bearer ${secretKey}`) {
        return fail(401, 'invalid_request_error', 'api_key_invalid', 'Invalid API Key provided');
      }
      if (request.method === 'POST' && url.pathname === '/v1/customers') {
        const known = typeof idempotencyKey === 'string' ? byIdempotencyKey.get(idempotencyKey) : undefined;
        const id = known ?? `cus_${randomBytes(7).toString('hex')}`;
        const metadata: Record<string, string> = {};
        for (const [key, value] of Object.entries(form)) {
          const name = /^metadata\[([^\]]{1,40})\]$/.exec(key)?.[1];
          if (name) metadata[name] = value;
        }
        const customer = customers.get(id) ?? { id, name: form.name ?? '', metadata };
        customers.set(id, customer);
        if (typeof idempotencyKey === 'string') byIdempotencyKey.set(idempotencyKey, id);
        return send(200, {
          id,
          object: 'customer',
          name: customer.name,
          metadata: customer.metadata,
          livemode: false,
        });
      }
      const sources = /^\/v1\/customers\/([^/]+)\/sources$/.exec(url.pathname);
      if (request.method === 'POST' && sources) {
        const customerId = decodeURIComponent(sources[1] ?? '');
        if (!customers.has(customerId)) {
          return fail(
            404,
            'invalid_request_error',
            'resource_missing',
            `No such customer: '${customerId}'`,
            'id',
          );
        }
        const token = form.source ?? '';
        if (token === 'tok_chargeDeclined') {
          return fail(402, 'card_error', 'card_declined', 'Your card was declined.');
        }
        const card = CARDS[token];
        if (!card)
          return fail(
            400,
            'invalid_request_error',
            'resource_missing',
            `No such token: '${token}'`,
            'source',
          );
        const made: FakeCard = {
          id: `card_${randomBytes(8).toString('hex')}`,
          object: 'card',
          ...card,
          exp_month: 12,
          exp_year: 2034,
          customer: customerId,
          country: 'US',
        };
        return send(200, made);
      }
      fail(
        404,
        'invalid_request_error',
        'resource_missing',
        `Unrecognized request URL (${request.method}: ${url.pathname})`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    requests,
    customers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A webhook delivery as Stripe signs it (docs "Verify webhook signatures"): `Stripe-Signature:
 * t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>" keyed by the endpoint's whsec_ secret>`.
 */
export function signedStripeDelivery(
  secret: string,
  event: { type: string; object: Record<string, unknown> },
) {
  const payload = JSON.stringify({
    id: `evt_${randomBytes(8).toString('hex')}`,
    object: 'event',
    api_version: '2024-06-20',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: event.type,
    data: { object: event.object },
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return { payload, header: `t=${timestamp},v1=${signature}` };
}
