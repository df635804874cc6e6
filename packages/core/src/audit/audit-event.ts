import { z } from 'zod';
import type { AuditEventResource } from './audit-event.hal.ts';

// Issue 41: the changes that are not operations (who joined, who may do what, which credentials exist)
// recorded as audit events, shown in Activity beside the operations and exported.

/** Every action an audit event records, as `<resource>.<verb>`. */
export const AUDIT_ACTIONS = [
  'app.create',
  'environment.create',
  'environment.delete',
  'invitation.create',
  'invitation.accept',
  'invitation.revoke',
  'member.remove',
  'membership.create',
  'membership.update',
  'membership.delete',
  'role.create',
  'role.update',
  'role.delete',
  'permission.create',
  'permission.delete',
  'api_token.create',
  'api_token.revoke',
  'saml_configuration.create',
  'saml_configuration.update',
  'saml_configuration.delete',
  'scim_configuration.create',
  'scim_configuration.update',
  'scim_configuration.delete',
  'scim_token.create',
  'scim_user.create',
  'scim_user.activate',
  'scim_user.deactivate',
  'scim_user.delete',
  'scim_group.create',
  'scim_group.update',
  'scim_group.delete',
  'member.join',
  'session.revoke_all',
  'organization.update',
  'sso_enforcement.enable',
  'sso_enforcement.disable',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

/** The row's words for each action: "Created", "Sent" and so on, before the resource it names. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'app.create': 'App created',
  'environment.create': 'Environment created',
  'environment.delete': 'Environment deleted',
  'invitation.create': 'Invitation sent',
  'invitation.accept': 'Invitation accepted',
  'invitation.revoke': 'Invitation revoked',
  'member.remove': 'Member removed',
  'membership.create': 'Member added to role',
  'membership.update': 'Membership changed',
  'membership.delete': 'Member removed from role',
  'role.create': 'Role created',
  'role.update': 'Role changed',
  'role.delete': 'Role deleted',
  'permission.create': 'Permission granted',
  'permission.delete': 'Permission revoked',
  'api_token.create': 'API token created',
  'api_token.revoke': 'API token revoked',
  'saml_configuration.create': 'SSO configured',
  'saml_configuration.update': 'SSO configuration changed',
  'saml_configuration.delete': 'SSO configuration removed',
  'scim_configuration.create': 'SCIM provisioning configured',
  'scim_configuration.update': 'SCIM configuration changed',
  'scim_configuration.delete': 'SCIM provisioning removed',
  'scim_token.create': 'SCIM token generated',
  'scim_user.create': 'User provisioned',
  'scim_user.activate': 'User reactivated by provisioning',
  'scim_user.deactivate': 'User deactivated by provisioning',
  'scim_user.delete': 'User deprovisioned',
  'scim_group.create': 'Group provisioned',
  'scim_group.update': 'Group renamed by provisioning',
  'scim_group.delete': 'Group deprovisioned',
  'member.join': 'Joined by single sign-on',
  'session.revoke_all': 'Other sessions ended',
  'organization.update': 'Organization settings changed',
  'sso_enforcement.enable': 'SSO enforcement turned on',
  'sso_enforcement.disable': 'SSO enforcement turned off',
};

/** The export's formats: JSON lines (one event per line) or CSV. */
export const AUDIT_EXPORT_FORMATS = ['jsonl', 'csv'] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];

/** The CSV export's columns, in order. */
export const AUDIT_CSV_HEADER = [
  'time',
  'action',
  'actor_email',
  'actor_id',
  'resource_type',
  'resource_id',
  'resource_name',
  'parent_type',
  'parent_id',
  'parent_name',
  'detail',
  'ip_address',
] as const;

/** An action's longest name and an actor filter's longest e-mail (checked before any pattern). */
export const AUDIT_FILTER_MAX_LENGTH = 254;

type Named = Pick<AuditEventResource, 'resource_type' | 'resource_name' | 'parent_type' | 'parent_name'>;

/** The resource an event names, with its parent when it has one: "service cmd of web". */
export function auditSubject(event: Named): string {
  const noun = event.resource_type.replace(/_/g, ' ');
  const own = event.resource_name ? `${noun} ${event.resource_name}` : noun;
  return event.parent_name ? `${own} of ${event.parent_name}` : own;
}

export const auditFilterMessages = {
  action: `action must be one of ${AUDIT_ACTIONS.join(', ')}`,
  actor: 'actor must be an e-mail address of at most 254 characters',
  until: 'until must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T00:00:00Z',
  format: `format must be one of ${AUDIT_EXPORT_FORMATS.join(', ')}`,
} as const;

/** The end of a time filter (exclusive): the length is checked before the pattern. */
export function parseUntil(value: string): { until: Date } | { problem: string } {
  if (value.length > 40 || !z.iso.datetime({ offset: true }).safeParse(value).success) {
    return { problem: auditFilterMessages.until };
  }
  const time = Date.parse(value);
  if (!Number.isFinite(time) || time < 0) return { problem: auditFilterMessages.until };
  return { until: new Date(time) };
}

/** An actor filter: an e-mail as the events keep it (lower case), or the problem. */
export function parseActorFilter(value: string): { actor: string } | { problem: string } {
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > AUDIT_FILTER_MAX_LENGTH || !trimmed.includes('@')) {
    return { problem: auditFilterMessages.actor };
  }
  return { actor: trimmed.toLowerCase() };
}
