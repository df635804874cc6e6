import { ACTIVITY_WINDOW_MS, activitySince, sinceMessages } from '@berth/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, operations } from '../db/schema.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

/** An app with one operation from three weeks ago and two from today. */
async function history() {
  const owner = await t.signUp();
  const org = await t.createOrganization(owner);
  const environment = await t.createEnvironment(owner, org.id, 'prod');
  const [app] = await t.db
    .insert(apps)
    .values({ environmentId: Number(environment.id), handle: 'web' })
    .returning();
  if (!app) throw new Error('no app');
  const start = (body: unknown) =>
    t.call('POST', `/api/apps/${app.id}/operations`, { token: owner.token, body });
  const old = (await start({ type: 'deploy', git_ref: 'old-ref' })).json();
  await start({ type: 'deploy', git_ref: 'new-ref' });
  await start({ type: 'configure', env: { A: '1' } });
  await t.worker.drain();
  const threeWeeksAgo = new Date(Date.now() - 21 * 24 * 60 * 60 * 1000);
  await t.db
    .update(operations)
    .set({ createdAt: threeWeeksAgo, updatedAt: threeWeeksAgo })
    .where(eq(operations.id, Number(old.id)));
  return { owner, org, environment, app };
}

const lists = (w: Awaited<ReturnType<typeof history>>) => [
  `/api/organizations/${w.org.id}/operations`,
  `/api/accounts/${w.environment.id}/operations`,
  `/api/apps/${w.app.id}/operations`,
];

describe('the since filter of the operation lists (spec 3 §9: Activity shows 2 weeks)', () => {
  it('keeps only operations created at or after since, and counts only those for paging', async () => {
    const w = await history();
    const since = encodeURIComponent(activitySince(Date.now()));
    for (const path of lists(w)) {
      const all = (await t.call('GET', path, { token: w.owner.token })).json();
      expect(all.total_count).toBe(3);
      const recent = (await t.call('GET', `${path}?page=1&since=${since}`, { token: w.owner.token })).json();
      expect(recent.total_count).toBe(2);
      expect(recent._embedded.operations.map((o: { type: string }) => o.type)).toEqual([
        'configure',
        'deploy',
      ]);
      // A page of one still finds the second recent operation on page 2, not an old one.
      const second = (
        await t.call('GET', `${path}?page=2&per_page=1&since=${since}`, { token: w.owner.token })
      ).json();
      expect(second._embedded.operations.map((o: { git_ref: string }) => o.git_ref)).toEqual(['new-ref']);
    }
    const longAgo = encodeURIComponent(new Date(Date.now() - 2 * ACTIVITY_WINDOW_MS).toISOString());
    const wider = (
      await t.call('GET', `/api/organizations/${w.org.id}/operations?since=${longAgo}`, {
        token: w.owner.token,
      })
    ).json();
    expect(wider.total_count).toBe(3);
  });

  it.each([
    ['yesterday', sinceMessages.invalid],
    ['2026-01-31', sinceMessages.invalid],
    ['1969-12-31T00:00:00Z', sinceMessages.outOfRange],
    ['2999-01-01T00:00:00Z', sinceMessages.outOfRange],
  ])('answers 422 with a clear message for since=%s', async (value, message) => {
    const w = await history();
    for (const path of lists(w)) {
      const response = await t.call('GET', `${path}?since=${encodeURIComponent(value)}`, {
        token: w.owner.token,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ message, details: { since: [message] } });
    }
  });

  it('is 401 without a token and 404 for another organization, with or without since', async () => {
    const w = await history();
    const stranger = await t.signUp();
    const since = encodeURIComponent(activitySince(Date.now()));
    for (const path of lists(w)) {
      expect((await t.call('GET', `${path}?since=${since}`)).statusCode).toBe(401);
      expect((await t.call('GET', `${path}?since=${since}`, { token: stranger.token })).statusCode).toBe(404);
    }
  });
});
