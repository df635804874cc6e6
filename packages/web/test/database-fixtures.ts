import type {
  BackupResource,
  BackupRetentionPolicyResource,
  DatabaseCredentialResource,
  DatabaseImageResource,
  DatabaseResource,
  DiskResource,
} from '@berth/core';
import { TEST_CONFIG } from './fixtures.ts';

// Server answers for databases, disks, credentials, images, backups and retention policies, typed by
// core's wire shapes: a fixture that drifts from what the server sends fails the type check.

const api = TEST_CONFIG.apiUrl;
const created = '2026-01-01T00:00:00.000Z';

export type DatabaseFixture = Partial<Omit<DatabaseResource, '_links'>> & {
  _links?: Partial<DatabaseResource['_links']>;
  /** The environment (wire: account) the database belongs to. */
  environmentId?: string;
};

/** contract §4.3 disk; by default 10 GB at 3000 IOPS, AES-256. */
export function diskResourceFixture(
  fields: Partial<DiskResource> & { databaseId?: string } = {},
): DiskResource {
  const { databaseId = '1', ...rest } = fields;
  const id = rest.id ?? '11';
  return {
    _type: 'disk',
    size: 10,
    provisioned_iops: 3000,
    baseline_iops: 3000,
    handle: 'orders-db-data',
    device: '/dev/xvdf',
    filesystem: 'ext4',
    host: 'ip-10-1-2-3.shared-us-west-1.sim',
    availability_zone: 'us-west-1a',
    ebs_volume_id: 'vol-0123456789abcdef0',
    ebs_volume_type: 'gp3',
    instance_id: 'i-0123456789abcdef0',
    current_kms_arn: '',
    attached: true,
    key_bytes: 32,
    created_at: created,
    updated_at: created,
    ...rest,
    id,
    _links: {
      self: { href: `${api}/disks/${id}` },
      database: { href: `${api}/databases/${databaseId}` },
      account: { href: `${api}/accounts/10` },
    },
  };
}

/** contract §4.3 database; by default a provisioned PostgreSQL 17 of environment 10, embedding its disk. */
export function databaseResourceFixture({
  environmentId = '10',
  ...fields
}: DatabaseFixture = {}): DatabaseResource {
  const id = fields.id ?? '1';
  const self = `${api}/databases/${id}`;
  return {
    _type: 'database',
    handle: 'orders-db',
    type: 'postgresql',
    status: 'provisioned',
    provisioned: true,
    docker_repo: 'postgres',
    current_kms_arn: '',
    connection_url: '',
    enable_backups: true,
    enable_pitr: false,
    port_mapping: [[5432, 5432]],
    created_at: created,
    updated_at: created,
    _embedded: { disk: diskResourceFixture({ databaseId: id }), last_operation: null },
    ...fields,
    id,
    _links: {
      self: { href: self },
      account: { href: `${api}/accounts/${environmentId}` },
      operations: { href: `${self}/operations` },
      service: { href: `${api}/services/21` },
      database_image: { href: `${api}/database_images/1` },
      disk: { href: `${api}/disks/11` },
      ...fields._links,
    },
  };
}

/** contract §4.3 database credential. */
export function databaseCredentialFixture(
  fields: Partial<DatabaseCredentialResource> = {},
): DatabaseCredentialResource {
  const id = fields.id ?? '31';
  return {
    _type: 'database_credential',
    type: 'postgresql',
    connection_url: 'postgresql://berth:s3cret-password@db-production-1.berth.internal:5432/db',
    default: true,
    created_at: created,
    updated_at: created,
    ...fields,
    id,
    _links: { self: { href: `${api}/database_credentials/${id}` }, database: { href: `${api}/databases/1` } },
  };
}

/** contract §4.3 database_image; by default PostgreSQL 17 (the default, with PITR). */
export function databaseImageFixture(fields: Partial<DatabaseImageResource> = {}): DatabaseImageResource {
  const id = fields.id ?? '1';
  return {
    _type: 'database_image',
    type: 'postgresql',
    version: '17',
    description: 'PostgreSQL 17',
    docker_repo: 'postgres',
    default: true,
    discoverable: true,
    visible: true,
    eol_at: null,
    pitr_supported: true,
    created_at: created,
    updated_at: created,
    ...fields,
    id,
    _links: { self: { href: `${api}/database_images/${id}` } },
  };
}

export type BackupFixture = Partial<Omit<BackupResource, '_links'>> & {
  _links?: Partial<BackupResource['_links']>;
  /** The database it was taken of; null for an orphaned backup. */
  databaseId?: string | null;
};

/** contract §4.3 backup; by default a manual 0.5 GB backup of database 1 in environment 10. */
export function backupResourceFixture({ databaseId = '1', ...fields }: BackupFixture = {}): BackupResource {
  const id = fields.id ?? '41';
  const self = `${api}/backups/${id}`;
  return {
    _type: 'backup',
    manual: true,
    final: false,
    size: 0.5,
    aws_region: 'us-west-1',
    created_by_email: 'owner@example.com',
    database_handle: 'orders-db',
    created_at: created,
    updated_at: created,
    _embedded: { copied_from: null },
    ...fields,
    id,
    _links: {
      self: { href: self },
      account: { href: `${api}/accounts/10` },
      copies: { href: `${self}/copies` },
      operations: { href: `${self}/operations` },
      ...(databaseId ? { database: { href: `${api}/databases/${databaseId}` } } : {}),
      created_from_operation: { href: `${api}/operations/51` },
      ...fields._links,
    },
  };
}

/** contract §4.3 backup_retention_policy; by default spec 2 §9's defaults. */
export function retentionPolicyFixture(
  fields: Partial<BackupRetentionPolicyResource> = {},
): BackupRetentionPolicyResource {
  const id = fields.id ?? '61';
  return {
    _type: 'backup_retention_policy',
    daily: 30,
    monthly: 12,
    yearly: 6,
    pitr_days: 0,
    make_copy: true,
    keep_final: true,
    created_at: created,
    updated_at: created,
    ...fields,
    id,
    _links: {
      self: { href: `${api}/backup_retention_policies/${id}` },
      account: { href: `${api}/accounts/10` },
    },
  };
}
