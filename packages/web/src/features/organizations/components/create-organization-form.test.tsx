import { plainTextMessages, requiredMessage } from '@berth/core';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CreateOrganizationForm } from './create-organization-form.tsx';

// The form reads core's organization name schema, so the server's refusals of issue 15 show here first.
describe('CreateOrganizationForm', () => {
  const field = () => screen.getByRole('textbox', { name: 'Organization name' });
  const submit = () => screen.getByRole('button', { name: 'Create Organization' });

  it('refuses a right-to-left override or a zero-width space, and sends nothing', async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(<CreateOrganizationForm onSubmit={onSubmit} />);
    const user = userEvent.setup();
    await user.type(field(), 'Acme\u202eInc');
    await user.click(submit());
    expect(await screen.findByText(plainTextMessages.invisible('Name'))).toBeInTheDocument();
    await user.clear(field());
    await user.type(field(), 'Acme\u200b');
    await user.click(submit());
    expect(await screen.findByText(plainTextMessages.invisible('Name'))).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses a control character pasted into the name', async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(<CreateOrganizationForm onSubmit={onSubmit} />);
    // A text input strips line breaks itself; a pasted tab or other control character stays.
    fireEvent.input(field(), { target: { value: 'Acme\tInc' } });
    await userEvent.setup().click(submit());
    expect(await screen.findByText(plainTextMessages.control('Name'))).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('takes a name in any script, trimmed, and keeps the empty-name message', async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(<CreateOrganizationForm onSubmit={onSubmit} />);
    const user = userEvent.setup();
    await user.click(submit());
    expect(await screen.findByText(requiredMessage('Name'))).toBeInTheDocument();
    await user.type(field(), ' שלום 東京 Société ');
    await user.click(submit());
    expect(onSubmit).toHaveBeenCalledWith('שלום 東京 Société');
  });
});
