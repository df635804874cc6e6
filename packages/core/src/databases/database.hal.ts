import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';
import { operationResource } from '../operations/operation.hal.ts';

/** Contract §4.3 disk: sizes in GB; IOPS above the included 3000 are billed. */
export const diskResource = z
  .strictObject({
    id: halId,
    _type: z.literal('disk'),
    size: z.number().int(),
    provisioned_iops: z.number().int(),
    baseline_iops: z.number().int(),
    handle: z.string(),
    device: z.string(),
    filesystem: z.string(),
    host: z.string(),
    availability_zone: z.string(),
    ebs_volume_id: z.string(),
    ebs_volume_type: z.string(),
    instance_id: z.string(),
    current_kms_arn: z.string(),
    attached: z.boolean(),
    key_bytes: z.number().int(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'database', 'account']),
  })
  .meta({ id: 'Disk' });
export type DiskResource = z.infer<typeof diskResource>;

/**
 * Contract §4.3 database. `connection_url` is sensitive: it is the real URL only for callers with the
 * `sensitive` scope on the environment, and `""` for everyone else.
 */
export const databaseResource = z
  .strictObject({
    id: halId,
    _type: z.literal('database'),
    handle: z.string(),
    type: z.string(),
    status: z.string(),
    provisioned: z.boolean(),
    docker_repo: z.string(),
    current_kms_arn: z.string(),
    connection_url: z.string(),
    enable_backups: z.boolean(),
    enable_pitr: z.boolean(),
    port_mapping: z.array(z.tuple([z.number().int(), z.number().int()])),
    // Berth's own (issue 39): why the database cannot run now (its node is down), null when it can;
    // only a single database's answer carries it, lists leave it out.
    status_problem: z.string().nullable().optional(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    // contract §4.3: the relations the console reads (its other lists it finds by path, contract §5.8);
    // `operations` is left out of bare (no_embed) lists.
    _links: halLinks(
      ['self', 'account'],
      ['operations', 'service', 'database_image', 'disk', 'initialize_from'],
    ),
    _embedded: z
      .strictObject({ disk: diskResource.nullable(), last_operation: operationResource.nullable() })
      .optional(),
  })
  .meta({ id: 'Database' });
export type DatabaseResource = z.infer<typeof databaseResource>;

export const databaseCollection = halCollection('databases', databaseResource).meta({
  id: 'DatabaseCollection',
});
export type DatabaseCollection = z.infer<typeof databaseCollection>;

/** Contract §4.3 database credential (needs `sensitive`). */
export const databaseCredentialResource = z
  .strictObject({
    id: halId,
    _type: z.literal('database_credential'),
    type: z.string(),
    connection_url: z.string(),
    default: z.boolean(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'database']),
  })
  .meta({ id: 'DatabaseCredential' });
export type DatabaseCredentialResource = z.infer<typeof databaseCredentialResource>;

export const databaseCredentialCollection = halCollection(
  'database_credentials',
  databaseCredentialResource,
).meta({ id: 'DatabaseCredentialCollection' });
export type DatabaseCredentialCollection = z.infer<typeof databaseCredentialCollection>;

/**
 * Contract §4.3 backup. `database_handle` survives the database; `_links.database` is absent once it is
 * gone. `final` is Berth's own addition (the console labels a backup Manual, Final or Auto, spec 2 §2).
 * `copied_from` is `{id}` or null, never a partial backup (contract §8.18).
 */
export const backupResource = z
  .strictObject({
    id: halId,
    _type: z.literal('backup'),
    manual: z.boolean(),
    final: z.boolean(),
    size: z.number(),
    aws_region: z.string(),
    created_by_email: z.string(),
    database_handle: z.string(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(
      ['self', 'account', 'copies', 'operations'],
      ['database', 'database_image', 'created_from_operation'],
    ),
    _embedded: z.strictObject({ copied_from: z.strictObject({ id: halId }).nullable() }),
  })
  .meta({ id: 'Backup' });
export type BackupResource = z.infer<typeof backupResource>;

export const backupCollection = halCollection('backups', backupResource).meta({ id: 'BackupCollection' });
export type BackupCollection = z.infer<typeof backupCollection>;

/** Contract §4.3 backup_retention_policy: the newest of an environment is the one in force. */
export const backupRetentionPolicyResource = z
  .strictObject({
    id: halId,
    _type: z.literal('backup_retention_policy'),
    daily: z.number().int(),
    monthly: z.number().int(),
    yearly: z.number().int(),
    pitr_days: z.number().int(),
    make_copy: z.boolean(),
    keep_final: z.boolean(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'account']),
  })
  .meta({ id: 'BackupRetentionPolicy' });
export type BackupRetentionPolicyResource = z.infer<typeof backupRetentionPolicyResource>;

export const backupRetentionPolicyCollection = halCollection(
  'backup_retention_policies',
  backupRetentionPolicyResource,
).meta({ id: 'BackupRetentionPolicyCollection' });
export type BackupRetentionPolicyCollection = z.infer<typeof backupRetentionPolicyCollection>;
