import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CreateStackForm } from './create-stack-form.tsx';

describe('CreateStackForm (spec 2 §2, §5)', () => {
  it("refuses an empty form with the name, region ('none') and terms messages", async () => {
    const onSubmit = vi.fn();
    render(<CreateStackForm onSubmit={onSubmit} />);
    expect(screen.getByRole('combobox', { name: 'AWS region' })).toHaveValue('none');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Request Dedicated Stack' }));
    expect(await screen.findByText('Stack name must not be empty')).toBeInTheDocument();
    expect(screen.getByText('must select an AWS region')).toBeInTheDocument();
    expect(screen.getByText('You must accept the terms to request a dedicated stack')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it.each([
    ['Acme_Prod', 'Stack name may contain only lowercase letters, digits and hyphens'],
    ['a'.repeat(27), 'Stack name must be at most 26 characters'],
  ])('applies the stack name rule to %j', async (name, message) => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<CreateStackForm onSubmit={onSubmit} />);
    await user.type(screen.getByRole('textbox', { name: 'Stack name' }), name);
    await user.click(screen.getByRole('button', { name: 'Request Dedicated Stack' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Stack name' })).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits a valid request', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<CreateStackForm onSubmit={onSubmit} />);
    await user.type(screen.getByRole('textbox', { name: 'Stack name' }), 'acme-prod');
    await user.selectOptions(screen.getByRole('combobox', { name: 'AWS region' }), 'eu-west-1');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Request Dedicated Stack' }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      name: 'acme-prod',
      region: 'eu-west-1',
      acceptTerms: true,
    });
  });
});
