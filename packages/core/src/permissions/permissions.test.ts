import { describe, expect, it } from 'vitest';
import {
  type Actor,
  buildActor,
  can,
  canCreateRole,
  canDeleteRole,
  canManageRoleMembers,
  hasFullVisibilityAnywhere,
  isRoleEditable,
  isRoleVisible,
  permissionMessages,
  type RoleType,
  SCOPES,
  type Scope,
  scopeDenial,
  scopeGrants,
  visibleRoleTypes,
} from './permissions.ts';

const member = (scope: Scope, environmentId = '42'): Actor => ({
  roleTypes: ['platform_user'],
  permissions: [{ environmentId, scope }],
});

describe('scope implications (spec 1 §6)', () => {
  it.each([
    ['admin', 'destroy', true],
    ['admin', 'sensitive', true],
    ['deploy', 'observability', true],
    ['deploy', 'destroy', false],
    ['sensitive', 'read', true],
    ['read', 'sensitive', false],
    ['tunnel', 'basic_read', true],
    ['observability', 'deploy', false],
    ['read', 'read', true],
  ] as const)('%s grants %s: %s', (granted, wanted, expected) => {
    expect(scopeGrants(granted, wanted)).toBe(expected);
  });

  it('owners and deploy owners pass every check on every environment', () => {
    for (const type of ['owner', 'platform_owner'] as const) {
      for (const scope of SCOPES) expect(can({ roleTypes: [type], permissions: [] }, scope, '7')).toBe(true);
    }
    expect(can({ roleTypes: ['billing_owner'], permissions: [] }, 'basic_read', '7')).toBe(false);
  });

  it('a permission counts only on its own environment', () => {
    expect(can(member('admin', '1'), 'read', '2')).toBe(false);
    expect(can(member('admin', '1'), 'read', '1')).toBe(true);
  });

  it('gives the spec tooltip when denied', () => {
    expect(scopeDenial(member('read'), 'deploy', '42')).toBe(
      'You do not have "deploy" permissions for this environment (id:42)',
    );
    expect(scopeDenial(member('deploy'), 'deploy', '42')).toBeNull();
    expect(permissionMessages.ownerOnly).toBe(
      'You do not have a valid role type (platform_owner, owner) to access this resource.',
    );
    expect(permissionMessages.roleManagement).toBe('You are not an owner or role admin.');
    expect(permissionMessages.fullVisibilityAnywhere).toBe('Requires Full Visibility on any Environment');
  });

  it('Full Visibility anywhere: read, sensitive or admin somewhere, or an owner', () => {
    expect(hasFullVisibilityAnywhere(member('basic_read'))).toBe(false);
    expect(hasFullVisibilityAnywhere(member('sensitive'))).toBe(true);
    expect(hasFullVisibilityAnywhere({ roleTypes: ['owner'], permissions: [] })).toBe(true);
  });
});

describe('role management rules (spec 1 §6)', () => {
  const accountOwner = { roleTypes: ['owner'] as const };
  const deployOwner = { roleTypes: ['platform_owner'] as const };
  const member = { roleTypes: ['platform_user'] as const };

  it('leaves the owner and billing roles to Account Owners', () => {
    expect(canManageRoleMembers(accountOwner, 'owner', false)).toBe(true);
    expect(canManageRoleMembers(deployOwner, 'owner', false)).toBe(false);
    expect(canManageRoleMembers(deployOwner, 'billing_owner', true)).toBe(false);
    expect(canManageRoleMembers(deployOwner, 'platform_owner', false)).toBe(true);
  });

  it('lets owners and the role’s admins manage other roles', () => {
    expect(canManageRoleMembers(deployOwner, 'platform_user', false)).toBe(true);
    expect(canManageRoleMembers(member, 'platform_user', true)).toBe(true);
    expect(canManageRoleMembers(member, 'platform_user', false)).toBe(false);
  });

  it('never edits owner-type or provisioned roles', () => {
    expect(isRoleEditable({ type: 'platform_user', scimCreated: false })).toBe(true);
    expect(isRoleEditable({ type: 'owner', scimCreated: false })).toBe(false);
    expect(isRoleEditable({ type: 'billing_owner', scimCreated: false })).toBe(false);
    expect(isRoleEditable({ type: 'platform_user', scimCreated: true })).toBe(false);
  });

  // spec 1 §6: "a platform owner (who cannot see the owner and billing_owner roles)".
  it('hides the owner and billing roles from a Deploy Owner, and from no one else', () => {
    const table: [readonly RoleType[], RoleType, boolean][] = [
      [['platform_owner'], 'owner', false],
      [['platform_owner'], 'billing_owner', false],
      [['platform_owner'], 'platform_owner', true],
      [['platform_owner'], 'platform_user', true],
      [['platform_owner', 'platform_user'], 'owner', false],
      // Their own billing role stays theirs to see; the owner role does not.
      [['platform_owner', 'billing_owner'], 'billing_owner', true],
      [['platform_owner', 'billing_owner'], 'owner', false],
      [['platform_owner', 'owner'], 'owner', true],
      [['owner'], 'billing_owner', true],
      [['billing_owner'], 'owner', true],
      [['platform_user'], 'owner', true],
      [[], 'owner', true],
    ];
    for (const [roleTypes, type, visible] of table) {
      expect(isRoleVisible({ roleTypes }, type), `${roleTypes.join('+')} sees ${type}`).toBe(visible);
    }
    expect(visibleRoleTypes(deployOwner)).toEqual([
      'platform_owner',
      'platform_user',
      'compliance_user',
      'compliance_owner',
    ]);
    expect(visibleRoleTypes(accountOwner)).toHaveLength(6);
  });

  it('lets owners create and delete roles', () => {
    expect(canCreateRole(accountOwner)).toBe(true);
    expect(canCreateRole(deployOwner)).toBe(true);
    expect(canCreateRole(member)).toBe(false);
    expect(canDeleteRole(deployOwner)).toBe(true);
    expect(canDeleteRole(member)).toBe(false);
  });
});

describe('buildActor', () => {
  it('takes the roles of one organization and only the permissions granted to them', () => {
    const roles = [
      { id: 'r1', type: 'platform_user' as const, organizationId: 'org-a' },
      { id: 'r2', type: 'owner' as const, organizationId: 'org-b' },
    ];
    const granted = [
      { roleId: 'r1', environmentId: 7, scope: 'deploy' as const },
      { roleId: 'r2', environmentId: '8', scope: 'admin' as const },
      { roleId: 'r9', environmentId: '7', scope: 'admin' as const },
    ];
    expect(buildActor(roles, granted, 'org-a')).toEqual({
      roleTypes: ['platform_user'],
      permissions: [{ environmentId: '7', scope: 'deploy' }],
    });
    expect(buildActor(roles, granted, 'org-c')).toEqual({ roleTypes: [], permissions: [] });
  });
});
