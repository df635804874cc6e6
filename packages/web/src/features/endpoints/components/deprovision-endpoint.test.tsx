import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { deniedDescription } from '../../../../test/denials.ts';
import { DeprovisionEndpoint } from './deprovision-endpoint.tsx';

const HOSTNAME = 'app-12.on-berth.localhost';

function setup(denial: string | null = null) {
  const onDeprovision = vi.fn(async () => {});
  render(<DeprovisionEndpoint hostname={HOSTNAME} denial={denial} onDeprovision={onDeprovision} />);
  return {
    onDeprovision,
    user: userEvent.setup(),
    input: screen.getByRole('textbox', { name: 'Type the endpoint hostname to confirm' }),
    button: screen.getByRole('button', { name: 'Deprovision Endpoint' }),
  };
}

describe('DeprovisionEndpoint (spec 2 §5: the hostname typed exactly)', () => {
  it.each(['', 'app-12', 'APP-12.ON-BERTH.LOCALHOST', ` ${HOSTNAME}`, `${HOSTNAME}.`])(
    'stays disabled for %j',
    async (typed) => {
      const { user, input, button, onDeprovision } = setup();
      if (typed) await user.type(input, typed);
      expect(button).toBeDisabled();
      await user.type(input, '{Enter}');
      expect(onDeprovision).not.toHaveBeenCalled();
    },
  );

  it('deprovisions once the hostname matches', async () => {
    const { user, input, button, onDeprovision } = setup();
    await user.type(input, HOSTNAME);
    expect(button).toBeEnabled();
    await user.click(button);
    expect(onDeprovision).toHaveBeenCalledTimes(1);
  });

  it('shows the server message', async () => {
    const { user, input, button, onDeprovision } = setup();
    onDeprovision.mockRejectedValueOnce(new Error('Endpoint is already deprovisioning'));
    await user.type(input, HOSTNAME);
    await user.click(button);
    expect(await screen.findByText('Endpoint is already deprovisioning')).toBeInTheDocument();
  });

  it('is refused without destroy scope, with the tooltip', () => {
    const denial = 'You do not have "destroy" permissions for this environment (id:10)';
    const { button, input } = setup(denial);
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(deniedDescription(denial));
    expect(input).toBeDisabled();
  });
});
