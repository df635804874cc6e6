import type { PrivilegedActivityItem, SecuritySummaryResource } from '@berth/core';
import { isPrivilegedActivityKind } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import { iso, links } from '../../http/hal.ts';
import type { PrivilegedActivityRow, SecuritySummary } from './security.service.ts';

function toPrivilegedActivityItem(row: PrivilegedActivityRow): PrivilegedActivityItem | null {
  // Only kinds this server records are ever stored; an unknown one (from a newer server) is left out.
  if (!isPrivilegedActivityKind(row.kind)) return null;
  return {
    id: String(row.id),
    kind: row.kind,
    actor_name: row.actorName,
    actor_email: row.actorEmail,
    subject_name: row.subjectName,
    subject_email: row.subjectEmail,
    detail: row.detail,
    created_at: iso(row.createdAt),
  };
}

export function toSecuritySummaryHal(summary: SecuritySummary, urls: FamilyUrls): SecuritySummaryResource {
  const { environment, backups, endpoints } = summary;
  const account = `${urls.api}/accounts/${environment.id}`;
  return {
    id: String(environment.id),
    _type: 'security_summary',
    two_factor: summary.twoFactor,
    sso: summary.sso,
    backups: {
      databases: backups.databases,
      enabled: backups.enabled,
      without_backups: backups.withoutBackups,
      overdue: backups.overdue,
      last_backup_at: iso(backups.lastBackupAt),
      retention: {
        daily: backups.retention.daily,
        monthly: backups.retention.monthly,
        yearly: backups.retention.yearly,
        pitr_days: backups.retention.pitrDays,
        make_copy: backups.retention.makeCopy,
        keep_final: backups.retention.keepFinal,
      },
    },
    encryption: summary.encryption,
    endpoints: {
      total: endpoints.total,
      tls: endpoints.tls,
      without_tls: endpoints.withoutTls,
      internal: endpoints.internal,
      ip_allowlisted: endpoints.ipAllowlisted,
      open_to_all: endpoints.openToAll,
      certificates_expiring: endpoints.certificatesExpiring,
    },
    privileged_activity: summary.privilegedActivity
      .map(toPrivilegedActivityItem)
      .filter((item): item is PrivilegedActivityItem => item !== null),
    generated_at: iso(summary.generatedAt),
    _links: links({ self: `${account}/security_summary`, account }),
  };
}
