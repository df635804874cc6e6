import { z } from 'zod';
import { halId, halLinks, isoTimestamp, isoTimestampOrNull } from '../hal/hal.ts';
import { PRIVILEGED_ACTIVITY_KINDS } from './privileged-activity.ts';

/** How many names a summary lists (members without 2FA, databases without backups); the counts are whole. */
export const SECURITY_SUMMARY_LIST_LIMIT = 20;
/** How many recent privileged changes a summary lists. */
export const PRIVILEGED_ACTIVITY_LIMIT = 20;
/** A certificate ending within this many days counts as expiring. */
export const CERTIFICATE_EXPIRY_WARNING_DAYS = 30;

const person = z.strictObject({ name: z.string(), email: z.string() });

/** One recorded privileged change (Berth's own resource). */
export const privilegedActivityItem = z.strictObject({
  id: halId,
  kind: z.enum(PRIVILEGED_ACTIVITY_KINDS),
  actor_name: z.string(),
  actor_email: z.string(),
  subject_name: z.string(),
  subject_email: z.string(),
  detail: z.string(),
  created_at: isoTimestamp,
});
export type PrivilegedActivityItem = z.infer<typeof privilegedActivityItem>;

/**
 * Issue 38: what Berth knows of an environment's security, at one moment (Berth's own resource, read
 * with Full Visibility on the environment). Counts are whole; the lists beside them are the first
 * SECURITY_SUMMARY_LIST_LIMIT.
 */
export const securitySummaryResource = z
  .strictObject({
    id: halId,
    _type: z.literal('security_summary'),
    /** Members who may reach the environment (owners, and the roles with a permission on it). */
    two_factor: z.strictObject({
      members: z.number().int(),
      enabled: z.number().int(),
      without: z.array(person),
    }),
    sso: z.strictObject({ configured: z.boolean(), enforced: z.boolean() }),
    backups: z.strictObject({
      databases: z.number().int(),
      enabled: z.number().int(),
      without_backups: z.array(z.string()),
      /** Databases with backups on and no backup in the last day. */
      overdue: z.number().int(),
      last_backup_at: isoTimestampOrNull,
      retention: z.strictObject({
        daily: z.number().int(),
        monthly: z.number().int(),
        yearly: z.number().int(),
        pitr_days: z.number().int(),
        make_copy: z.boolean(),
        keep_final: z.boolean(),
      }),
    }),
    /** Database disks whose runtime encrypts them (a key of `key_bytes` > 0). */
    encryption: z.strictObject({ disks: z.number().int(), encrypted: z.number().int() }),
    endpoints: z.strictObject({
      total: z.number().int(),
      tls: z.number().int(),
      without_tls: z.number().int(),
      internal: z.number().int(),
      ip_allowlisted: z.number().int(),
      /** External endpoints any address may reach. */
      open_to_all: z.number().int(),
      certificates_expiring: z.number().int(),
    }),
    privileged_activity: z.array(privilegedActivityItem),
    generated_at: isoTimestamp,
    _links: halLinks(['self', 'account']),
  })
  .meta({ id: 'SecuritySummary' });
export type SecuritySummaryResource = z.infer<typeof securitySummaryResource>;
