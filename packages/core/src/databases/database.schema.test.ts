import { describe, expect, it } from 'vitest';
import {
  backupLabel,
  backupPolicyMessages,
  backupRetentionPolicySchema,
  clampDiskSize,
  createDatabaseSchema,
  databaseContainerSize,
  databaseMessages,
  databaseVersionSupport,
  diskProblem,
  parsePitrTarget,
  restoreHandle,
  retentionPolicyWarnings,
  suggestDatabaseHandle,
} from './database.schema.ts';

describe('database handles (spec 2 §5)', () => {
  it('lower-cases before creation and keeps the handle rule', () => {
    expect(createDatabaseSchema.parse({ handle: ' Orders-DB ' }).handle).toBe('orders-db');
    expect(createDatabaseSchema.parse({ handle: 'x' }).enable_backups).toBe(true);
    const bad = createDatabaseSchema.safeParse({ handle: 'no spaces' });
    expect(bad.error?.issues[0]?.message).toBe(
      'Handle may contain only lowercase letters, digits, periods, hyphens and underscores',
    );
    expect(createDatabaseSchema.safeParse({ handle: 'a'.repeat(65) }).error?.issues[0]?.message).toBe(
      'Handle must be at most 64 characters',
    );
  });

  it('suggests environment, five random characters and the type, within 64 characters', () => {
    expect(suggestDatabaseHandle('production', 'postgresql', () => 0)).toBe('production-aaaaa-postgresql');
    expect(suggestDatabaseHandle('p'.repeat(70), 'redis').length).toBe(64);
  });

  it('defaults a restore handle to the handle, -at- and the backup time, cut to 64', () => {
    const at = new Date('2026-11-25T10:04:05.000Z');
    expect(restoreHandle('orders-db', at)).toBe('orders-db-at-2026-11-25-100405');
    expect(restoreHandle('d'.repeat(60), at)).toHaveLength(64);
  });
});

describe('sizes (spec 2 §5, §9)', () => {
  it('checks disk size and IOPS with their messages', () => {
    expect(diskProblem({ sizeGb: 9 })).toBe(databaseMessages.diskTooSmall);
    expect(diskProblem({ sizeGb: 16385 })).toBe(databaseMessages.diskTooLarge);
    expect(diskProblem({ sizeGb: 20, currentGb: 30 })).toBe(databaseMessages.diskShrink);
    expect(diskProblem({ sizeGb: 100, iops: 16001 })).toBe('IOPS must be at most 16,000');
    expect(diskProblem({ sizeGb: 10, iops: 6000 })).toBe(
      'Provisioned IOPS need at least 1 GB of disk per 500 IOPS',
    );
    expect(diskProblem({ sizeGb: 12, iops: 6000, currentGb: 10 })).toBeNull();
  });

  it('clamps the disk input and raises Elasticsearch to 1024 MB', () => {
    expect([clampDiskSize(1), clampDiskSize(20000), clampDiskSize(Number.NaN), clampDiskSize(20.4)]).toEqual([
      10, 16384, 10, 20,
    ]);
    expect(databaseContainerSize('elasticsearch', 512)).toBe(1024);
    expect(databaseContainerSize('postgresql', 512)).toBe(512);
  });
});

describe('the backup retention policy (spec 2 §5)', () => {
  const valid = { daily: 30, monthly: 12, yearly: 6, pitr_days: 0, make_copy: true, keep_final: true };
  it.each([
    [{ daily: 0 }, backupPolicyMessages.daily],
    [{ daily: 1.5 }, 'Daily backups must be a whole number greater than 0'],
    [{ monthly: -1 }, 'Monthly backups must be a whole number of 0 or more'],
    [{ yearly: 'x' }, 'Yearly backups must be a whole number of 0 or more'],
    [{ pitr_days: 15 }, 'PITR days must be a whole number from 0 to 14'],
  ])('refuses %o with its message', (change, message) => {
    expect(backupRetentionPolicySchema.safeParse({ ...valid, ...change }).error?.issues[0]?.message).toBe(
      message,
    );
  });

  it('warns before a change deletes automated backups or write-ahead logs', () => {
    const current = { daily: 30, monthly: 12, yearly: 6, pitrDays: 7, makeCopy: true, keepFinal: true };
    expect(retentionPolicyWarnings(current, current)).toEqual([]);
    expect(retentionPolicyWarnings(current, { ...current, daily: 14 })).toEqual([
      'Reducing the number of retained backups, or turning off copies or final backups, deletes existing automated backups.',
    ]);
    expect(retentionPolicyWarnings(current, { ...current, keepFinal: false, pitrDays: 0 })).toEqual([
      backupPolicyMessages.reducesBackups,
      'Disabling point-in-time recovery removes the write-ahead-log backups.',
    ]);
  });
});

describe('point-in-time targets and versions (spec 2 §2, §5)', () => {
  it('reads UTC yyyy-MM-dd HH:mm:ss only', () => {
    expect(parsePitrTarget('2026-11-25 10:04:05')?.toISOString()).toBe('2026-11-25T10:04:05.000Z');
    for (const text of [
      '2026-11-25T10:04:05',
      '2026-13-01 00:00:00',
      '2026-02-30 00:00:00',
      '2026-11-25 10:04',
    ]) {
      expect(parsePitrTarget(text)).toBeNull();
    }
  });

  it('tells a supported, an ending and a deprecated version apart (90 days of grace)', () => {
    const now = new Date('2026-11-25T00:00:00Z');
    expect(databaseVersionSupport(null, now)).toEqual({ state: 'supported' });
    expect(databaseVersionSupport('2026-10-01T00:00:00Z', now)).toEqual({
      state: 'ending',
      maintenanceEndsAt: new Date('2026-12-30T00:00:00Z'),
    });
    expect(databaseVersionSupport('2026-01-01T00:00:00Z', now)).toEqual({ state: 'deprecated' });
  });

  it('labels a backup Manual, Final or Auto', () => {
    expect(backupLabel({ manual: true, final: false })).toBe('Manual');
    expect(backupLabel({ manual: false, final: true })).toBe('Final');
    expect(backupLabel({ manual: false, final: false })).toBe('Auto');
  });

  it('says the spec texts of the flows', () => {
    expect(databaseMessages.alreadyProvisioned('orders-db')).toBe('Database (orders-db) already provisioned');
    expect(databaseMessages.operationDidNotSucceed('42')).toBe('Operation 42 did not succeed');
  });
});
