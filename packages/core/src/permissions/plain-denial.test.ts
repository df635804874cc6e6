import { describe, expect, it } from 'vitest';
import { permissionMessages, scopeDenialMessage } from './permissions.ts';
import { plainDenial, readScopeDenial } from './plain-denial.ts';

describe('plainDenial (issue 20)', () => {
  const names = (id: string) => (id === '12' ? 'staging' : undefined);

  it('names the scope in the matrix words and the environment by its handle, and whom to ask', () => {
    expect(plainDenial(scopeDenialMessage('sensitive', '12'), names)).toBe(
      'Needs Sensitive Access on the staging environment. Ask an owner of the organization, or an admin of one of your roles, to grant it.',
    );
    expect(plainDenial(scopeDenialMessage('observability', '99'), names)).toBe(
      'Needs Ops on this environment. Ask an owner of the organization, or an admin of one of your roles, to grant it.',
    );
    // The spec's text with its full stop, as some pages show it, reads the same.
    expect(plainDenial(`${scopeDenialMessage('deploy', '12')}.`, names)).toMatch(
      /^Needs Deployment on the staging/,
    );
  });

  it('explains the owner-only and role-management rules', () => {
    expect(plainDenial(permissionMessages.ownerOnly)).toBe(
      'Only owners of the organization can do this. Ask an Account Owner.',
    );
    expect(plainDenial(permissionMessages.roleManagement)).toBe(
      "Only owners of the organization and this role's admins can do this.",
    );
    expect(plainDenial(permissionMessages.fullVisibilityAnywhere)).toMatch(
      /^Needs Full Visibility on at least one/,
    );
  });

  it('leaves plain and unknown texts alone, and reads no long or odd text', () => {
    expect(plainDenial(permissionMessages.ownerRoleLocked)).toBeNull();
    expect(plainDenial('Something else')).toBeNull();
    expect(readScopeDenial('You do not have "wizard" permissions for this environment (id:1)')).toBeNull();
    expect(readScopeDenial(`${scopeDenialMessage('deploy', '1')}${' '.repeat(300)}`)).toBeNull();
    expect(readScopeDenial(scopeDenialMessage('tunnel', 'abc'))).toEqual({
      scope: 'tunnel',
      environmentId: 'abc',
    });
  });
});
