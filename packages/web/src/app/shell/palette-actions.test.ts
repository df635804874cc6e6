import { type Actor, permissionMessages, scopeDenialMessage } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { denialFor } from '../../lib/use-action-denial.ts';
import { paletteActions } from './palette-actions.ts';

function actionsFor(actor: Actor, environmentIds: string[]) {
  const actions = paletteActions({
    homeEnabled: true,
    fullVisibility: false,
    denialOf: (action, where) => denialFor(actor, action, where),
    environmentIds,
  });
  return Object.fromEntries(actions.map((action) => [action.label, action.denial ?? null]));
}

describe('the palette’s actions (issue 38)', () => {
  it('lets an owner start every flow', () => {
    const owner: Actor = { roleTypes: ['owner'], permissions: [] };
    const denials = actionsFor(owner, []);
    expect(denials['Deploy an app']).toBeNull();
    expect(denials['Create environment']).toBeNull();
    expect(denials['Create database']).toBeNull();
  });

  it('lets a deployer deploy and create databases in their environment, never create one', () => {
    const deployer: Actor = {
      roleTypes: ['platform_user'],
      permissions: [{ environmentId: '11', scope: 'deploy' }],
    };
    const denials = actionsFor(deployer, ['10', '11']);
    expect(denials['Deploy an app']).toBeNull();
    expect(denials['Create database']).toBeNull();
    expect(denials['Create environment']).toBe(permissionMessages.ownerOnly);
    // Going somewhere is never denied.
    expect(denials['Go to Apps']).toBeNull();
  });

  it('gives core’s reason where the caller may start a flow in no environment', () => {
    const reader: Actor = {
      roleTypes: ['platform_user'],
      permissions: [{ environmentId: '10', scope: 'read' }],
    };
    const denials = actionsFor(reader, ['10']);
    expect(denials['Deploy an app']).toBe(scopeDenialMessage('deploy', '10'));
    expect(denials['Create database']).toBe(scopeDenialMessage('deploy', '10'));
    expect(denials['Create environment']).toBe(permissionMessages.ownerOnly);
    // With no environment at all, one would have to be created first.
    const newcomer: Actor = { roleTypes: ['platform_user'], permissions: [] };
    expect(actionsFor(newcomer, [])['Create database']).toBe(permissionMessages.ownerOnly);
  });
});
