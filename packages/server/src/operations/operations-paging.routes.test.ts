import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, operations } from '../db/schema.ts';
import { addMember, grant } from '../testing/factories.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';
import { COUNT_CAP, cursorMessage } from './operations.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

/**
 * An organization with `count` finished operations on one app, one a minute back from now; every
 * seventh failed. Several share an update time, so the id must break ties.
 */
async function history(count: number) {
  const owner = await t.signUp();
  const org = await t.createOrganization(owner);
  const environment = await t.createEnvironment(owner, org.id, 'prod');
  const [app] = await t.db
    .insert(apps)
    .values({ environmentId: Number(environment.id), handle: 'web' })
    .returning();
  if (!app) throw new Error('no app');
  const now = Date.now();
  const rows = Array.from({ length: count }, (_, i) => {
    const at = new Date(now - Math.floor(i / 3) * 60_000);
    return {
      organizationId: org.id,
      environmentId: Number(environment.id),
      resourceType: 'app',
      resourceId: app.id,
      resourceHandle: 'web',
      type: 'restart',
      status: i % 7 === 0 ? 'failed' : 'succeeded',
      createdAt: at,
      updatedAt: at,
    };
  });
  for (let start = 0; start < rows.length; start += 1000) {
    await t.db.insert(operations).values(rows.slice(start, start + 1000));
  }
  return { owner, org, environment, app };
}

interface OperationList {
  _embedded: { operations: { id: string; status: string }[] };
  _links: { next?: { href: string }; prev?: { href: string } };
  total_count: number;
  total_count_estimated?: boolean;
}

async function list(token: string, url: string): Promise<OperationList> {
  const response = await t.call('GET', url.replace('http://berth.test', ''), { token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('paging the operation lists (issue 19)', () => {
  it('follows next links from a cursor, page by page, to the same rows as numbered pages', async () => {
    const h = await history(25);
    const base = `/api/organizations/${h.org.id}/operations`;
    const byNumber: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const answer = await list(h.owner.token, `${base}?page=${page}&per_page=10`);
      byNumber.push(...answer._embedded.operations.map((op) => op.id));
    }
    expect(new Set(byNumber).size).toBe(25);

    const byCursor: string[] = [];
    let url: string | undefined = `${base}?per_page=10`;
    const pages: OperationList[] = [];
    while (url) {
      const answer = await list(h.owner.token, url);
      pages.push(answer);
      byCursor.push(...answer._embedded.operations.map((op) => op.id));
      url = answer._links.next?.href;
    }
    expect(byCursor).toEqual(byNumber);
    expect(pages).toHaveLength(3);
    const second = new URL(pages[0]?._links.next?.href ?? '');
    expect(second.searchParams.get('page')).toBe('2');
    expect(second.searchParams.get('after')).toMatch(/^\d+\.\d+$/);
    expect(pages[2]?._links.next).toBeUndefined();
    expect(pages[2]?.total_count).toBe(25);
  });

  it('keeps the filters in the links around a page', async () => {
    const h = await history(25);
    const base = `/api/apps/${h.app.id}/operations`;
    const since = new Date(Date.now() - 14 * 86_400_000).toISOString();
    const first = await list(
      h.owner.token,
      `${base}?per_page=2&operation_status=failed&since=${since}&with_services=true`,
    );
    // Rows 0, 7, 14, 21 failed.
    expect(first.total_count).toBe(4);
    const next = new URL(first._links.next?.href ?? '');
    expect(next.searchParams.get('operation_status')).toBe('failed');
    expect(next.searchParams.get('since')).toBe(since);
    expect(next.searchParams.get('with_services')).toBe('true');
    const second = await list(h.owner.token, next.toString());
    expect(second._embedded.operations.map((op) => op.status)).toEqual(['failed', 'failed']);
    expect(new URL(second._links.prev?.href ?? '').searchParams.get('operation_status')).toBe('failed');
  });

  it.each(['yesterday', '12.', '.5', `${'9'.repeat(16)}.1`, `${'9'.repeat(15)}.1`, '1.2.3', 'x'.repeat(500)])(
    'refuses after=%s with a clear message',
    async (after) => {
      const h = await history(1);
      const response = await t.call(
        'GET',
        `/api/organizations/${h.org.id}/operations?after=${encodeURIComponent(after)}`,
        { token: h.owner.token },
      );
      expect(response.statusCode).toBe(422);
      expect(response.json().message).toBe(cursorMessage);
    },
  );

  it(`counts up to ${COUNT_CAP} rows, then estimates and still links the next page`, async () => {
    const h = await history(COUNT_CAP + 50);
    const base = `/api/organizations/${h.org.id}/operations`;
    const first = await list(h.owner.token, `${base}?per_page=40`);
    expect(first.total_count).toBe(COUNT_CAP);
    expect(first.total_count_estimated).toBe(true);
    // The last page the estimate names still links one further, and that one ends the list.
    const lastCounted = COUNT_CAP / 40;
    const deep = await list(h.owner.token, `${base}?per_page=40&page=${lastCounted}`);
    expect(deep.total_count).toBe(COUNT_CAP + 1);
    expect(deep._links.next).toBeDefined();
    const beyond = await list(h.owner.token, deep._links.next?.href ?? '');
    expect(beyond._embedded.operations).toHaveLength(40);
    const end = await list(h.owner.token, `${base}?per_page=40&page=${lastCounted + 2}`);
    expect(end._embedded.operations).toHaveLength(10);
    expect(end._links.next).toBeUndefined();
    // The last page knows the whole count: what came before it and its own rows.
    expect(end.total_count).toBe(COUNT_CAP + 50);
    expect(end.total_count_estimated).toBeUndefined();
    // A filter that matches fewer rows than the cap is counted exactly.
    const failed = await list(h.owner.token, `${base}?per_page=40&status=failed`);
    expect(failed.total_count).toBe(Math.ceil((COUNT_CAP + 50) / 7));
    expect(failed.total_count_estimated).toBeUndefined();
  });

  it('counts only the environments a member reads, and denies callers who may not read', async () => {
    const h = await history(3);
    const other = await t.createEnvironment(h.owner, h.org.id, 'other');
    const [otherApp] = await t.db
      .insert(apps)
      .values({ environmentId: Number(other.id), handle: 'api' })
      .returning();
    await t.db.insert(operations).values({
      organizationId: h.org.id,
      environmentId: Number(other.id),
      resourceType: 'app',
      resourceId: otherApp?.id as number,
      type: 'restart',
      status: 'succeeded',
    });
    const base = `/api/organizations/${h.org.id}/operations`;
    expect((await list(h.owner.token, base)).total_count).toBe(4);
    const member = await t.signUp();
    const role = await addMember(t.db, { organizationId: h.org.id, userId: member.id });
    await grant(t.db, { roleId: role.id, environmentId: h.environment.id, scope: 'basic_read' });
    const seen = await list(member.token, `${base}?per_page=2`);
    expect(seen.total_count).toBe(3);
    const next = await list(member.token, seen._links.next?.href ?? '');
    expect(next._embedded.operations).toHaveLength(1);
    expect((await t.call('GET', base)).statusCode).toBe(401);
    const stranger = await t.signUp();
    await t.createOrganization(stranger, 'Theirs');
    expect((await t.call('GET', base, { token: stranger.token })).statusCode).toBe(404);
  });
});
