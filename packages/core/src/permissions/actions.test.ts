import { describe, expect, it } from 'vitest';
import {
  OPERATION_RESOURCE_TYPES,
  operationTypeEntry,
  operationTypesOf,
} from '../operations/operation-types.ts';
import { ACTIONS, actionDenial, actionRequirement, canAct, isActionName } from './actions.ts';
import { type Actor, SCOPES } from './permissions.ts';

const member = (permissions: Actor['permissions']): Actor => ({ roleTypes: ['platform_user'], permissions });
const owner: Actor = { roleTypes: ['owner'], permissions: [] };
const deployOwner: Actor = { roleTypes: ['platform_owner'], permissions: [] };

describe('the action catalog', () => {
  it('names each action <resource>.<verb> and needs a known scope or role', () => {
    for (const [name, needed] of Object.entries(ACTIONS)) {
      expect(name).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
      if ('scope' in needed) expect(SCOPES).toContain(needed.scope);
      else
        expect(['member', 'owner', 'account_owner', 'billing_owner', 'role_manager']).toContain(needed.role);
    }
    expect(isActionName('app.rename')).toBe(true);
    expect(isActionName('app.fly')).toBe(false);
    expect(isActionName('toString')).toBe(false);
  });

  it('knows every operation of the operation catalog by its action, with its scope', () => {
    for (const resourceType of OPERATION_RESOURCE_TYPES) {
      for (const type of operationTypesOf(resourceType)) {
        const entry = operationTypeEntry(resourceType, type);
        expect(actionRequirement(`${resourceType}.${type}`)).toEqual({ scope: entry?.scope });
      }
    }
    const observer = member([{ environmentId: '3', scope: 'observability' }]);
    expect(canAct(observer, 'app.restart', { environmentId: '3' })).toBe(true);
    expect(actionDenial(observer, 'app.deploy', { environmentId: '3' })).toBe(
      'You do not have "deploy" permissions for this environment (id:3)',
    );
    expect(actionRequirement('app.fly')).toBeNull();
    expect(actionRequirement('database.deploy')).toBeNull();
  });

  it('denies a scoped action with the spec tooltip, naming the environment', () => {
    const deployer = member([{ environmentId: '42', scope: 'deploy' }]);
    expect(actionDenial(deployer, 'app.rename', { environmentId: '42' })).toBeNull();
    // deploy grants observability, not destroy or read (spec 1 §6).
    expect(actionDenial(deployer, 'metrics.read', { environmentId: '42' })).toBe(
      'You do not have "read" permissions for this environment (id:42)',
    );
    expect(actionDenial(deployer, 'vhost.delete', { environmentId: '42' })).toBe(
      'You do not have "destroy" permissions for this environment (id:42)',
    );
    expect(canAct(deployer, 'app.rename', { environmentId: '7' })).toBe(false);
    expect(canAct(owner, 'vhost.delete', { environmentId: '7' })).toBe(true);
  });

  it('gives billing to the Account Owner and the Billing Only Owner, not to a Deploy Owner (spec 1 §6)', () => {
    const billingOwner: Actor = { roleTypes: ['billing_owner'], permissions: [] };
    expect(canAct(owner, 'billing.manage')).toBe(true);
    expect(canAct(billingOwner, 'billing.manage')).toBe(true);
    const denial = 'You must be an account owner or billing owner to manage billing.';
    expect(actionDenial(deployOwner, 'billing.manage')).toBe(denial);
    expect(actionDenial(member([]), 'billing.manage')).toBe(denial);
    // Whether a payment method is on file, every member reads.
    expect(canAct(member([]), 'billing.read')).toBe(true);
    expect(canAct(billingOwner, 'billing.read')).toBe(true);
  });

  it('denies a scoped action without an environment: there is nothing to act on', () => {
    expect(canAct(owner, 'app.read')).toBe(false);
  });

  it('checks role actions by role type, and role management by the role admin flag', () => {
    const admin = member([{ environmentId: '1', scope: 'admin' }]);
    expect(actionDenial(admin, 'environment.create')).toBe(
      'You do not have a valid role type (platform_owner, owner) to access this resource.',
    );
    expect(canAct(deployOwner, 'environment.create')).toBe(true);
    expect(canAct(deployOwner, 'organization.update')).toBe(false);
    expect(canAct(owner, 'organization.update')).toBe(true);
    expect(actionDenial(admin, 'role.rename')).toBe('You are not an owner or role admin.');
    expect(canAct(admin, 'role.rename', { isRoleAdmin: true })).toBe(true);
    expect(canAct(admin, 'role.delete', { isRoleAdmin: true })).toBe(false);
    // Creating a role is role management; with no role concerned, only owners pass.
    expect(actionDenial(admin, 'role.create')).toBe('You are not an owner or role admin.');
    expect(canAct(deployOwner, 'role.create')).toBe(true);
    expect(canAct(deployOwner, 'member.remove')).toBe(true);
    expect(actionDenial(deployOwner, 'owner_member.remove')).toBe(
      'You do not have a valid role type (platform_owner, owner) to access this resource.',
    );
  });

  it('leaves a dedicated stack, billed to the organization, to the Account Owner', () => {
    expect(canAct(owner, 'stack.request')).toBe(true);
    expect(actionDenial(deployOwner, 'stack.request')).toBe(
      'You do not have a valid role type (platform_owner, owner) to access this resource.',
    );
    expect(canAct(member([]), 'stack.request')).toBe(false);
  });

  it("lets owners and role admins read another member's roles", () => {
    expect(canAct(owner, 'member.roles.read')).toBe(true);
    expect(canAct(deployOwner, 'member.roles.read')).toBe(true);
    expect(canAct(member([]), 'member.roles.read', { isRoleAdmin: true })).toBe(true);
    expect(actionDenial(member([]), 'member.roles.read')).toBe('You are not an owner or role admin.');
  });

  it('lets any member of the organization read what it shares, and nobody else', () => {
    expect(canAct(member([]), 'stack.read')).toBe(true);
    expect(canAct(member([]), 'cost.read')).toBe(true);
    expect(canAct(member([]), 'home.read')).toBe(true);
    expect(actionDenial({ roleTypes: [], permissions: [] }, 'source.read')).toBe(
      'You are not a member of this organization.',
    );
  });
});
