import { describe, expect, it } from 'vitest';
import { createPermissionSchema } from './permission.schema.ts';
import { canManageRole, roleTakesEnvironmentPermissions } from './permissions.ts';

describe('createPermissionSchema (contract §5.6, §8.3)', () => {
  it('accepts a bare role id or a role URL, keeping the last segment', () => {
    expect(createPermissionSchema.parse({ role: 'abc-123', scope: 'deploy' })).toEqual({
      role: 'abc-123',
      scope: 'deploy',
    });
    expect(
      createPermissionSchema.parse({ role: 'http://berth.test/auth/roles/abc-123/', scope: 'read' }).role,
    ).toBe('abc-123');
  });

  it.each([
    [{ scope: 'deploy' }, 'Role must not be empty'],
    [{ role: '  ', scope: 'deploy' }, 'Role must not be empty'],
    [
      { role: 'r', scope: 'superuser' },
      'Scope must be one of: admin, read, basic_read, deploy, destroy, observability, sensitive, tunnel',
    ],
    [
      { role: 'r' },
      'Scope must be one of: admin, read, basic_read, deploy, destroy, observability, sensitive, tunnel',
    ],
  ])('refuses %j with "%s"', (body, message) => {
    expect(createPermissionSchema.safeParse(body).error?.issues[0]?.message).toBe(message);
  });
});

describe('role management (spec 1 §6)', () => {
  it('needs an owner or the role admin', () => {
    expect(canManageRole({ roleTypes: ['owner'] }, false)).toBe(true);
    expect(canManageRole({ roleTypes: ['platform_owner'] }, false)).toBe(true);
    expect(canManageRole({ roleTypes: ['platform_user'] }, true)).toBe(true);
    expect(canManageRole({ roleTypes: ['platform_user'] }, false)).toBe(false);
    expect(canManageRole({ roleTypes: ['billing_owner'] }, false)).toBe(false);
  });

  it.each([
    ['owner', false],
    ['platform_owner', false],
    ['billing_owner', false],
    ['platform_user', true],
    ['compliance_user', true],
  ] as const)('%s roles take environment permissions: %s', (type, expected) => {
    expect(roleTakesEnvironmentPermissions(type)).toBe(expected);
  });
});
