import { GLOBAL_SEARCH_MAX_RESULTS, SEARCH_QUERY_MAX_LENGTH } from '@berth/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { stacks, vhosts } from '../../db/schema.ts';
import { environmentSuite } from '../../testing/environment-fixture.ts';
import {
  addMember,
  grant,
  seedApp,
  seedDatabase,
  seedDeployment,
  seedOperation,
  seedService,
  seedSource,
} from '../../testing/factories.ts';
import type { TestUser } from '../../testing/test-app.ts';

const { t, f } = await environmentSuite();

interface Result {
  id: string;
  resource_type: string;
  title: string;
  description: string;
  _links: Record<string, { href: string }>;
}

const seeded: Record<string, string> = {};
let staging: { id: number };
let stagingReader: TestUser;
let strangerApp: { id: number };

beforeAll(async () => {
  const environmentId = f.environment.id;
  const storefront = await seedApp(t.db, { environmentId, handle: 'storefront' });
  const web = await seedService(t.db, {
    environmentId,
    appId: storefront.id,
    handle: 'web',
    dockerRepo: 'registry.example/acme/storefront-image',
  });
  const deploy = await seedOperation(t.db, {
    organizationId: f.organization.id,
    environmentId,
    resourceType: 'app',
    resourceId: storefront.id,
    type: 'deploy',
    status: 'succeeded',
  });
  const source = await seedSource(t.db, {
    organizationId: f.organization.id,
    displayName: 'Acme Monorepo',
    url: 'https://git.example/acme/monorepo.git',
  });
  const deployment = await seedDeployment(t.db, {
    appId: storefront.id,
    operationId: deploy.id,
    sourceId: source.id,
    gitRef: 'release-2026-spring',
    gitCommitSha: 'c0ffee1234abcdef',
  });
  const ledger = await seedDatabase(t.db, { environmentId, handle: 'ledger-db', type: 'postgresql' });
  const [endpoint] = await t.db
    .insert(vhosts)
    .values({ environmentId, serviceId: web.id, userDomain: 'shop.acme-search.example' })
    .returning();
  const [stack] = await t.db
    .insert(stacks)
    .values({ name: 'acme-dedicated-stack', region: 'eu-west-1', organizationId: f.organization.id })
    .returning();
  Object.assign(seeded, {
    app: String(storefront.id),
    service: String(web.id),
    deployment: String(deployment.id),
    source: String(source.id),
    database: String(ledger.id),
    endpoint: String(endpoint?.id),
    stack: String(stack?.id),
    environment: String(environmentId),
  });

  // A second environment of the same organization, and a member who may read only it.
  const created = await t.createEnvironment(f.owner, f.organization.id, 'staging');
  staging = { id: Number(created.id) };
  await seedApp(t.db, { environmentId: staging.id, handle: 'storefront-staging' });
  stagingReader = await t.signUp({ name: 'Staging Reader' });
  const role = await addMember(t.db, { organizationId: f.organization.id, userId: stagingReader.id });
  await grant(t.db, { roleId: role.id, environmentId: created.id, scope: 'basic_read' });

  // The stranger's organization has a storefront of its own.
  strangerApp = await seedApp(t.db, { environmentId: f.strangerEnvironment.id, handle: 'storefront-rival' });
});

async function search(user: TestUser | null, query: string) {
  return t.call('GET', `/api/search?${query}`, user ? { token: user.token } : {});
}

async function results(user: TestUser, text: string): Promise<Result[]> {
  const response = await search(user, `q=${encodeURIComponent(text)}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json()._embedded.search_results;
}

const keysOf = (found: Result[]) => found.map((result) => `${result.resource_type}-${result.id}`);

describe('GET /api/search (issue 38: global search)', () => {
  it('answers 401 without a token', async () => {
    expect((await search(null, 'q=storefront')).statusCode).toBe(401);
  });

  it.each([
    ['app', 'its handle', 'storefront'],
    ['app', 'part of its handle', 'orefro'],
    ['app', 'its id', () => seeded.app],
    ['database', 'its handle', 'LEDGER'],
    ['database', 'its engine', 'postgres'],
    ['environment', 'its handle', 'production'],
    ['endpoint', 'its host name', 'acme-search'],
    ['stack', 'its name', 'acme-dedicated'],
    ['deployment', 'its git ref', 'release-2026'],
    ['deployment', 'its commit', 'c0ffee12'],
    ['service', 'its image', 'storefront-image'],
    ['source', 'its name', 'monorepo'],
  ] as const)('finds the %s by %s', async (type, _by, text) => {
    const found = await results(f.owner, typeof text === 'function' ? (text() ?? '') : text);
    expect(keysOf(found)).toContain(`${type}-${seeded[type]}`);
  });

  it('names each result and links it where it lives', async () => {
    const found = await results(f.owner, 'c0ffee12');
    const deployment = found.find((result) => result.resource_type === 'deployment');
    expect(deployment).toMatchObject({
      id: seeded.deployment,
      title: 'release-2026-spring @ c0ffee1',
      description: 'storefront · production',
    });
    expect(deployment?._links.self?.href).toBe(`http://berth.test/api/deployments/${seeded.deployment}`);
    expect(deployment?._links.app?.href).toBe(`http://berth.test/api/apps/${seeded.app}`);
    const service = (await results(f.owner, 'storefront-image')).find(
      (result) => result.resource_type === 'service',
    );
    expect(service?._links.app?.href).toBe(`http://berth.test/api/apps/${seeded.app}`);
  });

  it('puts the closest match first: the id and the whole handle, then its start, then anywhere', async () => {
    const found = await results(f.owner, 'storefront');
    expect(keysOf(found)[0]).toBe(`app-${seeded.app}`);
    expect(found.map((result) => result.title)).toContain('storefront-staging');
  });

  it('never finds what the caller may not read', async () => {
    // The stranger's organization: none of this one's, only its own (and the public shared stack).
    const strangers = keysOf(await results(f.stranger, 'storefront'));
    expect(strangers).toEqual([`app-${strangerApp.id}`]);
    expect(keysOf(await results(f.stranger, 'acme'))).toEqual([]);
    expect(keysOf(await results(f.stranger, 'release-2026'))).toEqual([]);
    // A member without any permission on the environments: the organization's sources and stacks only.
    const outsider = await results(f.outsider, 'acme');
    expect(new Set(outsider.map((result) => result.resource_type))).toEqual(new Set(['source', 'stack']));
    expect(keysOf(await results(f.outsider, 'storefront'))).toEqual([]);
    // A member who reads only staging finds staging's app, never production's or its deployment.
    const stagingOnly = keysOf(await results(stagingReader, 'storefront'));
    expect(stagingOnly).toHaveLength(1);
    expect(stagingOnly[0]).toMatch(/^app-/);
    expect(stagingOnly).not.toContain(`app-${seeded.app}`);
    expect(keysOf(await results(stagingReader, seeded.app as string))).not.toContain(`app-${seeded.app}`);
    expect(keysOf(await results(stagingReader, 'c0ffee'))).toEqual([]);
  });

  it('answers at most 15, each type in turn within a closeness', async () => {
    for (let i = 0; i < 20; i += 1) {
      await seedApp(t.db, { environmentId: f.environment.id, handle: `bulk-${String(i).padStart(2, '0')}` });
    }
    await seedDatabase(t.db, { environmentId: f.environment.id, handle: 'bulk-store', type: 'redis' });
    const found = await results(f.owner, 'bulk');
    expect(found).toHaveLength(GLOBAL_SEARCH_MAX_RESULTS);
    // The database's handle starts with the text too: it is not crowded out by twenty apps.
    expect(found.map((result) => result.title)).toContain('bulk-store');
    // The apps come in their handles' order.
    const apps = found.filter((result) => result.resource_type === 'app').map((result) => result.title);
    expect(apps).toEqual([...apps].sort());
  });

  it('takes LIKE wildcards and backslashes literally', async () => {
    await seedApp(t.db, { environmentId: f.environment.id, handle: 'under_score' });
    expect(await results(f.owner, '%')).toEqual([]);
    expect(await results(f.owner, '_')).toEqual([]);
    expect(keysOf(await results(f.owner, 'underxscore'))).toEqual([]);
    expect((await results(f.owner, 'r_sc')).map((result) => result.title)).toEqual(['under_score']);
    expect((await results(f.owner, 'under_')).map((result) => result.title)).toEqual(['under_score']);
    expect(await results(f.owner, '\\')).toEqual([]);
  });

  it('answers nothing for a blank text, and refuses one over the limit before reading it', async () => {
    expect(await results(f.owner, '   ')).toEqual([]);
    const body = (await search(f.owner, '')).json();
    expect(body._embedded.search_results).toEqual([]);
    const tooLong = await search(f.owner, `q=${'a'.repeat(SEARCH_QUERY_MAX_LENGTH + 1)}`);
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().message).toBe(`Search text must be at most ${SEARCH_QUERY_MAX_LENGTH} characters`);
    expect((await search(f.owner, `q=${'a'.repeat(SEARCH_QUERY_MAX_LENGTH)}`)).statusCode).toBe(200);
  });
});

describe('GET /api/search?resources= (Recently Viewed and Most Visited)', () => {
  it('names the resources in the order asked, leaving out what the caller may not read', async () => {
    const asked = [`database-${seeded.database}`, `app-${strangerApp.id}`, `app-${seeded.app}`, 'app-987654'];
    const response = await search(f.owner, `resources=${asked.join(',')}`);
    expect(response.statusCode).toBe(200);
    expect(keysOf(response.json()._embedded.search_results)).toEqual([
      `database-${seeded.database}`,
      `app-${seeded.app}`,
    ]);
    const stranger = await search(f.stranger, `resources=${asked.join(',')}`);
    expect(keysOf(stranger.json()._embedded.search_results)).toEqual([`app-${strangerApp.id}`]);
    const every = Object.entries(seeded).map(([type, id]) => `${type}-${id}`);
    const all = await search(f.owner, `resources=${every.join(',')}`);
    expect(keysOf(all.json()._embedded.search_results)).toEqual(every);
  });

  it('refuses a malformed key, too many keys, and q with resources', async () => {
    const malformed = await search(f.owner, 'resources=app-1,vhost-2');
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().message).toBe('Not a resource key (type-id): vhost-2');
    const many = Array.from({ length: 31 }, (_, i) => `app-${i + 1}`).join(',');
    const tooMany = await search(f.owner, `resources=${many}`);
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().message).toBe('At most 30 resources can be named at once');
    const both = await search(f.owner, 'q=shop&resources=app-1');
    expect(both.statusCode).toBe(422);
    expect(both.json().message).toBe('Ask for q or for resources, not both');
    expect((await search(null, 'resources=app-1')).statusCode).toBe(401);
  });
});
