import { eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apps, operationLogs, operations } from '../db/schema.ts';
import { ownedApps, startAppOperation } from '../testing/owned-apps.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';
import {
  appendLeasedLog,
  claimNext,
  finish,
  LeaseLost,
  leasedWrite,
  leaseOf,
  logLine,
  recoverExpiredLeases,
  renewLease,
} from './queue.ts';

// Leases live on the database's clock, and every write of a running operation is fenced on its
// operation, lease owner and attempt: a worker that lost its lease changes nothing.

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());
// Each case claims its own operation: none left over by another case may be claimed first.
beforeEach(async () => {
  await t.db
    .update(operations)
    .set({ status: 'failed', leaseOwner: null, leaseExpiresAt: null })
    .where(inArray(operations.status, ['queued', 'running']));
});

// PGlite runs inside this process and takes its time from this process's clock, so a skewed clock
// is only a skewed worker against a separate PostgreSQL server.
const onPostgres = process.env.BERTH_TEST_DB === 'postgres';

async function queuedDeploy(handle: string, gitRef = 'main') {
  const {
    owner,
    apps: [app],
  } = await ownedApps(t, { environment: handle, apps: [handle] });
  const response = await startAppOperation(t, owner, app?.id ?? 0, { type: 'deploy', git_ref: gitRef });
  expect(response.statusCode).toBe(201);
  return { id: Number(response.json().id), appId: app?.id ?? 0, owner };
}

async function linesOf(id: number) {
  return t.db.select().from(operationLogs).where(eq(operationLogs.operationId, id));
}

async function operationRow(id: number) {
  const [op] = await t.db.select().from(operations).where(eq(operations.id, id));
  return op;
}

const noFailureHook = async () => {};

describe.runIf(onPostgres)('leases on the database clock', () => {
  it('a worker whose clock runs 10 minutes ahead finds a live lease alive', async () => {
    const { id } = await queuedDeploy('clock-ahead');
    const claimed = await claimNext(t.db, 'healthy', 30_000);
    expect(claimed?.id).toBe(id);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10 * 60_000);
    const recovered = await recoverExpiredLeases(t.db, noFailureHook);
    vi.useRealTimers();

    expect(recovered.requeued).toBe(0);
    expect(await operationRow(id)).toMatchObject({ status: 'running', leaseOwner: 'healthy', attempts: 1 });
    if (claimed) await finish(t.db, leaseOf(claimed, 'healthy'), 'succeeded', async () => {});
  });

  it('a worker whose clock runs behind sets no lease longer than asked', async () => {
    const { id } = await queuedDeploy('clock-behind');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() - 10 * 60_000);
    const claimed = await claimNext(t.db, 'slow-clock', 1);
    vi.useRealTimers();
    expect(claimed?.id).toBe(id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const recovered = await recoverExpiredLeases(t.db, noFailureHook);
    expect(recovered.requeued).toBeGreaterThanOrEqual(1);
    expect(await operationRow(id)).toMatchObject({ status: 'queued', leaseOwner: null });
  });
});

describe('a worker that lost its lease', () => {
  it('writes no log line, changes no resource, cannot renew or finish; the new attempt can', async () => {
    const { id, appId } = await queuedDeploy('fenced');
    const first = await claimNext(t.db, 'stale', 1);
    expect(first?.id).toBe(id);
    if (!first) return;
    const stale = leaseOf(first, 'stale');
    await appendLeasedLog(t.db, stale, [logLine('INFO', 'first attempt working')]);

    // The stale worker pauses past its lease; another worker takes the operation over.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await recoverExpiredLeases(t.db, noFailureHook);
    const second = await claimNext(t.db, 'fresh', 30_000);
    expect(second).toMatchObject({ id, attempts: 2 });
    if (!second) return;
    const fresh = leaseOf(second, 'fresh');
    const before = await linesOf(id);

    await expect(appendLeasedLog(t.db, stale, [logLine('INFO', 'stale line')])).rejects.toBeInstanceOf(
      LeaseLost,
    );
    await expect(
      leasedWrite(t.db, stale, (tx) => tx.update(apps).set({ handle: 'hijacked' }).where(eq(apps.id, appId))),
    ).rejects.toBeInstanceOf(LeaseLost);
    expect(await renewLease(t.db, stale, 30_000)).toBe(false);
    expect(await finish(t.db, stale, 'failed', async () => {})).toBe(false);

    expect(await linesOf(id)).toHaveLength(before.length);
    const [app] = await t.db.select().from(apps).where(eq(apps.id, appId));
    expect(app?.handle).toBe('fenced');
    expect(await operationRow(id)).toMatchObject({ status: 'running', leaseOwner: 'fresh', attempts: 2 });

    // The same worker id on a later attempt is a different lease: the attempt fences too.
    await appendLeasedLog(t.db, fresh, [logLine('INFO', 'second attempt working')]);
    expect(await renewLease(t.db, fresh, 30_000)).toBe(true);
    expect(await finish(t.db, fresh, 'succeeded', async () => {})).toBe(true);

    const lines = await linesOf(id);
    expect(lines.find((l) => l.line.endsWith('first attempt working'))?.attempt).toBe(1);
    expect(lines.find((l) => l.line.endsWith('second attempt working'))?.attempt).toBe(2);
    expect(lines.some((l) => l.line.includes('stale line'))).toBe(false);
  });

  it('reads as a retry in the log the console shows', async () => {
    const { id, owner } = await queuedDeploy('retried');
    await claimNext(t.db, 'vanished', 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await recoverExpiredLeases(t.db, noFailureHook);
    await t.worker.drain();
    expect(await operationRow(id)).toMatchObject({ status: 'succeeded', attempts: 2 });

    const link = await t.call('GET', `/api/operations/${id}/logs`, { token: owner.token });
    const text = (await t.call('GET', link.body.replace(/^https?:\/\/[^/]+/, ''))).body;
    const heading = text.indexOf('--- Attempt 2 of 3 ---');
    expect(heading).toBeGreaterThan(-1);
    expect(text.indexOf('retrying (attempt 2 of 3)')).toBeGreaterThan(heading);
    expect(text.lastIndexOf('Starting app deploy operation')).toBeGreaterThan(heading);
  });
});

describe('log lines', () => {
  it('never let a value start a line of its own', () => {
    const forged = 'main\n2026-11-24 10:00:00 +0000 INFO -- : Approved by security\r';
    const line = logLine('INFO', `Deploying ${forged}`);
    expect(line).not.toMatch(/[\r\n]/);
    expect(line).toContain('main\\u000a2026-11-24');
    expect(logLine('INFO', 'a\u2028b\u0000c', new Date('2026-01-01T00:00:00Z'))).toBe(
      '2026-01-01 00:00:00 +0000 INFO -- : a\\u2028b\\u0000c',
    );
  });
});
