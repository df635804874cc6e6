import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { testApp } from '../../testing/test-app.ts';
import { type Readable, searchArms } from './search.service.ts';

const t = await testApp();
afterAll(() => t.close());

const SEARCHED = ['apps', 'databases', 'services', 'vhosts', 'deployments', 'sources'];

/** The plan of a search's statement, with sequential scans priced out so any usable index is taken. */
async function planOf(needle: string): Promise<string> {
  const scope: Readable = {
    environments: [],
    stacks: [],
    in: () => [1, 2],
    sourceOrganizations: ['00000000-0000-4000-8000-000000000000'],
  };
  return t.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const result = await tx.execute(sql`explain ${sql.join(searchArms(scope, needle), sql` union all `)}`);
    return (result as unknown as { rows: { 'QUERY PLAN': string }[] }).rows
      .map((row) => row['QUERY PLAN'])
      .join('\n');
  });
}

describe('global search reads indexes, never whole tables (issue 38: fast at 50,000 apps)', () => {
  it('finds text anywhere through the trigram indexes, and handles by their start in order', async () => {
    const plan = await planOf('shop');
    for (const table of SEARCHED) {
      expect(plan).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
      expect(plan).toContain(`${table}_search_trgm_idx`);
    }
    for (const table of ['apps', 'databases', 'services'])
      expect(plan).toContain(`${table}_handle_prefix_idx`);
  });

  it('finds an id by primary key, and short text by the handles’ start only', async () => {
    const byId = await planOf('42');
    for (const table of SEARCHED) {
      expect(byId).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
      expect(byId).toContain(`${table}_pkey`);
    }
    const short = await planOf('sh');
    expect(short).not.toContain('_search_trgm_idx');
    expect(short).not.toMatch(/Seq Scan on (apps|databases|services)\b/);
  });
});
