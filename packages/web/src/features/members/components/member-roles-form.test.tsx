import { memberMessages } from '@berth/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { deniedDescription } from '../../../../test/denials.ts';
import { MemberRolesForm } from './member-roles-form.tsx';

const ROLES = [
  { id: 'r1', name: 'Owners', lockedReason: null },
  { id: 'r2', name: 'Deployers', lockedReason: null },
];

describe('member roles form (spec 1 §4 Role editing)', () => {
  it('saves only a changed selection and keeps the last role checked', async () => {
    const onSave = vi.fn(async () => undefined);
    render(
      <MemberRolesForm roles={ROLES} memberRoleIds={new Set(['r1'])} saveDenial={null} onSave={onSave} />,
    );
    const user = userEvent.setup();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    // The only role cannot be unchecked, and says why in the server's words.
    await user.click(screen.getByRole('checkbox', { name: 'Owners' }));
    expect(screen.getByRole('checkbox', { name: 'Owners' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Owners' })).toHaveAccessibleDescription(
      deniedDescription(memberMessages.lastRole),
    );
    await user.click(screen.getByRole('checkbox', { name: 'Deployers' }));
    await user.click(screen.getByRole('checkbox', { name: 'Owners' }));
    expect(screen.getByRole('checkbox', { name: 'Owners' })).not.toBeChecked();
    await user.click(save);
    expect(onSave).toHaveBeenCalledWith(new Set(['r2']));
  });

  it("shows the server's refusal", async () => {
    const onSave = vi.fn(async () => {
      throw new Error('Only owners may grant the Owners role');
    });
    render(
      <MemberRolesForm roles={ROLES} memberRoleIds={new Set(['r2'])} saveDenial={null} onSave={onSave} />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Owners' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Only owners may grant the Owners role');
  });
});
