import { z } from 'zod';
import { HANDLE_MAX_LENGTH, handleMessages } from '../environments/environment.schema.ts';
import { requiredMessage } from '../identity/identity-rules.ts';
import { boundedString } from '../text/bounded-string.ts';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';
import { plainText } from '../text/plain-text.ts';

// spec 2 §2, §5 and §9: what a database, its disk, its backups and its environment's retention policy
// accept, written once for the server's checks and the console's forms.

/** spec 2 §9: provisioning and restore defaults. */
export const DATABASE_DEFAULTS = {
  containerSizeMb: 1024,
  diskSizeGb: 10,
  provisionedIops: 3000,
  instanceProfile: 'm5',
} as const;

/** spec 2 §5 and §9. */
export const DISK_LIMITS = {
  minGb: 10,
  maxGb: 16384,
  maxIops: 16000,
  /** At least 1 GB of disk per this many IOPS. */
  iopsPerGb: 500,
  /** A disk grows at most once in this many hours. */
  resizeEveryHours: 24,
} as const;

/** spec 2 §2: Elasticsearch runs in at least 1 GB of memory. */
export const ELASTICSEARCH_MIN_CONTAINER_MB = 1024;

/** spec 2 §9: backup retention defaults, and the PITR window's range. */
export const BACKUP_RETENTION_DEFAULTS = {
  daily: 30,
  monthly: 12,
  yearly: 6,
  pitrDays: 0,
  makeCopy: true,
  keepFinal: true,
} as const;
export const MAX_PITR_DAYS = 14;

/** spec 2 §2: a version past its end of life is maintained for this many days more. */
export const DATABASE_EOL_GRACE_DAYS = 90;

export const databaseMessages = {
  duplicate: (handle: string) => `A database with the handle "${handle}" already exists in this environment`,
  imageRequired: 'Must pick a database type and version',
  imageUnknown: 'That database type and version is not offered',
  // spec 2 §4 and §8.
  alreadyProvisioned: (handle: string) => `Database (${handle}) already provisioned`,
  operationDidNotSucceed: (id: string) => `Operation ${id} did not succeed`,
  diskTooSmall: `Disk size must be at least ${DISK_LIMITS.minGb} GB`,
  diskTooLarge: `Disk size must be at most ${DISK_LIMITS.maxGb} GB`,
  diskShrink: 'The disk size can only grow',
  diskOncePerDay: 'The disk can be resized only once a day',
  iopsTooHigh: `IOPS must be at most ${DISK_LIMITS.maxIops.toLocaleString('en-US')}`,
  iopsNeedDisk: `Provisioned IOPS need at least 1 GB of disk per ${DISK_LIMITS.iopsPerGb} IOPS`,
  elasticsearchMemory: `Elasticsearch needs a container size of at least ${ELASTICSEARCH_MIN_CONTAINER_MB} MB`,
  dependents: (handles: string[]) =>
    `This database cannot be deprovisioned while other databases depend on it: ${handles.join(', ')}`,
  notReplica: 'This database is not a replica',
  pitrNotSupported: 'Point-in-time recovery is not supported for this database version',
  pitrDisabled: 'Point-in-time recovery backups are not enabled for this database',
  pitrNeedsRetention: 'Point-in-time recovery needs a retention of at least 1 day',
  pitrTargetFormat: 'The target time must be in UTC as yyyy-MM-dd HH:mm:ss',
  pitrTargetRequired: 'A target time is required to restore to a point in time',
  notProvisioned: (handle: string) => `Database ${handle} is not provisioned yet`,
  backupsDisabled: 'Backups are disabled for this database',
  restoreEnvironmentRequired: 'Must select an environment to restore into',
  restoreOtherOrganization: 'A backup can be restored only into an environment of its own organization',
} as const;

export const backupPolicyMessages = {
  daily: 'Daily backups must be a whole number greater than 0',
  monthly: 'Monthly backups must be a whole number of 0 or more',
  yearly: 'Yearly backups must be a whole number of 0 or more',
  pitrDays: `PITR days must be a whole number from 0 to ${MAX_PITR_DAYS}`,
  // spec 2 §5 warnings shown before saving a policy.
  reducesBackups:
    'Reducing the number of retained backups, or turning off copies or final backups, deletes existing automated backups.',
  disablesPitr: 'Disabling point-in-time recovery removes the write-ahead-log backups.',
} as const;

/**
 * spec 2 §5: a database handle follows the handle rule and is lower-cased before creation (so `MyDB` is
 * stored as `mydb`); a control or invisible character is refused first, as for every handle.
 */
export const databaseHandleSchema = z
  .string({ error: requiredMessage('Handle') })
  .max(MAX_LENGTH.text, { error: handleMessages.tooLong, abort: true })
  .superRefine(plainText('Handle'))
  .trim()
  .toLowerCase()
  .min(1, requiredMessage('Handle'))
  .max(HANDLE_MAX_LENGTH, { error: handleMessages.tooLong, abort: true })
  .regex(/^[a-z0-9._-]+$/, handleMessages.pattern);

const reference = z
  .union([
    boundedString(MAX_LENGTH.reference, { tooLong: tooLongMessage('A reference', MAX_LENGTH.reference) }),
    z.number().int(),
  ])
  .transform(String);

/** `POST /accounts/:id/databases` (contract §5.8): the record only; `account_id` is the path's. */
export const createDatabaseSchema = z.object({
  handle: databaseHandleSchema,
  // The engine comes from the image; `type` is accepted and checked against it.
  type: boundedString(MAX_LENGTH.keyword, { label: 'type' }).optional(),
  database_image_id: reference.optional(),
  enable_backups: z.boolean().default(true),
});
export type CreateDatabaseInput = z.infer<typeof createDatabaseSchema>;

/** `PUT /databases/:id`: rename and the backup switches (turning backups off turns PITR off, spec 2 §4). */
export const updateDatabaseSchema = z.object({
  handle: databaseHandleSchema.optional(),
  enable_backups: z.boolean().optional(),
  enable_pitr: z.boolean().optional(),
});
export type UpdateDatabaseInput = z.infer<typeof updateDatabaseSchema>;

const wholeAtLeast = (min: number, message: string) =>
  z.number({ error: message }).int({ error: message }).min(min, { error: message });

/** `POST /accounts/:id/backup_retention_policies` (spec 2 §5 backup policy rules). */
export const backupRetentionPolicySchema = z.object({
  daily: wholeAtLeast(1, backupPolicyMessages.daily),
  monthly: wholeAtLeast(0, backupPolicyMessages.monthly),
  yearly: wholeAtLeast(0, backupPolicyMessages.yearly),
  pitr_days: wholeAtLeast(0, backupPolicyMessages.pitrDays)
    .max(MAX_PITR_DAYS, { error: backupPolicyMessages.pitrDays })
    .default(BACKUP_RETENTION_DEFAULTS.pitrDays),
  make_copy: z.boolean().default(BACKUP_RETENTION_DEFAULTS.makeCopy),
  keep_final: z.boolean().default(BACKUP_RETENTION_DEFAULTS.keepFinal),
});
export type BackupRetentionPolicyInput = z.infer<typeof backupRetentionPolicySchema>;

export interface RetentionPolicyValues {
  daily: number;
  monthly: number;
  yearly: number;
  pitrDays: number;
  makeCopy: boolean;
  keepFinal: boolean;
}

/** spec 2 §5: the warnings a policy change deserves before it is saved (none when nothing is lost). */
export function retentionPolicyWarnings(
  current: RetentionPolicyValues,
  next: RetentionPolicyValues,
): string[] {
  const warnings: string[] = [];
  if (
    next.daily < current.daily ||
    next.monthly < current.monthly ||
    next.yearly < current.yearly ||
    (current.makeCopy && !next.makeCopy) ||
    (current.keepFinal && !next.keepFinal)
  ) {
    warnings.push(backupPolicyMessages.reducesBackups);
  }
  if (current.pitrDays > 0 && next.pitrDays === 0) warnings.push(backupPolicyMessages.disablesPitr);
  return warnings;
}

/** Why a disk of this size and IOPS cannot be had (spec 2 §5), or null. `currentGb` forbids shrinking. */
export function diskProblem(input: { sizeGb: number; iops?: number; currentGb?: number }): string | null {
  const { sizeGb, iops, currentGb } = input;
  if (!Number.isInteger(sizeGb) || sizeGb < DISK_LIMITS.minGb) return databaseMessages.diskTooSmall;
  if (sizeGb > DISK_LIMITS.maxGb) return databaseMessages.diskTooLarge;
  if (currentGb !== undefined && sizeGb < currentGb) return databaseMessages.diskShrink;
  if (iops !== undefined) {
    if (!Number.isInteger(iops) || iops > DISK_LIMITS.maxIops) return databaseMessages.iopsTooHigh;
    if (iops > sizeGb * DISK_LIMITS.iopsPerGb) return databaseMessages.iopsNeedDisk;
  }
  return null;
}

/** spec 2 §5: the disk size input clamps to its range. */
export function clampDiskSize(sizeGb: number): number {
  if (!Number.isFinite(sizeGb)) return DISK_LIMITS.minGb;
  return Math.min(DISK_LIMITS.maxGb, Math.max(DISK_LIMITS.minGb, Math.round(sizeGb)));
}

/** spec 2 §2: Elasticsearch is raised to 1024 MB; other engines keep the size asked for. */
export function databaseContainerSize(type: string, sizeMb: number): number {
  return type === 'elasticsearch' ? Math.max(sizeMb, ELASTICSEARCH_MIN_CONTAINER_MB) : sizeMb;
}

const HANDLE_SUFFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** spec 2 §2: the suggested handle, `<environment>-<5 random characters>-<type>`, within 64 characters. */
export function suggestDatabaseHandle(
  environmentHandle: string,
  type: string,
  random: () => number = Math.random,
): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) {
    suffix += HANDLE_SUFFIX_ALPHABET[Math.floor(random() * HANDLE_SUFFIX_ALPHABET.length)] ?? 'a';
  }
  return `${environmentHandle}-${suffix}-${type}`.toLowerCase().slice(0, HANDLE_MAX_LENGTH);
}

/** The `yyyy-MM-dd HH:mm:ss` layout (UTC) of restore handles and PITR targets. */
export function formatUtcTimestamp(at: Date): string {
  return at.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * spec 2 §2: a restore's handle defaults to the database handle, `-at-` and the backup's time, cut to
 * 64 characters (the time written with handle characters only).
 */
export function restoreHandle(databaseHandle: string, at: Date): string {
  const stamp = at
    .toISOString()
    .slice(0, 19)
    .replace(/[T:]/g, '-')
    .replace(/-(\d\d)-(\d\d)$/, '$1$2');
  return `${databaseHandle}-at-${stamp}`.slice(0, HANDLE_MAX_LENGTH);
}

// Fixed width, no repetition: linear by construction.
const PITR_TARGET = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** spec 2 §5: a PITR target time, UTC `yyyy-MM-dd HH:mm:ss`; null when it is not one. */
export function parsePitrTarget(text: string): Date | null {
  if (text.length !== 19) return null;
  const match = PITR_TARGET.exec(text);
  if (!match) return null;
  const at = new Date(`${text.replace(' ', 'T')}Z`);
  return Number.isNaN(at.getTime()) || formatUtcTimestamp(at) !== text ? null : at;
}

export const RECOVERY_TARGET_TYPES = ['time', 'latest'] as const;
export type RecoveryTargetType = (typeof RECOVERY_TARGET_TYPES)[number];

/** spec 2 §2: where a database version stands against its end of life. */
export function databaseVersionSupport(
  eolAt: string | null,
  now: Date = new Date(),
): { state: 'supported' } | { state: 'ending'; maintenanceEndsAt: Date } | { state: 'deprecated' } {
  if (!eolAt) return { state: 'supported' };
  const eol = new Date(eolAt);
  if (Number.isNaN(eol.getTime())) return { state: 'supported' };
  const maintenanceEndsAt = new Date(eol.getTime() + DATABASE_EOL_GRACE_DAYS * 86_400_000);
  return now.getTime() > maintenanceEndsAt.getTime()
    ? { state: 'deprecated' }
    : { state: 'ending', maintenanceEndsAt };
}

/** spec 2 §2: a backup is labelled Manual, Final or Auto. */
export function backupLabel(backup: { manual: boolean; final: boolean }): 'Manual' | 'Final' | 'Auto' {
  if (backup.final) return 'Final';
  return backup.manual ? 'Manual' : 'Auto';
}
