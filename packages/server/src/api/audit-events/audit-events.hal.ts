import type { AuditEventResource } from '@berth/core';
import { z } from 'zod';
import type { FamilyUrls } from '../../config.ts';
import { type AuditEventRow, auditEventFields } from './audit-events.service.ts';

export function toAuditEventHal(row: AuditEventRow, urls: FamilyUrls): AuditEventResource {
  return {
    ...auditEventFields(row),
    _type: 'audit_event',
    _links: {
      organization: { href: `${urls.auth}/organizations/${row.organizationId}` },
      ...(row.environmentId === null
        ? {}
        : { account: { href: `${urls.api}/accounts/${row.environmentId}` } }),
    },
  };
}

/** The export's answer: JSON lines or CSV, streamed as a download (a wire shape: nothing is read by it). */
export const exportAnswer = {
  content: {
    'application/x-ndjson': { schema: z.string() },
    'text/csv': { schema: z.string() },
  },
};
