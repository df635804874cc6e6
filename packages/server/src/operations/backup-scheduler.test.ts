import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { backupRetentionPolicies, backups, operations } from '../db/schema.ts';
import { environmentSuite } from '../testing/environment-fixture.ts';
import { createBackupScheduler } from './backup-scheduler.ts';
import { createOperationsService } from './operations.service.ts';

const { t, f } = await environmentSuite();
const env = () => f.environment.id;
let clock = new Date();
let databaseId: number;

async function provisioned(handle: string, enableBackups = true) {
  const created = await t.call('POST', `/api/accounts/${env()}/databases`, {
    token: f.deployer.token,
    body: { handle, type: 'postgresql', enable_backups: enableBackups },
  });
  const id = Number(created.json().id);
  await t.call('POST', `/api/databases/${id}/operations`, {
    token: f.deployer.token,
    body: { type: 'provision' },
  });
  await t.worker.drain();
  return id;
}

const automatedOf = (type: string) =>
  t.db
    .select()
    .from(operations)
    .where(and(eq(operations.automated, true), eq(operations.type, type)));

// The scheduler runs on the test's clock, not the wall's: a day passes by moving `clock`.
const scheduler = createBackupScheduler({
  db: t.db,
  operations: createOperationsService({
    db: t.db,
    logsKey: new Uint8Array(32),
    limits: { queuedPerOrganization: 100, perUserPerMinute: 60 },
  }),
  now: () => clock,
});

beforeAll(async () => {
  databaseId = await provisioned('scheduled-db');
  await provisioned('no-backups-db', false);
});

describe('the backup scheduler', () => {
  it('takes one automatic backup a day of each database with backups on', async () => {
    expect(await scheduler.runOnce()).toMatchObject({ started: 1 });
    // Asked again before the worker ran it: still one.
    expect(await scheduler.runOnce()).toMatchObject({ started: 0 });
    const [op] = await automatedOf('backup');
    expect(op).toMatchObject({ resourceId: databaseId, automated: true, userId: null, userEmail: '' });
    await t.worker.drain();
    const taken = await t.db.select().from(backups).where(eq(backups.databaseId, databaseId));
    expect(taken.map((b) => b.kind)).toEqual(['auto']);
    expect(await scheduler.runOnce()).toMatchObject({ started: 0 });
    clock = new Date(clock.getTime() + 25 * 3_600_000);
    expect(await scheduler.runOnce()).toMatchObject({ started: 1 });
    await t.worker.drain();
    expect(await t.db.select().from(backups).where(eq(backups.databaseId, databaseId))).toHaveLength(2);
  });

  it('prunes automatic backups the policy no longer keeps, once, and never manual ones', async () => {
    // Back to today: today's automatic backup is there, so only pruning is due.
    clock = new Date();
    const old = (days: number) => new Date(Date.now() - days * 86_400_000);
    await t.db.insert(backups).values(
      [40, 60, 400].map((days) => ({
        environmentId: env(),
        databaseId,
        databaseHandle: 'scheduled-db',
        databaseType: 'postgresql',
        kind: 'auto',
        storageRef: `snap-old-${days}`,
        createdAt: old(days),
      })),
    );
    await t.db.insert(backups).values({
      environmentId: env(),
      databaseId,
      databaseHandle: 'scheduled-db',
      databaseType: 'postgresql',
      kind: 'manual',
      storageRef: 'snap-manual',
      createdAt: old(500),
    });
    await t.db.insert(backupRetentionPolicies).values({
      environmentId: env(),
      daily: 2,
      monthly: 0,
      yearly: 0,
      pitrDays: 0,
      makeCopy: false,
      keepFinal: true,
    });
    const first = await scheduler.runOnce();
    expect(first).toEqual({ started: 0, pruned: 3 });
    expect((await scheduler.runOnce()).pruned).toBe(0);
    await t.worker.drain();
    const left = await t.db.select().from(backups).where(eq(backups.databaseId, databaseId));
    expect(left.map((b) => b.kind).sort()).toEqual(['auto', 'auto', 'manual']);
    const purges = await automatedOf('purge');
    expect(purges.every((op) => op.status === 'succeeded')).toBe(true);
  });

  it('stops asking for an organization once its queue is full, until the next pass', async () => {
    await provisioned('queue-a');
    await provisioned('queue-b');
    await provisioned('queue-c');
    const service = createOperationsService({
      db: t.db,
      logsKey: new Uint8Array(32),
      // Room for one more queued operation in the organization, and no more.
      limits: { queuedPerOrganization: 1, perUserPerMinute: 60 },
    });
    const asked: string[] = [];
    const oneRoom = createBackupScheduler({
      db: t.db,
      operations: {
        enqueue: (input) => {
          if (input.type === 'backup') asked.push(input.resourceHandle);
          return service.enqueue(input);
        },
      },
      now: () => new Date(Date.now() + 10 * 86_400_000),
    });
    // Four databases are due (scheduled-db and the three new ones): the first is queued, the second is
    // refused as the queue is full, and the other two (in the same batch) are not asked for.
    expect((await oneRoom.runOnce()).started).toBe(1);
    expect(asked).toHaveLength(2);
    await t.worker.drain();
    // The next pass finds room again.
    expect((await oneRoom.runOnce()).started).toBe(1);
    expect(asked).toHaveLength(4);
  });
});
