import { requiredMessage } from '@berth/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CreateRoleForm } from './create-role-form.tsx';
import { RenameRoleForm } from './rename-role-form.tsx';

const nameField = (name: string) => screen.getByRole('textbox', { name });

describe('role name forms (spec 1 §2 New Role, §5 Role rename)', () => {
  it('New Role: an empty name gets the spec message; a name is sent trimmed', async () => {
    const onCreate = vi.fn(async () => undefined);
    render(<CreateRoleForm denial={null} onCreate={onCreate} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Create Role' }));
    expect(screen.getByText(requiredMessage('Name'))).toBeInTheDocument();
    expect(onCreate).not.toHaveBeenCalled();
    await user.type(nameField('Name'), '  Readers ');
    await user.click(screen.getByRole('button', { name: 'Create Role' }));
    expect(onCreate).toHaveBeenCalledWith('Readers');
  });

  it('New Role: a denied caller sends nothing, even with Enter', async () => {
    const onCreate = vi.fn(async () => undefined);
    render(<CreateRoleForm denial="Only owners create roles" onCreate={onCreate} />);
    expect(nameField('Name')).toBeDisabled();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Create Role' }));
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('Rename: Save waits for a change, Enter on the unchanged name sends nothing', async () => {
    const onRename = vi.fn(async () => undefined);
    render(<RenameRoleForm currentName="Deployers" denial={null} onRename={onRename} />);
    const user = userEvent.setup();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await user.type(nameField('Role name'), ' {Enter}');
    expect(onRename).not.toHaveBeenCalled();
    await user.clear(nameField('Role name'));
    await user.type(nameField('Role name'), 'Shippers{Enter}');
    expect(onRename).toHaveBeenCalledWith('Shippers');
  });

  it("Rename: an empty name gets the spec message, the server's refusal a banner", async () => {
    const onRename = vi.fn(async () => {
      throw new Error('A role named Owners already exists');
    });
    render(<RenameRoleForm currentName="Deployers" denial={null} onRename={onRename} />);
    const user = userEvent.setup();
    await user.clear(nameField('Role name'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(requiredMessage('Name'))).toBeInTheDocument();
    await user.type(nameField('Role name'), 'Owners');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A role named Owners already exists');
  });
});
