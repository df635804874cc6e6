import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases } from '../db/schema.ts';
import { seedRelease, seedService } from '../testing/factories.ts';
import { ownedApps } from '../testing/owned-apps.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';

// Contract §1.4: "A console that must show a whole list follows `_links.next`", so the next page of a
// searched or bare list is the next page of that same list, not of the whole one.

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

type Listed = {
  _embedded: Record<string, { handle?: string; id?: number | string; _embedded?: unknown }[]>;
  _links: { self: { href: string }; next?: { href: string }; prev?: { href: string } };
  total_count: number;
};

async function get(token: string, href: string): Promise<Listed> {
  const url = new URL(href, 'http://berth.test');
  const response = await t.call('GET', `${url.pathname}${url.search}`, { token });
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** Every page of a list from its first, by its next links, as the contract tells a client to read it. */
async function byNextLinks(token: string, first: string, key: string) {
  const pages = [await get(token, first)];
  for (let next = pages[0]?._links.next?.href; next; next = pages.at(-1)?._links.next?.href) {
    pages.push(await get(token, next));
  }
  return pages.map((page) => page._embedded[key] ?? []);
}

describe('the next and prev links of a list', () => {
  it('keep the search and no_embed of apps lists, both of every environment and of one', async () => {
    const { owner, environment } = await ownedApps(t, {
      environment: 'links',
      apps: ['alpha-1', 'beta-1', 'alpha-2', 'beta-2', 'alpha-3'],
    });
    const searched = await byNextLinks(
      owner.token,
      '/api/apps?search=alpha&no_embed=true&per_page=2',
      'apps',
    );
    expect(searched.map((page) => page.map((app) => app.handle))).toEqual([
      ['alpha-1', 'alpha-2'],
      ['alpha-3'],
    ]);
    expect(searched.flat().every((app) => app._embedded === undefined)).toBe(true);

    const first = await get(owner.token, `/api/accounts/${environment.id}/apps?no_embed=true&per_page=2`);
    expect(first._links.self.href).toContain('no_embed=true');
    const inEnvironment = await byNextLinks(
      owner.token,
      `/api/accounts/${environment.id}/apps?no_embed=true&per_page=2`,
      'apps',
    );
    expect(inEnvironment.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(inEnvironment.flat().every((app) => app._embedded === undefined)).toBe(true);
    // Asked again from page 2, the bare list (kept) answers the same links.
    const second = first._links.next?.href ?? '';
    const again = await get(owner.token, second);
    expect(again._links.prev?.href).toContain('no_embed=true');
    expect(new URL(again._links.next?.href ?? '').searchParams.get('page')).toBe('3');
  });

  it('keep the search and no_embed of databases lists', async () => {
    const { owner, environment } = await ownedApps(t, { environment: 'dbs', apps: [] });
    await t.db.insert(databases).values(
      ['main-a', 'cache', 'main-b', 'main-c'].map((handle) => ({
        environmentId: Number(environment.id),
        handle,
        type: 'postgresql',
      })),
    );
    const searched = await byNextLinks(
      owner.token,
      '/api/databases?search=main&no_embed=true&per_page=2',
      'databases',
    );
    expect(searched.map((page) => page.map((database) => database.handle))).toEqual([
      ['main-a', 'main-b'],
      ['main-c'],
    ]);
    expect(searched.flat().every((database) => database._embedded === undefined)).toBe(true);
    const inEnvironment = await byNextLinks(
      owner.token,
      `/api/accounts/${environment.id}/databases?no_embed=true&per_page=3`,
      'databases',
    );
    expect(inEnvironment.map((page) => page.length)).toEqual([3, 1]);
    expect(inEnvironment.flat().every((database) => database._embedded === undefined)).toBe(true);
  });

  it('keep with_deleted on the releases of a service', async () => {
    const {
      owner,
      environment,
      apps: [app],
    } = await ownedApps(t, { environment: 'releases', apps: ['web'] });
    const service = await seedService(t.db, {
      environmentId: Number(environment.id),
      appId: app?.id,
      handle: 'web',
    });
    for (let i = 0; i < 3; i++) await seedRelease(t.db, { serviceId: service.id });
    const first = await get(owner.token, `/api/services/${service.id}/releases?with_deleted=true&per_page=2`);
    expect(first.total_count).toBe(3);
    const next = new URL(first._links.next?.href ?? '');
    expect([next.searchParams.get('with_deleted'), next.searchParams.get('page')]).toEqual(['true', '2']);
    expect((await get(owner.token, next.toString()))._embedded.releases).toHaveLength(1);
  });
});
