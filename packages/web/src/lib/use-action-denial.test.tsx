import { type Actor, permissionMessages, scopeDenialMessage } from '@berth/core';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { ActorProvider, useActor } from './actor.tsx';
import { useActionDenial, useActionDenials } from './use-action-denial.ts';

const OWNER: Actor = { roleTypes: ['owner'], permissions: [] };
const DEPLOY_OWNER: Actor = { roleTypes: ['platform_owner'], permissions: [] };
const OPS: Actor = {
  roleTypes: ['platform_user'],
  permissions: [{ environmentId: '10', scope: 'observability' }],
};
const DEPLOYER: Actor = {
  roleTypes: ['platform_user'],
  permissions: [{ environmentId: '10', scope: 'deploy' }],
};

/** Renders a hook as a page inside the shell would: with the caller's actor provided. */
function asActor<T>(actor: Actor, hook: () => T): T {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ActorProvider actor={actor}>{children}</ActorProvider>
  );
  return renderHook(hook, { wrapper }).result.current;
}

describe('useActionDenial', () => {
  it('answers an environment action with the spec tooltip, by the catalog scope', () => {
    expect(asActor(DEPLOYER, () => useActionDenial('app.deploy', '10'))).toBeNull();
    expect(asActor(DEPLOYER, () => useActionDenial('app.deploy', '11'))).toBe(
      scopeDenialMessage('deploy', '11'),
    );
    // deploy does not grant destroy (spec 1 §6).
    expect(asActor(DEPLOYER, () => useActionDenial('app.deprovision', '10'))).toBe(
      scopeDenialMessage('destroy', '10'),
    );
    expect(asActor(OWNER, () => useActionDenial('vhost.deprovision', '11'))).toBeNull();
  });

  it('takes an operation action from the operation catalog: restart needs Ops, not deploy', () => {
    expect(asActor(OPS, () => useActionDenial('app.restart', '10'))).toBeNull();
    expect(asActor(OPS, () => useActionDenial('service.scale', '10'))).toBeNull();
    expect(asActor(OPS, () => useActionDenial('app.rename', '10'))).toBe(scopeDenialMessage('deploy', '10'));
  });

  it('denies an environment action when the resource names no environment', () => {
    expect(asActor(OWNER, () => useActionDenial('certificate.delete', null))).toBe(
      scopeDenialMessage('sensitive', '?'),
    );
  });

  it('answers role actions by role type, and role management with the role admin flag', () => {
    expect(asActor(DEPLOY_OWNER, () => useActionDenial('environment.create'))).toBeNull();
    expect(asActor(DEPLOYER, () => useActionDenial('environment.create'))).toBe(permissionMessages.ownerOnly);
    // Organization settings are the Account Owner's alone, with the same owner-only text.
    expect(asActor(DEPLOY_OWNER, () => useActionDenial('organization.update'))).toBe(
      permissionMessages.ownerOnly,
    );
    expect(asActor(DEPLOYER, () => useActionDenial('role.rename', { isRoleAdmin: false }))).toBe(
      permissionMessages.roleManagement,
    );
    expect(asActor(DEPLOYER, () => useActionDenial('role.rename', { isRoleAdmin: true }))).toBeNull();
    expect(asActor(DEPLOYER, () => useActionDenial('role.delete', { isRoleAdmin: true }))).toBe(
      permissionMessages.ownerOnly,
    );
  });
});

describe('useActionDenials', () => {
  it('asks several actions, or per row, of the same actor', () => {
    const denialOf = asActor(OPS, () => useActionDenials());
    expect(denialOf('app.restart', '10')).toBeNull();
    expect(denialOf('app.restart', '11')).toBe(scopeDenialMessage('observability', '11'));
    expect(denialOf('permission.grant', { isRoleAdmin: true })).toBeNull();
    expect(denialOf('permission.revoke')).toBe(permissionMessages.roleManagement);
  });
});

describe('useActor', () => {
  it('reads the actor the shell provides, and refuses to guess one outside it', () => {
    expect(asActor(OPS, () => useActor())).toBe(OPS);
    expect(() => renderHook(() => useActor())).toThrow(/ActorProvider/);
  });
});
