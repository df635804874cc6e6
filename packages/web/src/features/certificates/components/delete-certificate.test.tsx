import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { deniedDescription } from '../../../../test/denials.ts';
import { DeleteCertificate } from './delete-certificate.tsx';

const IN_USE =
  'This certificate is still in use and cannot be deleted. Remove all endpoints before trying again.';

function setup({ endpointCount = 0 as number | null, denial = null as string | null } = {}) {
  const onDelete = vi.fn(async () => {});
  render(
    <DeleteCertificate
      commonName="www.example.com"
      endpointCount={endpointCount}
      denial={denial}
      onDelete={onDelete}
    />,
  );
  return {
    onDelete,
    user: userEvent.setup(),
    input: screen.getByRole('textbox', { name: 'Type the certificate common name to confirm' }),
    button: screen.getByRole('button', { name: 'Delete Certificate' }),
  };
}

describe('DeleteCertificate (spec 2 §5, §8)', () => {
  it('needs the common name typed exactly', async () => {
    const { user, input, button, onDelete } = setup();
    await user.type(input, 'WWW.example.com');
    expect(button).toBeDisabled();
    await user.clear(input);
    await user.type(input, 'www.example.com');
    expect(button).toBeEnabled();
    await user.click(button);
    expect(onDelete).toHaveBeenCalledTimes(1);
  });

  it('refuses while an endpoint uses the certificate, with the spec message', () => {
    const { input, button } = setup({ endpointCount: 2 });
    expect(screen.getByText(IN_USE)).toBeInTheDocument();
    expect(input).toBeDisabled();
    expect(button).toBeDisabled();
  });

  it('shows the server refusal as it is', async () => {
    const { user, input, button, onDelete } = setup();
    onDelete.mockRejectedValueOnce(new Error(IN_USE));
    await user.type(input, 'www.example.com');
    await user.click(button);
    expect(await screen.findByText(IN_USE)).toBeInTheDocument();
  });

  it('needs sensitive scope', () => {
    const denial = 'You do not have "sensitive" permissions for this environment (id:10)';
    const { button } = setup({ denial });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(deniedDescription(denial));
  });
});
