import type {
  BackupResource,
  BackupRetentionPolicyResource,
  DatabaseCredentialResource,
  DatabaseResource,
  DiskResource,
} from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type {
  backupRetentionPolicies,
  backups,
  databaseCredentials,
  databases,
  disks,
} from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';
import { type OperationRow, toOperationHal } from '../../operations/operations.hal.ts';

export type DatabaseRow = typeof databases.$inferSelect;
export type DiskRow = typeof disks.$inferSelect;
export type BackupRow = typeof backups.$inferSelect;
export type CredentialRow = typeof databaseCredentials.$inferSelect;
export type RetentionPolicyRow = typeof backupRetentionPolicies.$inferSelect;

export interface DatabaseView {
  database: DatabaseRow;
  diskId: number | null;
  /** The real URL for a caller with `sensitive` on the environment, else "" (contract §4.3). */
  connectionUrl: string;
  /** Absent when the caller asked for `no_embed=true`. */
  embedded?: { disk: DiskRow | null; lastOperation: OperationRow | null };
  /** Why it cannot run now (issue 39), or null; absent from lists, which do not ask the runtime. */
  statusProblem?: string | null;
}

export function toDiskHal(disk: DiskRow, urls: FamilyUrls): DiskResource {
  const api = urls.api;
  return {
    id: String(disk.id),
    _type: 'disk',
    size: disk.size,
    provisioned_iops: disk.provisionedIops,
    baseline_iops: disk.baselineIops,
    handle: disk.handle,
    device: disk.device,
    filesystem: disk.filesystem,
    host: disk.host,
    availability_zone: disk.availabilityZone,
    ebs_volume_id: disk.ebsVolumeId,
    ebs_volume_type: disk.ebsVolumeType,
    instance_id: disk.instanceId,
    current_kms_arn: disk.currentKmsArn,
    attached: disk.attached,
    key_bytes: disk.keyBytes,
    created_at: iso(disk.createdAt),
    updated_at: iso(disk.updatedAt),
    _links: links({
      self: `${api}/disks/${disk.id}`,
      database: `${api}/databases/${disk.databaseId}`,
      account: `${api}/accounts/${disk.environmentId}`,
    }),
  };
}

export function toDatabaseHal(view: DatabaseView, urls: FamilyUrls): DatabaseResource {
  const { database, embedded } = view;
  const api = urls.api;
  const self = `${api}/databases/${database.id}`;
  return {
    id: String(database.id),
    _type: 'database',
    handle: database.handle,
    type: database.type,
    status: database.status,
    provisioned: database.provisioned,
    docker_repo: database.dockerRepo,
    current_kms_arn: database.currentKmsArn,
    connection_url: view.connectionUrl,
    enable_backups: database.enableBackups,
    enable_pitr: database.enablePitr,
    port_mapping: database.portMapping,
    ...(view.statusProblem !== undefined ? { status_problem: view.statusProblem } : {}),
    created_at: iso(database.createdAt),
    updated_at: iso(database.updatedAt),
    _links: links({
      self,
      account: `${api}/accounts/${database.environmentId}`,
      // Beyond the contract's links: left out of bare (no_embed) lists, whose 5000 rows stay lean.
      ...(embedded ? { operations: `${self}/operations` } : {}),
      service: database.serviceId ? `${api}/services/${database.serviceId}` : null,
      database_image: database.databaseImageId ? `${api}/database_images/${database.databaseImageId}` : null,
      disk: view.diskId ? `${api}/disks/${view.diskId}` : null,
      initialize_from: database.initializeFromId ? `${api}/databases/${database.initializeFromId}` : null,
    }),
    ...(embedded
      ? {
          _embedded: {
            disk: embedded.disk ? toDiskHal(embedded.disk, urls) : null,
            last_operation: embedded.lastOperation ? toOperationHal(embedded.lastOperation, urls) : null,
          },
        }
      : {}),
  };
}

export function toCredentialHal(
  credential: CredentialRow,
  connectionUrl: string,
  urls: FamilyUrls,
): DatabaseCredentialResource {
  return {
    id: String(credential.id),
    _type: 'database_credential',
    type: credential.type,
    connection_url: connectionUrl,
    default: credential.isDefault,
    created_at: iso(credential.createdAt),
    updated_at: iso(credential.updatedAt),
    _links: links({
      self: `${urls.api}/database_credentials/${credential.id}`,
      database: `${urls.api}/databases/${credential.databaseId}`,
    }),
  };
}

export function toBackupHal(backup: BackupRow, urls: FamilyUrls): BackupResource {
  const api = urls.api;
  const self = `${api}/backups/${backup.id}`;
  return {
    id: String(backup.id),
    _type: 'backup',
    manual: backup.kind === 'manual',
    final: backup.kind === 'final',
    size: backup.sizeGb,
    aws_region: backup.awsRegion,
    created_by_email: backup.createdByEmail,
    database_handle: backup.databaseHandle,
    created_at: iso(backup.createdAt),
    updated_at: iso(backup.updatedAt),
    _links: links({
      self,
      account: `${api}/accounts/${backup.environmentId}`,
      copies: `${self}/copies`,
      operations: `${self}/operations`,
      database: backup.databaseId ? `${api}/databases/${backup.databaseId}` : null,
      database_image: backup.databaseImageId ? `${api}/database_images/${backup.databaseImageId}` : null,
      created_from_operation: backup.createdFromOperationId
        ? `${api}/operations/${backup.createdFromOperationId}`
        : null,
    }),
    // contract §8.18: `{id}` only, never a partial backup.
    _embedded: { copied_from: backup.copiedFromId ? { id: String(backup.copiedFromId) } : null },
  };
}

export function toRetentionPolicyHal(
  policy: RetentionPolicyRow,
  urls: FamilyUrls,
): BackupRetentionPolicyResource {
  return {
    id: String(policy.id),
    _type: 'backup_retention_policy',
    daily: policy.daily,
    monthly: policy.monthly,
    yearly: policy.yearly,
    pitr_days: policy.pitrDays,
    make_copy: policy.makeCopy,
    keep_final: policy.keepFinal,
    created_at: iso(policy.createdAt),
    updated_at: iso(policy.updatedAt),
    _links: links({
      self: `${urls.api}/backup_retention_policies/${policy.id}`,
      account: `${urls.api}/accounts/${policy.environmentId}`,
    }),
  };
}
