import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, backups, databases, disks, permissions, services, stacks, vhosts } from '../../db/schema.ts';
import { addMember, grant } from '../../testing/factories.ts';
import { type TestApp, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

interface CostHal {
  id: string;
  _type: string;
  resource_type: string;
  est_cost: number;
  _links: Record<string, unknown>;
}

/**
 * One organization: environment "a" with app web (web 2 × 1 GB m5 = $116.80, worker 1 × 0.5 GB r5 =
 * $18.25) and an app without services; environment "b" with a database (1 × 1 GB c5 = $73.00); a
 * dedicated stack of its own ($499).
 */
async function seed() {
  const owner = await t.signUp();
  const org = await t.createOrganization(owner);
  const a = Number((await t.createEnvironment(owner, org.id, 'a')).id);
  const b = Number((await t.createEnvironment(owner, org.id, 'b')).id);
  const [web, idle] = await t.db
    .insert(apps)
    .values([
      { environmentId: a, handle: 'web' },
      { environmentId: a, handle: 'idle' },
    ])
    .returning();
  const [database] = await t.db
    .insert(databases)
    .values({ environmentId: b, handle: 'db', type: 'postgresql' })
    .returning();
  if (!web || !idle || !database) throw new Error('seed failed');
  const [webService, workerService, databaseService] = await t.db
    .insert(services)
    .values([
      { environmentId: a, appId: web.id, handle: 'web', containerCount: 2, containerMemoryLimitMb: 1024 },
      {
        environmentId: a,
        appId: web.id,
        handle: 'worker',
        containerCount: 1,
        containerMemoryLimitMb: 512,
        instanceClass: 'r5',
      },
      {
        environmentId: b,
        databaseId: database.id,
        handle: 'postgresql',
        containerCount: 1,
        containerMemoryLimitMb: 1024,
        instanceClass: 'c5',
      },
    ])
    .returning();
  if (!webService || !workerService || !databaseService) throw new Error('seed failed');
  const [dedicated] = await t.db
    .insert(stacks)
    .values({ name: `dedicated-${org.id.slice(0, 8)}`, region: 'us-east-1', organizationId: org.id })
    .returning();
  if (!dedicated) throw new Error('seed failed');
  return { owner, org, a, b, web, idle, database, webService, workerService, databaseService, dedicated };
}

async function costs(token: string, path: string): Promise<Map<string, number>> {
  const response = await t.call('GET', path, { token });
  expect(response.statusCode).toBe(200);
  const items: CostHal[] = response.json()._embedded.costs;
  for (const item of items) {
    expect(item._type).toBe('cost');
    expect(item._links).toEqual({});
  }
  return new Map(items.map((item) => [`${item.resource_type}:${item.id}`, item.est_cost]));
}

describe('GET /costs/:orgId/...', () => {
  it('costs services, apps, databases, environments and stacks from the rates', async () => {
    const s = await seed();
    const token = s.owner.token;
    const base = `/api/costs/${s.org.id}`;

    const serviceCosts = await costs(token, `${base}/services`);
    expect(serviceCosts.size).toBe(3);
    expect(serviceCosts.get(`Service:${s.webService.id}`)).toBeCloseTo(116.8, 6);
    expect(serviceCosts.get(`Service:${s.workerService.id}`)).toBeCloseTo(18.25, 6);
    expect(serviceCosts.get(`Service:${s.databaseService.id}`)).toBeCloseTo(73, 6);

    const appCosts = await costs(token, `${base}/apps`);
    expect(appCosts.size).toBe(2);
    expect(appCosts.get(`App:${s.web.id}`)).toBeCloseTo(135.05, 6);
    expect(appCosts.get(`App:${s.idle.id}`)).toBe(0);

    const databaseCosts = await costs(token, `${base}/databases`);
    expect([...databaseCosts.keys()]).toEqual([`Database:${s.database.id}`]);
    expect(databaseCosts.get(`Database:${s.database.id}`)).toBeCloseTo(73, 6);

    const accountCosts = await costs(token, `${base}/accounts`);
    expect(accountCosts.size).toBe(2);
    expect(accountCosts.get(`Account:${s.a}`)).toBeCloseTo(135.05, 6);
    expect(accountCosts.get(`Account:${s.b}`)).toBeCloseTo(73, 6);

    // A disk (100 GB = $20, 6000 IOPS = 3000 above the included × $0.01 = $30) and 10 GB of backups
    // ($0.20) add to the database; 5 GB of backups of a database that is gone ($0.10) to its environment.
    await t.db.insert(disks).values({
      databaseId: s.database.id,
      environmentId: s.b,
      handle: 'db-data',
      size: 100,
      provisionedIops: 6000,
    });
    const backup = { environmentId: s.b, databaseHandle: 'db', databaseType: 'postgresql', kind: 'auto' };
    await t.db.insert(backups).values([
      { ...backup, databaseId: s.database.id, sizeGb: 4 },
      { ...backup, databaseId: s.database.id, sizeGb: 6 },
      { ...backup, databaseId: null, databaseHandle: 'gone', sizeGb: 5 },
    ]);
    expect((await costs(token, `${base}/databases`)).get(`Database:${s.database.id}`)).toBeCloseTo(123.2, 6);
    expect((await costs(token, `${base}/accounts`)).get(`Account:${s.b}`)).toBeCloseTo(123.3, 6);

    const stackCosts = await costs(token, `${base}/stacks`);
    expect(stackCosts.get(`Stack:${s.dedicated.id}`)).toBe(499);
    const shared = (await t.call('GET', '/api/stacks', { token }))
      .json()
      ._embedded.stacks.find((stack: { name: string }) => stack.name === 'shared-us-west-1');
    expect(stackCosts.get(`Stack:${shared.id}`)).toBe(0);
  });

  it("adds up an environment's endpoints and storage as its apps and databases do", async () => {
    const s = await seed();
    const base = `/api/costs/${s.org.id}`;
    const endpoint = (
      serviceId: number,
      environmentId: number,
      externalHost: string | null,
      shared = false,
    ) => ({
      serviceId,
      environmentId,
      handle: `endpoint-${serviceId}-${shared}-${externalHost ?? 'none'}`,
      externalHost,
      shared,
    });
    await t.db.insert(vhosts).values([
      endpoint(s.webService.id, s.a, 'elb-1.example'),
      endpoint(s.workerService.id, s.a, 'elb-2.example', true),
      // Not on a load balancer yet: costs nothing.
      endpoint(s.webService.id, s.a, null),
      endpoint(s.databaseService.id, s.b, 'elb-3.example'),
    ]);
    await t.db.insert(disks).values({ databaseId: s.database.id, environmentId: s.b, handle: 'd', size: 20 });
    await t.db.insert(backups).values({
      environmentId: s.a,
      databaseId: null,
      databaseHandle: 'gone',
      databaseType: 'postgresql',
      kind: 'auto',
      sizeGb: 7,
    });
    const token = s.owner.token;
    const [appCosts, databaseCosts, accountCosts] = await Promise.all([
      costs(token, `${base}/apps`),
      costs(token, `${base}/databases`),
      costs(token, `${base}/accounts`),
    ]);
    const rates = (await t.call('GET', `${base}/rates`, { token })).json();
    const orphanBackups = 7 * rates.backup_cost_gb_per_month;
    expect(accountCosts.get(`Account:${s.a}`)).toBeCloseTo(
      (appCosts.get(`App:${s.web.id}`) ?? 0) + (appCosts.get(`App:${s.idle.id}`) ?? 0) + orphanBackups,
      6,
    );
    expect(accountCosts.get(`Account:${s.b}`)).toBeCloseTo(
      databaseCosts.get(`Database:${s.database.id}`) ?? 0,
      6,
    );
    // Two endpoints on the app (one shared) and one on the database moved the totals.
    expect(appCosts.get(`App:${s.web.id}`)).toBeGreaterThan(135.05);
    expect(databaseCosts.get(`Database:${s.database.id}`)).toBeGreaterThan(73 + 4);
  });

  it('answers the collection envelope and pages', async () => {
    const s = await seed();
    const response = await t.call('GET', `/api/costs/${s.org.id}/services?page=2&per_page=2`, {
      token: s.owner.token,
    });
    expect(response.json()).toMatchObject({ current_page: 2, per_page: 2, total_count: 3 });
    expect(response.json()._links.self.href).toBe(`http://berth.test/api/costs/${s.org.id}/services`);
    // Page 2 of two a page is the third service by id, priced as in the whole list.
    const whole = await costs(s.owner.token, `/api/costs/${s.org.id}/services`);
    const [third] = [...whole.keys()]
      .sort((x, y) => Number(x.split(':')[1]) - Number(y.split(':')[1]))
      .slice(2);
    const paged = response.json()._embedded.costs as CostHal[];
    expect(paged.map((cost) => `${cost.resource_type}:${cost.id}`)).toEqual([third]);
    expect(paged[0]?.est_cost).toBe(whole.get(third ?? ''));
  });

  it('prices each page of apps and databases by its own rows, the same as the whole list', async () => {
    const s = await seed();
    const token = s.owner.token;
    const base = `/api/costs/${s.org.id}`;
    // A second database, so the databases list has two pages of one.
    const [other] = await t.db
      .insert(databases)
      .values({ environmentId: s.a, handle: 'other', type: 'redis' })
      .returning();
    if (!other) throw new Error('seed failed');
    await t.db.insert(services).values({
      environmentId: s.a,
      databaseId: other.id,
      handle: 'redis',
      containerCount: 2,
      containerMemoryLimitMb: 512,
    });
    await t.db.insert(disks).values({ databaseId: other.id, environmentId: s.a, handle: 'o', size: 10 });
    const whole = new Map([
      ...(await costs(token, `${base}/apps`)),
      ...(await costs(token, `${base}/databases`)),
    ]);
    for (const list of ['apps', 'databases']) {
      const first = await t.call('GET', `${base}/${list}?per_page=1`, { token });
      expect(first.json()).toMatchObject({ current_page: 1, per_page: 1, total_count: 2 });
      expect(first.json()._links.next.href).toBe(`http://berth.test${base}/${list}?page=2&per_page=1`);
      for (const page of [1, 2]) {
        const paged = await costs(token, `${base}/${list}?per_page=1&page=${page}`);
        expect(paged.size).toBe(1);
        for (const [key, cost] of paged) expect(cost).toBeCloseTo(whole.get(key) ?? Number.NaN, 6);
      }
      expect((await costs(token, `${base}/${list}?per_page=1&page=3`)).size).toBe(0);
    }
    expect(whole.get(`Database:${other.id}`)).toBeCloseTo(2 * 0.5 * 0.08 * 730 + 10 * 0.2, 6);
    // The parts are added in one order whatever order their queries answer in: the same to the last digit.
    for (let call = 0; call < 5; call += 1) {
      expect(await costs(token, `${base}/databases`)).toEqual(await costs(token, `${base}/databases`));
    }
  });

  it('leaves out environments the member cannot see', async () => {
    const s = await seed();
    const member = await t.signUp();
    const role = await addMember(t.db, { organizationId: s.org.id, userId: member.id });
    await grant(t.db, { roleId: role.id, environmentId: String(s.a), scope: 'basic_read' });
    const base = `/api/costs/${s.org.id}`;
    expect([...(await costs(member.token, `${base}/accounts`)).keys()]).toEqual([`Account:${s.a}`]);
    expect((await costs(member.token, `${base}/services`)).size).toBe(2);
    expect((await costs(member.token, `${base}/apps`)).size).toBe(2);
    expect((await costs(member.token, `${base}/databases`)).size).toBe(0);
    // A page is counted in the environments the member sees, not the organization.
    const page = await t.call('GET', `${base}/apps?per_page=1`, { token: member.token });
    expect(page.json()).toMatchObject({ total_count: 2 });
    expect((await costs(member.token, `${base}/stacks`)).get(`Stack:${s.dedicated.id}`)).toBe(499);
  });

  it('prices a page whose id range runs through an environment the member cannot see by its own rows', async () => {
    const s = await seed();
    // An app in the hidden environment b, with services, between two apps of a by id.
    const [hidden, later] = await t.db
      .insert(apps)
      .values([
        { environmentId: s.b, handle: 'hidden' },
        { environmentId: s.a, handle: 'later' },
      ])
      .returning();
    if (!hidden || !later) throw new Error('seed failed');
    await t.db.insert(services).values([
      {
        environmentId: s.b,
        appId: hidden.id,
        handle: 'web',
        containerCount: 4,
        containerMemoryLimitMb: 1024,
      },
      { environmentId: s.a, appId: later.id, handle: 'web', containerCount: 1, containerMemoryLimitMb: 1024 },
    ]);
    const member = await t.signUp();
    const role = await addMember(t.db, { organizationId: s.org.id, userId: member.id });
    await grant(t.db, { roleId: role.id, environmentId: String(s.a), scope: 'basic_read' });
    const seen = await costs(member.token, `/api/costs/${s.org.id}/apps`);
    expect([...seen.keys()]).toEqual([`App:${s.web.id}`, `App:${s.idle.id}`, `App:${later.id}`]);
    // One 1 GB m5 container: the hidden app's four containers are not added to a neighbour.
    expect(seen.get(`App:${later.id}`)).toBeCloseTo(0.08 * 730, 6);
    expect((await costs(s.owner.token, `/api/costs/${s.org.id}/apps`)).get(`App:${hidden.id}`)).toBeCloseTo(
      4 * 0.08 * 730,
      6,
    );
  });

  it.each(['stacks', 'accounts', 'apps', 'databases', 'services', 'rates'])(
    '/%s: 401 without a token, 404 for a non-member or an unknown organization',
    async (list) => {
      const s = await seed();
      const stranger = await t.signUp();
      await t.createOrganization(stranger, 'Theirs');
      expect((await t.call('GET', `/api/costs/${s.org.id}/${list}`)).statusCode).toBe(401);
      const foreign = await t.call('GET', `/api/costs/${s.org.id}/${list}`, { token: stranger.token });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().message).toBe('Organization not found');
      expect(
        (await t.call('GET', `/api/costs/not-an-org/${list}`, { token: s.owner.token })).statusCode,
      ).toBe(404);
    },
  );
});

describe('kept costs pages (issue 40)', () => {
  const appsOf = async (token: string, base: string) => {
    const response = await t.call('GET', `${base}/apps`, { token });
    expect(response.statusCode).toBe(200);
    return response;
  };

  it('sends a page again as it was, and the change that moves its costs with the next call', async () => {
    const s = await seed();
    const base = `/api/costs/${s.org.id}`;
    const first = await appsOf(s.owner.token, base);
    const again = await appsOf(s.owner.token, base);
    expect(again.body).toBe(first.body);
    expect(again.headers['content-type']).toBe('application/hal+json; charset=utf-8');
    expect((await costs(s.owner.token, `${base}/apps`)).get(`App:${s.web.id}`)).toBeCloseTo(135.05, 6);

    // Scaled: web's service to 3 × 1 GB m5 ($175.20), the app to $193.45.
    await t.db.update(services).set({ containerCount: 3 }).where(eq(services.id, s.webService.id));
    expect((await costs(s.owner.token, `${base}/apps`)).get(`App:${s.web.id}`)).toBeCloseTo(193.45, 6);
    expect((await costs(s.owner.token, `${base}/services`)).get(`Service:${s.webService.id}`)).toBeCloseTo(
      175.2,
      6,
    );

    // An app that costs nothing yet changes the list all the same, and so does one removed.
    const [added] = await t.db.insert(apps).values({ environmentId: s.a, handle: 'new' }).returning();
    if (!added) throw new Error('insert failed');
    expect((await costs(s.owner.token, `${base}/apps`)).get(`App:${added.id}`)).toBe(0);
    await t.db.delete(apps).where(eq(apps.id, s.idle.id));
    const afterDelete = await costs(s.owner.token, `${base}/apps`);
    expect(afterDelete.has(`App:${s.idle.id}`)).toBe(false);
    expect(afterDelete.size).toBe(2);
  });

  it("keeps each member's page apart: one who sees less never gets the owner's page", async () => {
    const s = await seed();
    const base = `/api/costs/${s.org.id}`;
    expect((await costs(s.owner.token, `${base}/services`)).size).toBe(3);
    const member = await t.signUp();
    const role = await addMember(t.db, { organizationId: s.org.id, userId: member.id });
    await grant(t.db, { roleId: role.id, environmentId: String(s.b), scope: 'basic_read' });
    expect([...(await costs(member.token, `${base}/services`)).keys()]).toEqual([
      `Service:${s.databaseService.id}`,
    ]);
    // Granted environment a too: the same member's next call has its services.
    await grant(t.db, { roleId: role.id, environmentId: String(s.a), scope: 'basic_read' });
    expect((await costs(member.token, `${base}/services`)).size).toBe(3);
    await t.db.delete(permissions).where(eq(permissions.roleId, role.id));
    await grant(t.db, { roleId: role.id, environmentId: String(s.a), scope: 'basic_read' });
    expect([...(await costs(member.token, `${base}/services`)).keys()].sort()).toEqual(
      [`Service:${s.webService.id}`, `Service:${s.workerService.id}`].sort(),
    );
    // A page of another size or number is its own answer too.
    const one = await t.call('GET', `${base}/services?per_page=1&page=2`, { token: s.owner.token });
    expect(one.json()._embedded.costs.map((cost: CostHal) => cost.id)).toEqual([String(s.workerService.id)]);
    // Another organization's caller is still refused, however warm the page is.
    const stranger = await t.signUp();
    expect((await t.call('GET', `${base}/services`, { token: stranger.token })).statusCode).toBe(404);
  });

  it('sends the same page in brotli, gzip or as it is', async () => {
    const s = await seed();
    // Enough apps for the page to pass the compression threshold.
    await t.db
      .insert(apps)
      .values(Array.from({ length: 40 }, (_, i) => ({ environmentId: s.a, handle: `many-${i}` })));
    const url = `/api/costs/${s.org.id}/apps`;
    const plain = await t.call('GET', url, { token: s.owner.token });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()._embedded.costs).toHaveLength(42);
    for (const [accept, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      for (let i = 0; i < 2; i += 1) {
        const encoded = await t.call('GET', url, {
          token: s.owner.token,
          headers: { 'accept-encoding': accept },
        });
        expect(encoded.headers['content-encoding']).toBe(accept);
        expect(encoded.headers.vary).toContain('Accept-Encoding');
        expect(decode(encoded.rawPayload).toString()).toBe(plain.body);
      }
    }
  });
});

describe('GET /costs/:orgId/rates', () => {
  it('answers the rates as plain JSON', async () => {
    const s = await seed();
    const member = await t.signUp();
    await addMember(t.db, { organizationId: s.org.id, userId: member.id });
    const response = await t.call('GET', `/api/costs/${s.org.id}/rates`, { token: member.token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      m_class_gb_per_hour: 0.08,
      c_class_gb_per_hour: 0.1,
      r_class_gb_per_hour: 0.05,
      vhost_cost_per_hour: 0.06,
      shared_vhost_cost_per_hour: 0.04,
      disk_cost_gb_per_month: 0.2,
      disk_iops_cost_per_month: 0.01,
      backup_cost_gb_per_month: 0.02,
      stack_cost_per_month: 499,
      vpn_tunnel_cost_per_month: 99,
      hids_cost_per_month: 0.02,
    });
  });
});
