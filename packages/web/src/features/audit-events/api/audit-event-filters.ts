/** The audit events' filters, in the console's query string; `all` (or empty) means no filter. */
export interface AuditEventFilters {
  action: string;
  actor: string;
}

export const ALL_ACTIONS = 'all';

/** The query of a list page or the export: filters only when set. */
export function auditQuery(filters: AuditEventFilters): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.action && filters.action !== ALL_ACTIONS) query.set('action', filters.action);
  if (filters.actor.trim()) query.set('actor', filters.actor.trim());
  return query;
}

/** One page of an organization's audit events; after a Next, from the page before's cursor. */
export function auditPagePath(
  organizationId: string,
  page: number,
  filters: AuditEventFilters,
  after: string | null,
): string {
  const query = auditQuery(filters);
  query.set('page', String(page));
  if (after) query.set('after', after);
  return `/organizations/${organizationId}/audit_events?${query}`;
}

export function auditExportPath(organizationId: string, filters: AuditEventFilters, format: 'csv' | 'jsonl') {
  const query = auditQuery(filters);
  query.set('format', format);
  return `/organizations/${organizationId}/audit_events/export?${query}`;
}
