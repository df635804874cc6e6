import {
  type BackupResource,
  type BackupRetentionPolicyResource,
  backupLabel,
  type RetentionPolicyValues,
} from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

/** contract §4.3 backup as the console reads it. */
export interface Backup {
  id: string;
  /** spec 2 §2: Manual, Final or Auto. */
  label: 'Manual' | 'Final' | 'Auto';
  sizeGb: number;
  region: string;
  createdByEmail: string;
  databaseHandle: string;
  /** Absent once the database is gone (an orphaned backup). */
  databaseId: string | null;
  environmentId: string;
  operationId: string | null;
  createdAt: string;
}

export function fromBackupResource(backup: BackupResource): Backup {
  return {
    id: idOf(backup),
    label: backupLabel(backup),
    sizeGb: backup.size,
    region: backup.aws_region,
    createdByEmail: backup.created_by_email,
    databaseHandle: backup.database_handle,
    databaseId: linkId(backup, 'database'),
    environmentId: linkId(backup, 'account') ?? '',
    operationId: linkId(backup, 'created_from_operation'),
    createdAt: backup.created_at,
  };
}

/** contract §4.3 backup_retention_policy: the newest of an environment is the one in force. */
export interface RetentionPolicy extends RetentionPolicyValues {
  id: string;
  createdAt: string;
}

export function fromRetentionPolicyResource(policy: BackupRetentionPolicyResource): RetentionPolicy {
  return {
    id: idOf(policy),
    daily: policy.daily,
    monthly: policy.monthly,
    yearly: policy.yearly,
    pitrDays: policy.pitr_days,
    makeCopy: policy.make_copy,
    keepFinal: policy.keep_final,
    createdAt: policy.created_at,
  };
}
