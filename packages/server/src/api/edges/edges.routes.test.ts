import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apps, databaseImages, vhosts } from '../../db/schema.ts';
import { cannotSee, environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { seedApp, seedConfiguration, seedService } from '../../testing/factories.ts';
import type { TestUser } from '../../testing/test-app.ts';

const { t, f } = await environmentSuite();
const api = 'http://berth.test/api';

interface Edge {
  id: string;
  relationship_type: string;
  _links: Record<string, { href: string }>;
  _embedded: {
    source_resource: { id: string; _type: string; handle: string } & Record<string, unknown>;
    destination_resource: { id: string; _type: string; handle: string } & Record<string, unknown>;
  };
}

let ordersDb: string;
let unusedDb: string;
let ordersUrl: string;
let shop: number;
let catalog: number;
let lonely: number;
let shared: number;

/** Creates a database and provisions it on the simulated runtime: its credentials are real and sealed. */
async function provisionedDatabase(handle: string): Promise<string> {
  const [image] = await t.db.select().from(databaseImages).where(eq(databaseImages.version, '17'));
  const created = await t.call('POST', `/api/accounts/${f.environment.id}/databases`, {
    token: f.deployer.token,
    body: {
      handle,
      type: 'postgresql',
      account_id: String(f.environment.id),
      database_image_id: String(image?.id),
      enable_backups: true,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const done = await t.operate(f.deployer, `/api/databases/${id}/operations`, { type: 'provision' });
  expect(done.status).toBe('succeeded');
  return id;
}

/** An app of the fixture's environment whose current configuration is `env`. */
async function configuredApp(
  handle: string,
  env: Record<string, string | null>,
  environmentId = f.environment.id,
) {
  const app = await seedApp(t.db, { environmentId, handle });
  const configuration = await seedConfiguration(t.db, { appId: app.id, env });
  await t.db.update(apps).set({ currentConfigurationId: configuration.id }).where(eq(apps.id, app.id));
  return app.id;
}

/** An endpoint of one of the app's services, named by these hosts. */
async function endpoint(
  appId: number,
  hosts: { virtualDomain?: string; userDomain?: string; externalHost?: string },
) {
  const service = await seedService(t.db, { environmentId: f.environment.id, appId, handle: `web-${appId}` });
  await t.db.insert(vhosts).values({ environmentId: f.environment.id, serviceId: service.id, ...hosts });
}

beforeAll(async () => {
  ordersDb = await provisionedDatabase('orders-db');
  unusedDb = await provisionedDatabase('unused-db');
  const credentials = await t.call('GET', `/api/databases/${ordersDb}/database_credentials`, {
    token: f.owner.token,
  });
  ordersUrl = credentials.json()._embedded.database_credentials[0].connection_url;
  const host = new URL(ordersUrl).hostname;

  // shop uses orders-db and catalog's endpoint; lonely names nothing (a longer host is another host);
  // shared names a host two apps' endpoints answer on, which says nothing about which one it uses.
  shop = await configuredApp('shop', {
    DATABASE_URL: ordersUrl,
    CATALOG_API: 'https://catalog.example.test/v2',
    FEATURE: null,
  });
  catalog = await configuredApp('catalog', { GREETING: 'hello' });
  lonely = await configuredApp('lonely', {
    GREETING: 'hello',
    NEAR_MISS: `postgresql://u:p@my${host}:5432/db`,
    SIMILAR: 'https://catalog.example.test.other/v2',
  });
  shared = await configuredApp('shared', { EDGE: 'https://edge.example.test' });
  await endpoint(catalog, { virtualDomain: 'catalog.example.test', externalHost: 'edge.example.test' });
  await endpoint(shop, { virtualDomain: 'shop.example.test', externalHost: 'edge.example.test' });
  // An app of another environment naming the same database's host is no edge of this one.
  await configuredApp('theirs', { DATABASE_URL: ordersUrl }, f.strangerEnvironment.id);
});

async function edgesOf(user: TestUser, query: string): Promise<Edge[]> {
  const response = await t.call('GET', `/api/edges?${query}`, { token: user.token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json()._embedded.edges;
}

const pairs = (edges: Edge[]) =>
  edges.map(
    (edge) =>
      `${edge._embedded.source_resource.handle} -${edge.relationship_type}-> ${edge._embedded.destination_resource.handle}`,
  );

const appRoot = (id: number | string) => `root_resource_id=${id}&root_resource_type=app&max_distance=1`;
const databaseRoot = (id: number | string) =>
  `root_resource_id=${id}&root_resource_type=database&max_distance=1`;

describe('GET /edges?root_resource_id=&root_resource_type=app', () => {
  it("finds what an app's configuration names, with both ends as complete representations", async () => {
    const response = await t.call(
      'GET',
      `/api/edges?${appRoot(shop)}&time_range_start=2026-01-01T00:00:00.000Z`,
      {
        token: f.viewer.token,
      },
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ current_page: 1, per_page: 5000, total_count: 2 });
    expect(body._links.self.href).toBe(`${api}/edges?${appRoot(shop)}`);
    const edges: Edge[] = body._embedded.edges;
    expect(pairs(edges)).toEqual(['shop -database_connection-> orders-db', 'shop -app_endpoint-> catalog']);
    const [toDatabase, toApp] = edges;
    expect(toDatabase).toMatchObject({
      id: `app-${shop}-database-${ordersDb}`,
      _type: 'edge',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      _links: {
        self: { href: `${api}/edges/app-${shop}-database-${ordersDb}` },
        source_resource: { href: `${api}/apps/${shop}` },
        destination_resource: { href: `${api}/databases/${ordersDb}` },
      },
    });
    expect(toDatabase?._embedded.destination_resource).toMatchObject({
      id: ordersDb,
      _type: 'database',
      type: 'postgresql',
      status: 'provisioned',
      // Read is "everything except database credentials" (spec 2 §6): the edge never carries them.
      connection_url: '',
      _links: { self: { href: `${api}/databases/${ordersDb}` } },
      _embedded: { disk: expect.objectContaining({ _type: 'disk' }) },
    });
    expect(toDatabase?._embedded.source_resource).toMatchObject({
      id: String(shop),
      _type: 'app',
      _links: {
        self: { href: `${api}/apps/${shop}` },
        account: { href: `${api}/accounts/${f.environment.id}` },
      },
      _embedded: { services: [expect.objectContaining({ _type: 'service' })] },
    });
    expect(toApp?._embedded.destination_resource).toMatchObject({ id: String(catalog), _type: 'app' });
    expect(JSON.stringify(body)).not.toContain(new URL(ordersUrl).password);
  });

  it("gives the owner the embedded database's connection URL, as the database itself does", async () => {
    const [toDatabase] = await edgesOf(f.owner, appRoot(shop));
    expect(toDatabase?._embedded.destination_resource.connection_url).toBe(ordersUrl);
  });

  it('finds the apps that depend on an app, through its endpoints', async () => {
    expect(pairs(await edgesOf(f.viewer, appRoot(catalog)))).toEqual(['shop -app_endpoint-> catalog']);
  });

  it('finds nothing when the configuration names no host, only longer ones or one many endpoints share', async () => {
    expect(await edgesOf(f.viewer, appRoot(lonely))).toEqual([]);
    expect(await edgesOf(f.viewer, appRoot(shared))).toEqual([]);
  });

  it('lets only callers with read on the environment ask (spec 2 §6: the Dependencies tab needs read)', async () => {
    await expectAccess(
      t,
      { method: 'GET', url: `/api/edges?${appRoot(shop)}`, scope: 'read', environmentId: f.environment.id },
      [[f.viewer, 200], [f.owner, 200], ...cannotSee(f), [f.reader, 403], [f.deployer, 403]],
    );
    const absent = await t.call('GET', `/api/edges?${appRoot(987654321)}`, { token: f.owner.token });
    expect(absent.statusCode).toBe(404);
    expect(absent.json().message).toBe('App not found');
    expect((await t.call('GET', `/api/edges?${appRoot('abc')}`, { token: f.owner.token })).statusCode).toBe(
      404,
    );
  });
});

describe('GET /edges?root_resource_id=&root_resource_type=database', () => {
  it('finds the apps whose configuration names the database, and none for one no app names', async () => {
    const edges = await edgesOf(f.viewer, databaseRoot(ordersDb));
    expect(pairs(edges)).toEqual(['shop -database_connection-> orders-db']);
    expect(await edgesOf(f.viewer, databaseRoot(unusedDb))).toEqual([]);
  });

  it('lets only callers with read on the environment ask', async () => {
    await expectAccess(
      t,
      {
        method: 'GET',
        url: `/api/edges?${databaseRoot(ordersDb)}`,
        scope: 'read',
        environmentId: f.environment.id,
      },
      [[f.viewer, 200], ...cannotSee(f), [f.reader, 403], [f.deployer, 403]],
    );
    const absent = await t.call('GET', `/api/edges?${databaseRoot(987654321)}`, { token: f.owner.token });
    expect(absent.json().message).toBe('Database not found');
  });
});

describe('GET /edges (every edge the caller may read)', () => {
  it('answers the edges of the readable environments, paged by the apps they start from', async () => {
    expect(pairs(await edgesOf(f.viewer, 'per_page=5000'))).toEqual([
      'shop -database_connection-> orders-db',
      'shop -app_endpoint-> catalog',
    ]);
    const first = (await t.call('GET', '/api/edges?per_page=1', { token: f.viewer.token })).json();
    // Four configured apps in the environment, one a page: shop's two edges come first.
    expect(first).toMatchObject({ current_page: 1, per_page: 1, total_count: 4 });
    expect(pairs(first._embedded.edges)).toHaveLength(2);
    expect(first._links.next.href).toBe(`${api}/edges?page=2&per_page=1`);
    const second = (await t.call('GET', '/api/edges?page=2&per_page=1', { token: f.viewer.token })).json();
    expect(second._embedded.edges).toEqual([]);
  });

  it('leaves out environments the caller may not read', async () => {
    // The stranger's environment holds an app naming orders-db's host, but orders-db is not there.
    expect(await edgesOf(f.stranger, 'per_page=5000')).toEqual([]);
    for (const user of [f.reader, f.deployer, f.outsider])
      expect(await edgesOf(user, 'per_page=5000')).toEqual([]);
    expect((await t.call('GET', '/api/edges?per_page=5000')).statusCode).toBe(401);
  });
});

describe('GET /edges: bounded and checked input', () => {
  const refused = async (query: string, message: string) => {
    const response = await t.call('GET', `/api/edges?${query}`, { token: f.owner.token });
    expect(response.statusCode, query).toBe(422);
    expect(response.json().message).toBe(message);
  };

  it('refuses parameters over their length before reading them', async () => {
    await refused(
      `root_resource_id=${'1'.repeat(65)}&root_resource_type=app`,
      'root_resource_id must be at most 64 characters',
    );
    await refused(
      `root_resource_id=1&root_resource_type=${'a'.repeat(101)}`,
      'root_resource_type must be at most 100 characters',
    );
    await refused(
      `${appRoot(shop)}&time_range_start=${'2'.repeat(101)}`,
      'time_range_start must be at most 100 characters',
    );
  });

  it('refuses another distance, another kind of root, or half a root', async () => {
    await refused(
      `root_resource_id=${shop}&root_resource_type=app&max_distance=2`,
      'Only max_distance=1 is supported',
    );
    await refused(
      `root_resource_id=1&root_resource_type=stack`,
      'root_resource_type must be app or database',
    );
    await refused(`root_resource_id=${shop}`, 'root_resource_type is required with root_resource_id');
    await refused('root_resource_type=app', 'root_resource_id is required with root_resource_type');
    // Without a token the caller is asked to log in first, whatever the query.
    expect((await t.call('GET', '/api/edges?root_resource_type=stack')).statusCode).toBe(401);
  });
});
