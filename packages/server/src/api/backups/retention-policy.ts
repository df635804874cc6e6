import { BACKUP_RETENTION_DEFAULTS, type RetentionPolicyValues } from '@berth/core';
import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { backupRetentionPolicies } from '../../db/schema.ts';

export type RetentionPolicyRow = typeof backupRetentionPolicies.$inferSelect;

/** The row of spec 2 §9's default policy for a new environment. */
export function defaultRetentionPolicy(environmentId: number) {
  return {
    environmentId,
    daily: BACKUP_RETENTION_DEFAULTS.daily,
    monthly: BACKUP_RETENTION_DEFAULTS.monthly,
    yearly: BACKUP_RETENTION_DEFAULTS.yearly,
    pitrDays: BACKUP_RETENTION_DEFAULTS.pitrDays,
    makeCopy: BACKUP_RETENTION_DEFAULTS.makeCopy,
    keepFinal: BACKUP_RETENTION_DEFAULTS.keepFinal,
  };
}

/** The policy in force in an environment: its newest, or the defaults when it never had one. */
export async function retentionPolicyInForce(
  db: DbOrTx,
  environmentId: number,
): Promise<RetentionPolicyValues> {
  const [row] = await db
    .select()
    .from(backupRetentionPolicies)
    .where(eq(backupRetentionPolicies.environmentId, environmentId))
    .orderBy(desc(backupRetentionPolicies.id))
    .limit(1);
  return row ?? defaultRetentionPolicy(environmentId);
}
