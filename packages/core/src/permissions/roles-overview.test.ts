import { describe, expect, it } from 'vitest';
import type { RoleType } from './permissions.ts';
import {
  compareRoles,
  isRoleListed,
  ROLES_CSV_COLUMNS,
  roleMatchesFilters,
  rolesCsvRows,
} from './roles-overview.ts';

const role = (id: string, type: RoleType, createdAt = '2025-01-01T00:00:00.000Z') => ({
  id,
  name: id,
  type,
  createdAt,
});

describe('role order (spec 1 §6)', () => {
  it('sorts by type, then newest first', () => {
    const roles = [
      role('old-user', 'platform_user', '2025-01-01T00:00:00.000Z'),
      role('compliance', 'compliance_owner'),
      role('billing', 'billing_owner'),
      role('new-user', 'platform_user', '2025-03-01T00:00:00.000Z'),
      role('deploy', 'platform_owner'),
      role('audit', 'compliance_user'),
      role('owner', 'owner'),
    ];
    expect([...roles].sort(compareRoles).map((r) => r.id)).toEqual([
      'owner',
      'deploy',
      'billing',
      'new-user',
      'old-user',
      'audit',
      'compliance',
    ]);
  });
});

describe('listed roles (spec 1 §6)', () => {
  it('hides compliance roles from everyone', () => {
    expect(isRoleListed({ roleTypes: ['owner'] }, 'compliance_user')).toBe(false);
    expect(isRoleListed({ roleTypes: ['owner'] }, 'compliance_owner')).toBe(false);
  });

  it('hides the owner and billing roles from Deploy Owners only', () => {
    expect(isRoleListed({ roleTypes: ['platform_owner'] }, 'owner')).toBe(false);
    expect(isRoleListed({ roleTypes: ['platform_owner'] }, 'billing_owner')).toBe(false);
    expect(isRoleListed({ roleTypes: ['platform_owner'] }, 'platform_owner')).toBe(true);
    expect(isRoleListed({ roleTypes: ['platform_owner', 'owner'] }, 'owner')).toBe(true);
    expect(isRoleListed({ roleTypes: ['owner'] }, 'billing_owner')).toBe(true);
    expect(isRoleListed({ roleTypes: ['platform_user'] }, 'owner')).toBe(true);
    // A Deploy Owner who also holds the billing role sees that role, still not the owner role.
    expect(isRoleListed({ roleTypes: ['platform_owner', 'billing_owner'] }, 'billing_owner')).toBe(true);
    expect(isRoleListed({ roleTypes: ['platform_owner', 'billing_owner'] }, 'owner')).toBe(false);
  });
});

describe('roles overview filters (spec 1 §2)', () => {
  const none = { roleId: null, userId: null, environmentId: null };
  const permissions = [{ roleId: 'r1', environmentId: '10', scope: 'read' as const }];

  it('filters by role, member and environment', () => {
    expect(roleMatchesFilters(role('r1', 'platform_user'), none, [], [])).toBe(true);
    expect(roleMatchesFilters(role('r1', 'platform_user'), { ...none, roleId: 'r2' }, [], [])).toBe(false);
    expect(roleMatchesFilters(role('r1', 'platform_user'), { ...none, userId: 'u1' }, ['u1'], [])).toBe(true);
    expect(roleMatchesFilters(role('r1', 'platform_user'), { ...none, userId: 'u2' }, ['u1'], [])).toBe(
      false,
    );
    expect(
      roleMatchesFilters(role('r1', 'platform_user'), { ...none, environmentId: '10' }, [], permissions),
    ).toBe(true);
    expect(
      roleMatchesFilters(role('r1', 'platform_user'), { ...none, environmentId: '11' }, [], permissions),
    ).toBe(false);
    // Owners inherit every environment.
    expect(roleMatchesFilters(role('o', 'owner'), { ...none, environmentId: '11' }, [], permissions)).toBe(
      true,
    );
  });
});

describe('Roles CSV (spec 1 §9)', () => {
  it('has the spec’s columns', () => {
    expect(ROLES_CSV_COLUMNS.join(',')).toBe(
      'organization,role,users,environment,environment_admin,full_visibility,basic_visibility,deployment,destroy,ops,sensitive_access,tunnel',
    );
  });

  it('writes one row per role and environment, with inherited scopes true', () => {
    const rows = rolesCsvRows({
      organizationName: 'Engines',
      roles: [role('owner', 'owner'), role('devs', 'platform_user'), role('empty', 'platform_user')],
      usersByRole: new Map([
        ['owner', ['Ada']],
        ['devs', ['Ada', 'Charles']],
      ]),
      environments: [
        { id: '10', handle: 'prod' },
        { id: '11', handle: 'staging' },
      ],
      permissions: [
        { roleId: 'devs', environmentId: '11', scope: 'deploy' },
        { roleId: 'devs', environmentId: '11', scope: 'tunnel' },
      ],
    });
    expect(rows).toEqual([
      ['Engines', 'owner', 'Ada', 'prod', ...Array(8).fill('true')],
      ['Engines', 'owner', 'Ada', 'staging', ...Array(8).fill('true')],
      [
        'Engines',
        'devs',
        'Ada, Charles',
        'staging',
        'false',
        'false',
        'true',
        'true',
        'false',
        'true',
        'false',
        'true',
      ],
      ['Engines', 'empty', '', '', '', '', '', '', '', '', '', ''],
    ]);
  });
});
