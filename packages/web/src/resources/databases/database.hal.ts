import type {
  DatabaseCredentialResource,
  DatabaseImageResource,
  DatabaseResource,
  DiskResource,
} from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';
import { fromOperationResource, type Operation } from '../operations/operation.hal.ts';

/** contract §4.3 disk as the console reads it. */
export interface Disk {
  id: string;
  sizeGb: number;
  provisionedIops: number;
  baselineIops: number;
  ebsVolumeType: string;
  /** spec 2 §2: shown as AES-(keyBytes × 8). */
  keyBytes: number;
  availabilityZone: string;
}

export function fromDiskResource(disk: DiskResource): Disk {
  return {
    id: idOf(disk),
    sizeGb: disk.size,
    provisionedIops: disk.provisioned_iops,
    baselineIops: disk.baseline_iops,
    ebsVolumeType: disk.ebs_volume_type,
    keyBytes: disk.key_bytes,
    availabilityZone: disk.availability_zone,
  };
}

/** contract §4.3 database as the console reads it: every database screen uses this. */
export interface Database {
  id: string;
  handle: string;
  /** The engine (`postgresql`, `redis`, …). */
  type: string;
  status: string;
  /**
   * Why it cannot run now (its node is lost, issue 39), as its runtime says; null when it can or when
   * the answer is a list's, which does not ask.
   */
  statusProblem: string | null;
  provisioned: boolean;
  environmentId: string;
  serviceId: string | null;
  databaseImageId: string | null;
  diskId: string | null;
  /** The source of a replica or copy (spec 2 §2 Replicates). */
  initializeFromId: string | null;
  /** Only for callers with the sensitive scope; "" otherwise. */
  connectionUrl: string;
  enableBackups: boolean;
  enablePitr: boolean;
  portMapping: [number, number][];
  /** Embedded unless the list asked for `no_embed`. */
  disk: Disk | null;
  lastOperation: Operation | null;
  createdAt: string;
  updatedAt: string;
}

export function fromDatabaseResource(database: DatabaseResource): Database {
  const disk = database._embedded?.disk ?? null;
  const last = database._embedded?.last_operation ?? null;
  return {
    id: idOf(database),
    handle: database.handle,
    type: database.type,
    status: database.status,
    statusProblem: database.status_problem ?? null,
    provisioned: database.provisioned,
    environmentId: linkId(database, 'account') ?? '',
    serviceId: linkId(database, 'service'),
    databaseImageId: linkId(database, 'database_image'),
    diskId: linkId(database, 'disk'),
    initializeFromId: linkId(database, 'initialize_from'),
    connectionUrl: database.connection_url,
    enableBackups: database.enable_backups,
    enablePitr: database.enable_pitr,
    portMapping: database.port_mapping,
    disk: disk ? fromDiskResource(disk) : null,
    lastOperation: last ? fromOperationResource(last) : null,
    createdAt: database.created_at,
    updatedAt: database.updated_at,
  };
}

/** contract §4.3 database credential (sensitive). */
export interface DatabaseCredential {
  id: string;
  type: string;
  connectionUrl: string;
  isDefault: boolean;
}

export function fromDatabaseCredentialResource(credential: DatabaseCredentialResource): DatabaseCredential {
  return {
    id: idOf(credential),
    type: credential.type,
    connectionUrl: credential.connection_url,
    isDefault: credential.default,
  };
}

/** contract §4.3 database_image: the engines and versions a database is created from. */
export interface DatabaseImage {
  id: string;
  type: string;
  version: string;
  description: string;
  isDefault: boolean;
  visible: boolean;
  eolAt: string | null;
  pitrSupported: boolean;
}

export function fromDatabaseImageResource(image: DatabaseImageResource): DatabaseImage {
  return {
    id: idOf(image),
    type: image.type,
    version: image.version,
    description: image.description,
    isDefault: image.default,
    visible: image.visible,
    eolAt: image.eol_at,
    pitrSupported: image.pitr_supported,
  };
}

/** A database whose operation is still changing it: its lists poll until it settles (spec 3 §4). */
export function isSettling(database: Pick<Database, 'status'>): boolean {
  return database.status === 'provisioning' || database.status === 'deprovisioning';
}
