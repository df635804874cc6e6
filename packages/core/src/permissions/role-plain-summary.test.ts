import { describe, expect, it } from 'vitest';
import { rolePlainSummary } from './role-plain-summary.ts';

describe('rolePlainSummary (issue 41: the invite form)', () => {
  it.each([
    ['owner', 'Can do everything: every environment, billing, members, roles and organization settings.'],
    [
      'platform_owner',
      'Can do everything in every environment and manage members and roles, but not billing.',
    ],
    [
      'billing_owner',
      'Can manage billing only: plans, payment methods and invoices. No access to environments.',
    ],
  ] as const)('an %s role is summed up by its type', (type, sentence) => {
    expect(rolePlainSummary(type, [{ handle: 'production', scopes: ['tunnel'] }])).toEqual([sentence]);
  });

  it('a role with no permission says it reaches nothing yet', () => {
    expect(rolePlainSummary('platform_user', [])).toEqual([
      'Can sign in to the organization but reaches no environment yet: give the role permissions first.',
    ]);
  });

  it('admin says everything at once', () => {
    expect(rolePlainSummary('platform_user', [{ handle: 'staging', scopes: ['admin', 'deploy'] }])).toEqual([
      'In staging: can do anything, including renaming the environment.',
    ]);
  });

  it('adds what a scope implies (deploy gives Ops) and leaves out what another sentence says', () => {
    expect(rolePlainSummary('platform_user', [{ handle: 'staging', scopes: ['deploy', 'read'] }])).toEqual([
      'In staging: can see everything, configuration values included, except database passwords; ' +
        'create, deploy, configure and restart apps and databases; scale and restart services and set up ' +
        'log and metric drains.',
    ]);
    expect(rolePlainSummary('platform_user', [{ handle: 'qa', scopes: ['sensitive'] }])).toEqual([
      'In qa: can see everything, secrets included: configuration values, database passwords and certificates.',
    ]);
    expect(rolePlainSummary('platform_user', [{ handle: 'qa', scopes: ['basic_read'] }])).toEqual([
      'In qa: can see its apps and databases, but not their configuration.',
    ]);
  });

  it('groups the environments it reaches the same way', () => {
    expect(
      rolePlainSummary('platform_user', [
        { handle: 'staging', scopes: ['tunnel'] },
        { handle: 'production', scopes: ['read'] },
        { handle: 'qa', scopes: ['tunnel'] },
      ]),
    ).toEqual([
      'In staging and qa: can see its apps and databases, but not their configuration; open tunnels into ' +
        'databases, without seeing their passwords.',
      'In production: can see everything, configuration values included, except database passwords.',
    ]);
  });

  it('counts the environments it cannot name, never saying a role reaches none when it reaches some', () => {
    // A role admin who sees none of the role's environments.
    expect(rolePlainSummary('platform_user', [], { unseen: 2, unlisted: 0 })).toEqual([
      'Reaches 2 environments you cannot see; an owner can tell you what it may do there.',
    ]);
    expect(
      rolePlainSummary('platform_user', [{ handle: 'staging', scopes: ['admin'] }], {
        unseen: 1,
        unlisted: 3,
      }),
    ).toEqual([
      'In staging: can do anything, including renaming the environment.',
      'Also reaches 3 more environments, not listed here.',
      'Also reaches 1 environment you cannot see; an owner can tell you what it may do there.',
    ]);
    expect(rolePlainSummary('platform_user', [], { unseen: 0, unlisted: 1 })).toEqual([
      'Reaches 1 more environment, not listed here.',
    ]);
    // The owner types are summed up by their type whatever the counts.
    expect(rolePlainSummary('platform_owner', [], { unseen: 4, unlisted: 0 })).toHaveLength(1);
  });
});
