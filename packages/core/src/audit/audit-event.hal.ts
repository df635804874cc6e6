import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

// Issue 41: the wire shape of an audit event (audit-event.ts holds its actions, filters and export).

/** The wire shape of one audit event (`GET /organizations/:id/audit_events`). */
export const auditEventResource = z
  .strictObject({
    id: halId,
    _type: z.literal('audit_event'),
    action: z.string(),
    actor_id: z.string().nullable(),
    actor_email: z.string(),
    resource_type: z.string(),
    resource_id: z.string(),
    resource_name: z.string(),
    parent_type: z.string().nullable(),
    parent_id: z.string().nullable(),
    parent_name: z.string().nullable(),
    /** What changed beyond the names (a role's new name, a scope), or empty. */
    detail: z.string(),
    ip_address: z.string().nullable(),
    environment_id: z.string().nullable(),
    created_at: isoTimestamp,
    _links: halLinks(['organization'], ['account']),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEventResource = z.infer<typeof auditEventResource>;

export const auditEventCollection = halCollection('audit_events', auditEventResource).meta({
  id: 'AuditEventCollection',
});
export type AuditEventCollection = z.infer<typeof auditEventCollection>;
