import type { AuditEventResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { AuditEventRow } from './audit-events.service.ts';

export function toAuditEventHal(row: AuditEventRow, urls: FamilyUrls): AuditEventResource {
  return {
    id: String(row.id),
    _type: 'audit_event',
    action: row.action,
    actor_id: row.actorId,
    actor_email: row.actorEmail,
    resource_type: row.resourceType,
    resource_id: row.resourceId,
    resource_name: row.resourceName,
    parent_type: row.parentType,
    parent_id: row.parentId,
    parent_name: row.parentName,
    detail: row.detail,
    ip_address: row.ipAddress,
    environment_id: row.environmentId === null ? null : String(row.environmentId),
    created_at: row.createdAt.toISOString(),
    _links: {
      organization: { href: `${urls.auth}/organizations/${row.organizationId}` },
      ...(row.environmentId === null
        ? {}
        : { account: { href: `${urls.api}/accounts/${row.environmentId}` } }),
    },
  };
}
