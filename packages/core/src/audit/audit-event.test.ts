import { describe, expect, it } from 'vitest';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  auditFilterMessages,
  auditSubject,
  isAuditAction,
  parseActorFilter,
  parseUntil,
} from './audit-event.ts';

describe('audit events', () => {
  it('names the resource with its parent', () => {
    expect(
      auditSubject({
        resource_type: 'service',
        resource_name: 'cmd',
        parent_type: 'app',
        parent_name: 'web',
      }),
    ).toBe('service cmd of web');
    expect(
      auditSubject({ resource_type: 'api_token', resource_name: 'ci', parent_type: null, parent_name: null }),
    ).toBe('api token ci');
    expect(
      auditSubject({ resource_type: 'role', resource_name: '', parent_type: null, parent_name: null }),
    ).toBe('role');
  });

  it('labels every action and knows only those', () => {
    for (const action of AUDIT_ACTIONS) expect(AUDIT_ACTION_LABELS[action]).toMatch(/\w/);
    expect(isAuditAction('role.update')).toBe(true);
    expect(isAuditAction('role.explode')).toBe(false);
  });
});

describe('audit filters', () => {
  it('reads an until time and refuses anything else', () => {
    expect(parseUntil('2026-01-31T00:00:00Z')).toEqual({ until: new Date('2026-01-31T00:00:00Z') });
    expect(parseUntil('yesterday')).toEqual({ problem: auditFilterMessages.until });
    expect(parseUntil(`2026-01-31T00:00:00Z${'0'.repeat(50)}`)).toEqual({
      problem: auditFilterMessages.until,
    });
  });

  it('reads an actor as a lower-case e-mail', () => {
    expect(parseActorFilter(' Ann@Example.COM ')).toEqual({ actor: 'ann@example.com' });
    expect(parseActorFilter('ann')).toEqual({ problem: auditFilterMessages.actor });
    expect(parseActorFilter(`${'a'.repeat(260)}@x.io`)).toEqual({ problem: auditFilterMessages.actor });
  });
});
