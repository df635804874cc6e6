import { handleMessages } from '@berth/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppSettings } from './app-settings.tsx';
import { DeployForm } from './deploy-form.tsx';

const NO_DENIALS = { rename: null, deprovision: null };

describe('deploy form', () => {
  it('names the ref on its button, sends it trimmed, and main when left empty', async () => {
    const onDeploy = vi.fn(async () => undefined);
    render(<DeployForm denial={null} onDeploy={onDeploy} />);
    const user = userEvent.setup();
    const ref = screen.getByRole('textbox', { name: 'Git Ref' });
    await user.clear(ref);
    await user.type(ref, ' release-2 ');
    await user.click(screen.getByRole('button', { name: 'Deploy release-2' }));
    expect(onDeploy).toHaveBeenLastCalledWith('release-2');
    await user.clear(ref);
    await user.click(screen.getByRole('button', { name: 'Deploy main' }));
    expect(onDeploy).toHaveBeenLastCalledWith('main');
  });

  it("shows the server's refusal", async () => {
    const onDeploy = vi.fn(async () => {
      throw new Error('App web is being deprovisioned');
    });
    render(<DeployForm denial={null} onDeploy={onDeploy} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Deploy main' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('App web is being deprovisioned');
  });
});

describe('app settings: rename', () => {
  it("checks the handle with core's rule and saves only a changed handle", async () => {
    const onRename = vi.fn(async () => undefined);
    render(<AppSettings handle="web" denials={NO_DENIALS} onRename={onRename} onDeprovision={vi.fn()} />);
    const user = userEvent.setup();
    const save = screen.getByRole('button', { name: 'Save Changes' });
    expect(save).toBeDisabled();
    const field = screen.getByRole('textbox', { name: 'New Handle' });
    await user.clear(field);
    await user.type(field, 'Web App');
    await user.click(save);
    expect(screen.getByText(handleMessages.pattern)).toBeInTheDocument();
    expect(onRename).not.toHaveBeenCalled();
    await user.clear(field);
    await user.type(field, 'web-2');
    await user.click(save);
    expect(onRename).toHaveBeenCalledWith('web-2');
  });
});
