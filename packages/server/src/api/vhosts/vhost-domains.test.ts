import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stacks } from '../../db/schema.ts';
import { seedApp, seedService } from '../../testing/factories.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';

// A custom domain belongs to one live endpoint of a stack: the shared edge routes by Host and SNI, so a
// second endpoint with it would take the first one's traffic, whichever organization owns either.

let t: TestApp;

interface Tenant {
  owner: TestUser;
  organizationId: string;
  serviceId: number;
}

let alpha: Tenant;
let beta: Tenant;

const taken = (domain: string) => `The domain ${domain} is already used by another endpoint on this stack.`;

/** An organization with an environment on the given stack (the shared default one when omitted) and a service. */
async function tenant(name: string, stackId?: number, existing?: Omit<Tenant, 'serviceId'>): Promise<Tenant> {
  const owner = existing?.owner ?? (await t.signUp({ name }));
  const organizationId = existing?.organizationId ?? (await t.createOrganization(owner, name)).id;
  const response = await t.call('POST', '/api/accounts', {
    token: owner.token,
    body: {
      handle: `${name.toLowerCase().replace(/\W+/g, '-')}-${stackId ?? 'shared'}`,
      organization_id: organizationId,
      type: 'development',
      ...(stackId ? { stack_id: String(stackId) } : {}),
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const environmentId = Number(response.json().id);
  const app = await seedApp(t.db, { environmentId, handle: 'shop', status: 'provisioned' });
  const service = await seedService(t.db, { environmentId, appId: app.id, handle: 'web' });
  return { owner, organizationId, serviceId: service.id };
}

function create(
  who: Tenant,
  domain: string,
  settings: Record<string, unknown> = { shared: true, acme: true },
) {
  return t.call('POST', `/api/services/${who.serviceId}/vhosts`, {
    token: who.owner.token,
    body: { type: 'http', ...settings, user_domain: domain },
  });
}

async function created(who: Tenant, domain: string): Promise<string> {
  const response = await create(who, domain);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

function expectTaken(response: Awaited<ReturnType<typeof create>>, domain: string) {
  expect(response.statusCode, response.body).toBe(422);
  expect(response.json()).toMatchObject({
    code: 422,
    error: 'unprocessable_entity',
    message: taken(domain),
    details: { user_domain: ['taken'] },
  });
}

beforeAll(async () => {
  t = await testApp();
  alpha = await tenant('Alpha');
  beta = await tenant('Beta');
});
afterAll(() => t.close());

describe('custom domains on one stack', () => {
  it("refuses another organization's endpoint for a domain in use, whatever its case", async () => {
    await created(alpha, 'shop.example.com');
    expectTaken(await create(beta, 'shop.example.com'), 'shop.example.com');
    expectTaken(await create(beta, 'SHOP.Example.COM.'), 'shop.example.com');
    // Not only shared endpoints: a dedicated one would answer for the domain too.
    expectTaken(await create(beta, 'shop.example.com', { acme: true }), 'shop.example.com');
  });

  it('refuses a second endpoint of the same organization too', async () => {
    await created(alpha, 'own.example.com');
    expectTaken(await create(alpha, 'Own.example.com'), 'own.example.com');
  });

  it('refuses changing an endpoint to a domain in use, and keeps its own domain changeable', async () => {
    await created(alpha, 'taken.example.com');
    const id = await created(beta, 'free.example.com');
    const moved = await t.call('PATCH', `/api/vhosts/${id}`, {
      token: beta.owner.token,
      body: { user_domain: 'Taken.Example.com' },
    });
    expectTaken(moved, 'taken.example.com');
    // Its own domain in another spelling, and other settings, are no conflict with itself.
    const same = await t.call('PATCH', `/api/vhosts/${id}`, {
      token: beta.owner.token,
      body: { user_domain: 'FREE.example.com.', ip_whitelist: ['10.0.0.0/8'] },
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ user_domain: 'free.example.com', ip_whitelist: ['10.0.0.0/8'] });
    const elsewhere = await t.call('PATCH', `/api/vhosts/${id}`, {
      token: beta.owner.token,
      body: { user_domain: 'still-free.example.com' },
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
  });

  it('lets exactly one of parallel requests for the same domain win', async () => {
    const attempts = await Promise.all(
      [alpha, beta, alpha, beta, alpha, beta].map((who, index) =>
        create(who, index % 2 ? 'RACE.example.com' : 'race.example.com'),
      ),
    );
    const statuses = attempts.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    for (const response of attempts.filter((r) => r.statusCode !== 201))
      expectTaken(response, 'race.example.com');
    const id = await created(beta, 'race-patch.example.com');
    const patches = await Promise.all([
      create(alpha, 'race-target.example.com'),
      t.call('PATCH', `/api/vhosts/${id}`, {
        token: beta.owner.token,
        body: { user_domain: 'race-target.example.com' },
      }),
    ]);
    // Either may win (the create with 201, the change with 200); the other is refused.
    const [createStatus, patchStatus] = patches.map((response) => response.statusCode);
    expect([
      [201, 422],
      [422, 200],
    ]).toContainEqual([createStatus, patchStatus]);
  });

  it('frees the domain once its endpoint is deleted: at once when pending, after deprovisioning otherwise', async () => {
    const pending = await created(alpha, 'reuse.example.com');
    expect((await t.call('DELETE', `/api/vhosts/${pending}`, { token: alpha.owner.token })).statusCode).toBe(
      204,
    );
    const live = await created(beta, 'reuse.example.com');

    const provision = await t.call('POST', `/api/vhosts/${live}/operations`, {
      token: beta.owner.token,
      body: { type: 'provision' },
    });
    expect(provision.statusCode, provision.body).toBe(201);
    await t.worker.drain();
    expect((await t.call('DELETE', `/api/vhosts/${live}`, { token: beta.owner.token })).statusCode).toBe(204);
    // Deprovisioning: the load balancer still answers for the domain until the operation is done.
    expectTaken(await create(alpha, 'reuse.example.com'), 'reuse.example.com');
    await t.worker.drain();
    expect((await t.call('GET', `/api/vhosts/${live}`, { token: beta.owner.token })).statusCode).toBe(404);
    await created(alpha, 'reuse.example.com');
  });

  it("refuses the stack's default domain and names under it, which default endpoints use", async () => {
    const defaultEndpoint = await t.call('POST', `/api/services/${alpha.serviceId}/vhosts`, {
      token: alpha.owner.token,
      body: { type: 'http', default: true, shared: true },
    });
    expect(defaultEndpoint.statusCode, defaultEndpoint.body).toBe(201);
    const hostname = defaultEndpoint.json().virtual_domain as string;
    expect(hostname).toBe('shop-alpha-shared.on-berth.localhost');
    for (const domain of [
      hostname,
      hostname.toUpperCase(),
      'on-berth.localhost',
      'shop-beta-shared.on-berth.localhost',
      'app-99999.on-berth.localhost',
    ]) {
      const response = await create(beta, domain);
      expect(response.statusCode, domain).toBe(422);
      expect(response.json().message).toBe(
        `The domain ${domain.toLowerCase()} belongs to this stack's default endpoints and cannot be used as a custom domain.`,
      );
    }
  });

  it('allows the same domain on different stacks', async () => {
    await created(alpha, 'two-stacks.example.com');
    const [dedicated] = await t.db
      .insert(stacks)
      .values({ name: 'beta-dedicated', region: 'us-east-1', organizationId: beta.organizationId })
      .returning();
    if (!dedicated) throw new Error('stack insert returned nothing');
    const onDedicated = await tenant('Beta', dedicated.id, beta);
    await created(onDedicated, 'two-stacks.example.com');
    // Still one per stack on the dedicated one.
    expectTaken(await create(onDedicated, 'Two-Stacks.example.com'), 'two-stacks.example.com');
  });
});
