import { beforeAll, describe, expect, it } from 'vitest';
import { apps } from '../db/schema.ts';
import { environmentSuite } from '../testing/environment-fixture.ts';

// Issue 19: no answer holds more than one page; without `page` a list is its page 1 and says where the
// next one is.

const { t, f } = await environmentSuite();
const COUNT = 5001;

beforeAll(async () => {
  const rows = Array.from({ length: COUNT }, (_, index) => ({
    environmentId: f.environment.id,
    handle: `app-${String(index).padStart(5, '0')}`,
  }));
  for (let start = 0; start < rows.length; start += 1000)
    await t.db.insert(apps).values(rows.slice(start, start + 1000));
});

describe('lists past one page', () => {
  it('answer page 1 of at most 5000 without `page`, with the total and the next page', async () => {
    for (const url of [
      '/api/apps',
      `/api/accounts/${f.environment.id}/apps`,
      '/api/apps?per_page=5000&no_embed=true',
    ]) {
      const first = await t.call('GET', url, { token: f.reader.token });
      expect(first.statusCode, url).toBe(200);
      const body = first.json();
      expect(body._embedded.apps, url).toHaveLength(5000);
      expect(body).toMatchObject({ current_page: 1, per_page: 5000, total_count: COUNT });
      expect(body._links.next.href, url).toContain('page=2');
    }
    const second = await t.call('GET', '/api/apps?per_page=5000&no_embed=true&page=2', {
      token: f.reader.token,
    });
    const body = second.json();
    expect(body._embedded.apps).toHaveLength(1);
    expect(body._embedded.apps[0].handle).toBe(`app-${String(COUNT - 1).padStart(5, '0')}`);
    expect(body._links.next).toBeUndefined();
  });

  it('never answers more than 5000 however many are asked for', async () => {
    const big = await t.call('GET', '/api/apps?per_page=50000', { token: f.reader.token });
    expect(big.json()._embedded.apps).toHaveLength(5000);
  });
});
