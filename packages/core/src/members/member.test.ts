import { describe, expect, it } from 'vitest';
import { permissionMessages } from '../permissions/permissions.ts';
import {
  canUncheckRole,
  invitableRoles,
  MEMBERS_CSV_COLUMNS,
  managesAnyRole,
  matchesMemberSearch,
  memberMessages,
  memberRemovalDenial,
  membersCsv,
  roleMembersDenial,
  roleSelectionChange,
} from './member.ts';

const ada = { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com', verified: true, otpEnabled: true };
const bob = { id: 'u2', name: 'Bob Babbage', email: 'bob@engines.io', verified: false, otpEnabled: false };

describe('member search (spec 1 §5)', () => {
  it.each([
    ['', ['u1', 'u2']],
    ['ADA', ['u1']],
    ['engines.io', ['u2']],
    ['lace', ['u1']],
    ['verified', ['u1']],
    ['!verified', ['u2']],
    ['mfa', ['u1']],
    ['!mfa', ['u2']],
    ['bob !mfa', ['u2']],
    ['ada !mfa', []],
    ['nobody', []],
  ])('%j → %j', (query, ids) => {
    expect(
      [ada, bob].filter((member) => matchesMemberSearch(member, query)).map((member) => member.id),
    ).toEqual(ids);
  });
});

describe('Members CSV (spec 1 §9)', () => {
  it('has exactly the columns id, name, email, roles, verified, 2fa', () => {
    expect(MEMBERS_CSV_COLUMNS).toEqual(['id', 'name', 'email', 'roles', 'verified', '2fa']);
    expect(
      membersCsv([
        { ...ada, roleNames: ['Owners', 'Deployers'] },
        { ...bob, roleNames: ['Deployers'] },
      ]),
    ).toBe(
      'id,name,email,roles,verified,2fa\r\n' +
        'u1,Ada Lovelace,ada@example.com,"Owners, Deployers",true,true\r\n' +
        'u2,Bob Babbage,bob@engines.io,Deployers,false,false\r\n',
    );
  });
});

describe('removing a member (spec 1 §6)', () => {
  it('is for owners, never themselves nor provisioned users', () => {
    const owner = { roleTypes: ['owner'] as const };
    expect(memberRemovalDenial(owner, { isSelf: false, provisioned: false })).toBeNull();
    expect(
      memberRemovalDenial({ roleTypes: ['platform_owner'] }, { isSelf: false, provisioned: false }),
    ).toBeNull();
    expect(memberRemovalDenial(owner, { isSelf: true, provisioned: false })).toBe(memberMessages.removeSelf);
    expect(memberRemovalDenial(owner, { isSelf: false, provisioned: true })).toBe(
      memberMessages.removeProvisioned,
    );
    expect(memberRemovalDenial({ roleTypes: ['platform_user'] }, { isSelf: false, provisioned: false })).toBe(
      permissionMessages.ownerOnly,
    );
  });
});

describe('role management tooltip (spec 1 §6)', () => {
  it("is 'You are not an owner or role admin.' unless an owner or the role's admin", () => {
    const user = { roleTypes: ['platform_user'] as const };
    expect(roleMembersDenial(user, { type: 'platform_user', isRoleAdmin: false })).toBe(
      'You are not an owner or role admin.',
    );
    expect(roleMembersDenial(user, { type: 'platform_user', isRoleAdmin: true })).toBeNull();
    expect(
      roleMembersDenial({ roleTypes: ['platform_owner'] }, { type: 'platform_user', isRoleAdmin: false }),
    ).toBeNull();
    expect(roleMembersDenial({ roleTypes: ['platform_owner'] }, { type: 'owner', isRoleAdmin: false })).toBe(
      permissionMessages.roleManagement,
    );
  });
});

describe('role editing (spec 1 §4)', () => {
  it('reports what was added and removed; nothing when unchanged', () => {
    expect(roleSelectionChange(new Set(['a', 'b']), new Set(['b', 'c']))).toEqual({
      added: ['c'],
      removed: ['a'],
    });
    expect(roleSelectionChange(new Set(['a']), new Set(['a']))).toEqual({ added: [], removed: [] });
  });

  it('keeps the last remaining role', () => {
    expect(canUncheckRole(new Set(['a']), 'a')).toBe(false);
    expect(canUncheckRole(new Set(['a', 'b']), 'a')).toBe(true);
    expect(canUncheckRole(new Set(['a']), 'b')).toBe(true);
  });
});

describe('invitable roles (spec 1 §6)', () => {
  const roles = [
    { id: 'r-owner', type: 'owner' as const },
    { id: 'r-deploy-owner', type: 'platform_owner' as const },
    { id: 'r-dev', type: 'platform_user' as const },
    { id: 'r-ops', type: 'platform_user' as const },
    { id: 'r-audit', type: 'compliance_user' as const },
  ];
  const ids = (list: { id: string }[]) => list.map((role) => role.id);

  it('an Account Owner invites into every listed role', () => {
    expect(ids(invitableRoles({ roleTypes: ['owner'] }, roles, new Set()))).toEqual([
      'r-owner',
      'r-deploy-owner',
      'r-dev',
      'r-ops',
    ]);
  });

  it('a Deploy Owner does not see the owner role', () => {
    expect(ids(invitableRoles({ roleTypes: ['platform_owner'] }, roles, new Set()))).toEqual([
      'r-deploy-owner',
      'r-dev',
      'r-ops',
    ]);
  });

  it('a role admin invites into the roles they administer only', () => {
    expect(ids(invitableRoles({ roleTypes: ['platform_user'] }, roles, new Set(['r-ops'])))).toEqual([
      'r-ops',
    ]);
  });
});

describe('managing any role (spec 1 §6)', () => {
  it.each([
    [['owner'], [], true],
    [['platform_owner'], [], true],
    [['billing_owner'], [], false],
    [['platform_user'], [], false],
    [['platform_user'], ['r-ops'], true],
  ] as const)('%j admin of %j: %s', (roleTypes, adminOf, expected) => {
    expect(managesAnyRole({ roleTypes: [...roleTypes] }, new Set(adminOf))).toBe(expected);
  });

  it('says why a member’s last role stays (spec 1 §4), in one wording for the console and the server', () => {
    expect(memberMessages.lastRole).toBe(
      'A member keeps at least one role. To take them out of the organization, remove the member.',
    );
  });
});
