import { describe, expect, it } from 'vitest';
import { auditExportPath, auditPagePath } from './audit-event-filters.ts';

describe('audit event paths', () => {
  it('asks for a page with only the filters that are set, and the cursor after a Next', () => {
    expect(auditPagePath('org-1', 1, { action: 'all', actor: '' }, null)).toBe(
      '/organizations/org-1/audit_events?page=1',
    );
    expect(auditPagePath('org-1', 2, { action: 'role.update', actor: ' ann@example.com ' }, '17.4')).toBe(
      '/organizations/org-1/audit_events?action=role.update&actor=ann%40example.com&page=2&after=17.4',
    );
  });

  it('exports with the same filters, in the chosen format', () => {
    expect(auditExportPath('org-1', { action: 'app.create', actor: '' }, 'csv')).toBe(
      '/organizations/org-1/audit_events/export?action=app.create&format=csv',
    );
  });
});
