import { type Actor, scopeDenial } from '@berth/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { EnvironmentNamesProvider } from '../../lib/environment-names.tsx';
import { ScopedButton } from './permission-button.tsx';

// spec 1 §6: a read-only member (basic_read) lacks every acting scope; the button says why.
const readOnly: Actor = {
  roleTypes: ['platform_user'],
  permissions: [{ environmentId: '42', scope: 'basic_read' }],
};
const deployer: Actor = {
  roleTypes: ['platform_user'],
  permissions: [{ environmentId: '42', scope: 'deploy' }],
};

describe('ScopedButton', () => {
  it('is aria-disabled (still focusable) with the spec tooltip when the actor lacks the scope', async () => {
    const onClick = vi.fn();
    render(
      <ScopedButton denial={scopeDenial(readOnly, 'deploy', '42')} onClick={onClick}>
        Deploy
      </ScopedButton>,
    );
    const button = screen.getByRole('button', { name: 'Deploy' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).not.toHaveAttribute('disabled');
    // The spec's text first, then its plain words (issue 20); outside the shell the name is unknown.
    expect(button).toHaveAccessibleDescription(
      'You do not have "deploy" permissions for this environment (id:42) Needs Deployment on this environment. ' +
        'Ask an owner of the organization, or an admin of one of your roles, to grant it.',
    );
    expect(screen.getByRole('tooltip', { hidden: true })).toHaveTextContent(
      'You do not have "deploy" permissions for this environment (id:42)',
    );
    const user = userEvent.setup();
    // Keyboard users reach it to read the reason; Enter and Space still do nothing.
    await user.tab();
    expect(button).toHaveFocus();
    await user.keyboard('{Enter}[Space]');
    expect(onClick).not.toHaveBeenCalled();
    await user.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('names the environment by its handle in the plain words when the shell knows it', () => {
    render(
      <EnvironmentNamesProvider names={(id) => (id === '42' ? 'staging' : undefined)}>
        <ScopedButton denial={scopeDenial(readOnly, 'sensitive', '42')}>Reveal</ScopedButton>
      </EnvironmentNamesProvider>,
    );
    expect(screen.getByRole('button', { name: 'Reveal' })).toHaveAccessibleDescription(
      expect.stringContaining('Needs Sensitive Access on the staging environment.'),
    );
  });

  it('adds nothing to a text that is already plain', () => {
    render(<ScopedButton denial="Stop the operation first">Deploy</ScopedButton>);
    expect(screen.getByRole('button', { name: 'Deploy' })).toHaveAccessibleDescription(
      'Stop the operation first',
    );
  });

  it('does not submit its form while denied', async () => {
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <ScopedButton denial="No" type="submit">
          Save
        </ScopedButton>
      </form>,
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('acts normally when the actor holds the scope (deploy grants observability)', async () => {
    const onClick = vi.fn();
    render(
      <ScopedButton denial={scopeDenial(deployer, 'observability', '42')} onClick={onClick}>
        Scale
      </ScopedButton>,
    );
    const button = screen.getByRole('button', { name: 'Scale' });
    expect(button).toBeEnabled();
    expect(button).not.toHaveAccessibleDescription();
    expect(screen.queryByRole('tooltip', { hidden: true })).not.toBeInTheDocument();
    await userEvent.setup().click(button);
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('stays disabled by its own condition even when allowed', () => {
    render(
      <ScopedButton denial={null} disabled>
        Deprovision
      </ScopedButton>,
    );
    expect(screen.getByRole('button', { name: 'Deprovision' })).toBeDisabled();
  });
});
