import { apiDownload } from '../../../lib/api-client.ts';
import { downloadBlob } from '../../../lib/download.ts';
import { type AuditEventFilters, auditExportPath } from './audit-event-filters.ts';

/** Downloads the events the filters select, as the server streams them (every page, not the one shown). */
export async function exportAuditEvents(
  organizationId: string,
  filters: AuditEventFilters,
  format: 'csv' | 'jsonl',
): Promise<void> {
  const blob = await apiDownload('api', auditExportPath(organizationId, filters, format));
  const day = new Date().toISOString().slice(0, 10);
  downloadBlob(`audit-events-${day}.${format}`, blob);
}
