import { describe, expect, it } from 'vitest';
import { json, mockServer } from '../../test/fetch-mock.ts';
import { signIn } from '../../test/render.tsx';
import { allPages, itemsByNextLink, pagePath } from './all-pages.ts';

const page = (items: unknown[], total: number, perPage: number) => ({
  _embedded: { apps: items },
  _links: {},
  per_page: perPage,
  total_count: total,
});

describe('allPages (issue 19: a list the console shows is complete)', () => {
  it('reads page 1 at its own address, then the other pages in parallel', async () => {
    signIn();
    const server = mockServer({
      'GET /api/apps?per_page=2&no_embed=true': () => json(200, page([{ id: 1 }, { id: 2 }], 5, 2)),
      'GET /api/apps?per_page=2&no_embed=true&page=2': () => json(200, page([{ id: 3 }, { id: 4 }], 5, 2)),
      'GET /api/apps?per_page=2&no_embed=true&page=3': () => json(200, page([{ id: 5 }], 5, 2)),
    });
    const items = await allPages<{ id: number }>('api', '/apps?per_page=2&no_embed=true', 'apps');
    expect(items.map((item) => item.id)).toEqual([1, 2, 3, 4, 5]);
    expect(server.calls.map((call) => call.path)).toHaveLength(3);
  });

  it('asks once for a list that fits one page', async () => {
    signIn();
    const server = mockServer({ 'GET /api/apps': () => json(200, page([{ id: 1 }], 1, 5000)) });
    expect(await allPages('api', '/apps', 'apps')).toEqual([{ id: 1 }]);
    expect(server.calls).toHaveLength(1);
  });

  it('builds a page address with or without a query', () => {
    expect(pagePath('/apps', 2)).toBe('/apps?page=2');
    expect(pagePath('/apps?per_page=5000', 3)).toBe('/apps?per_page=5000&page=3');
  });
});

describe('itemsByNextLink (contract §1.4: a whole list follows `_links.next`)', () => {
  it('reads each page at the address the previous one names, whatever its total says', async () => {
    signIn();
    const next = 'http://berth.test/api/apps?page=2&per_page=5000';
    const server = mockServer({
      'GET /api/apps?per_page=5000': () =>
        json(200, { ...page([{ id: 1 }], 2, 5000), _links: { next: { href: next } } }),
      'GET /api/apps?page=2&per_page=5000': () => json(200, page([{ id: 2 }], 2, 5000)),
    });
    const items = await itemsByNextLink<{ id: number }>('api', '/apps?per_page=5000', 'apps');
    expect(items.map((item) => item.id)).toEqual([1, 2]);
    expect(server.calls.map((call) => call.path)).toEqual([
      '/api/apps?per_page=5000',
      '/api/apps?page=2&per_page=5000',
    ]);
  });
});
