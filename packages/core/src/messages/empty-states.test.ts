import { describe, expect, it } from 'vitest';
import { emptyStateMessages } from './empty-states.ts';

describe('empty states (spec 1 §8)', () => {
  it('are the spec texts', () => {
    expect(emptyStateMessages.noPendingInvitations).toBe('No pending invitations');
    expect(emptyStateMessages.noPermissions).toBe('No permissions set');
    expect(emptyStateMessages.noEnvironments).toBe('No environments exist');
    expect(emptyStateMessages.roleWithoutMembers('Developers')).toBe('Developers currently has no members.');
  });
});
