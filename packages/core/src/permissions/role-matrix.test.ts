import { describe, expect, it } from 'vitest';
import type { Scope } from './permissions.ts';
import {
  inheritanceReason,
  permissionCellState,
  permissionRowStates,
  scopesByEnvironment,
} from './role-matrix.ts';

describe('permission matrix cells (spec 1 §6)', () => {
  it('a role holding nothing has every cell denied', () => {
    expect(Object.values(permissionRowStates('platform_user', []))).toEqual(Array(8).fill('denied'));
  });

  it('Admin marks all other scopes inherited', () => {
    expect(permissionRowStates('platform_user', ['admin'])).toEqual({
      admin: 'granted',
      read: 'inherited',
      basic_read: 'inherited',
      deploy: 'inherited',
      destroy: 'inherited',
      observability: 'inherited',
      sensitive: 'inherited',
      tunnel: 'inherited',
    });
  });

  it('any permission marks basic_read inherited', () => {
    for (const scope of ['read', 'tunnel', 'destroy'] as Scope[]) {
      expect(permissionCellState('platform_user', [scope], 'basic_read')).toBe('inherited');
      expect(permissionCellState('platform_user', [scope], scope)).toBe('granted');
    }
    // Held alone, basic_read is granted (and can be removed).
    expect(permissionCellState('platform_user', ['basic_read'], 'basic_read')).toBe('granted');
  });

  it.each([
    ['deploy', 'observability', 'inherited'],
    ['sensitive', 'read', 'inherited'],
    ['read', 'sensitive', 'denied'],
    ['observability', 'deploy', 'denied'],
  ] as const)('holding %s, %s is %s', (held, scope, state) => {
    expect(permissionCellState('platform_user', [held], scope)).toBe(state);
  });

  it('the Owner role inherits all', () => {
    for (const type of ['owner', 'platform_owner'] as const) {
      expect(Object.values(permissionRowStates(type, []))).toEqual(Array(8).fill('inherited'));
    }
  });

  it('groups a role’s permissions by environment, ignoring other roles', () => {
    const grouped = scopesByEnvironment(
      [
        { roleId: 'r1', environmentId: '10', scope: 'read' },
        { roleId: 'r1', environmentId: '10', scope: 'deploy' },
        { roleId: 'r2', environmentId: '10', scope: 'admin' },
        { roleId: 'r1', environmentId: '11', scope: 'tunnel' },
      ],
      'r1',
    );
    expect(Object.fromEntries(grouped)).toEqual({ '10': ['read', 'deploy'], '11': ['tunnel'] });
  });

  it('says why an inherited cell is checked (issue 41), and nothing for the others', () => {
    expect(inheritanceReason('platform_user', ['admin', 'deploy'], 'observability')).toBe(
      'Inherited from Environment Admin',
    );
    expect(inheritanceReason('platform_user', ['admin'], 'basic_read')).toBe(
      'Inherited from Environment Admin',
    );
    expect(inheritanceReason('platform_user', ['tunnel'], 'basic_read')).toBe(
      'Inherited: any permission gives Basic Visibility',
    );
    expect(inheritanceReason('platform_user', ['deploy'], 'observability')).toBe('Inherited from Deployment');
    expect(inheritanceReason('platform_user', ['sensitive'], 'read')).toBe('Inherited from Sensitive Access');
    expect(inheritanceReason('owner', [], 'tunnel')).toBe(
      'Inherited: this role passes every check in every environment',
    );
    expect(inheritanceReason('platform_user', ['deploy'], 'deploy')).toBeNull();
    expect(inheritanceReason('platform_user', ['deploy'], 'tunnel')).toBeNull();
  });
});
