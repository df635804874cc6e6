import { envMessages } from '@berth/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfigurationEditor, envChanges } from './configuration-editor.tsx';

function editor() {
  return screen.getByRole('textbox', { name: 'Environment Variables' });
}

describe('configuration editor', () => {
  it("shows the spec's message for a key breaking the pattern and sends nothing", async () => {
    const onSave = vi.fn(async () => undefined);
    render(<ConfigurationEditor current={{}} denial={null} onSave={onSave} />);
    const user = userEvent.setup();
    await user.type(editor(), '1BAD=x');
    expect(screen.getByText('1BAD does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/')).toBeInTheDocument();
    expect(screen.getByText(envMessages.badKey('1BAD'))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Configuration' })).toBeDisabled();
    expect(editor()).toHaveAttribute('aria-invalid', 'true');
    expect(onSave).not.toHaveBeenCalled();
  });

  it("shows the spec's message for a key given twice", async () => {
    render(<ConfigurationEditor current={{}} denial={null} onSave={vi.fn()} />);
    await userEvent.setup().type(editor(), 'PORT=1{Enter}PORT=2');
    expect(screen.getByText('PORT found multiple times, must be unique')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Configuration' })).toBeDisabled();
  });

  it('sends only the changes: new and changed keys with their values, removed keys as ""', async () => {
    const onSave = vi.fn(async () => undefined);
    render(
      <ConfigurationEditor
        current={{ KEEP: 'same', CHANGE: 'old', GONE: 'x' }}
        denial={null}
        onSave={onSave}
      />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit Variables' }));
    expect(editor()).toHaveValue('CHANGE=old\nGONE=x\nKEEP=same');
    await user.clear(editor());
    // A quoted value may span lines (spec 2 §5).
    await user.type(editor(), 'KEEP=same{Enter}CHANGE=new{Enter}CERT="line one{Enter}line two"');
    await user.click(screen.getByRole('button', { name: 'Save Configuration' }));
    expect(onSave).toHaveBeenCalledWith({ CHANGE: 'new', CERT: 'line one\nline two', GONE: '' });
  });

  it('says so when nothing changed', async () => {
    const onSave = vi.fn(async () => undefined);
    render(<ConfigurationEditor current={{ A: '1' }} denial={null} onSave={onSave} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit Variables' }));
    await user.click(screen.getByRole('button', { name: 'Save Configuration' }));
    expect(screen.getByText('No changes to save')).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
  });

  it("shows the server's message when the configure call fails", async () => {
    const onSave = vi.fn(async () => {
      throw new Error('App web is being deprovisioned');
    });
    render(<ConfigurationEditor current={{}} denial={null} onSave={onSave} />);
    const user = userEvent.setup();
    await user.type(editor(), 'A=1');
    await user.click(screen.getByRole('button', { name: 'Save Configuration' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('App web is being deprovisioned');
  });

  it('hides every value until it is revealed, one by one or all at once (issue 20)', async () => {
    const { container } = render(
      <ConfigurationEditor
        current={{ SECRET_KEY: 's3cr3t-value', DATABASE_URL: 'postgres://u:pw@db/x', EMPTY: null }}
        denial={null}
        onSave={vi.fn()}
      />,
    );
    // Listed by key, and no value anywhere in the page.
    expect(screen.getByText('SECRET_KEY')).toBeInTheDocument();
    expect(screen.getByText('DATABASE_URL')).toBeInTheDocument();
    expect(container.innerHTML).not.toContain('s3cr3t-value');
    expect(container.innerHTML).not.toContain('pw@db');
    expect(screen.queryByRole('textbox', { name: 'Environment Variables' })).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Reveal SECRET_KEY' }));
    expect(screen.getByText('s3cr3t-value')).toBeInTheDocument();
    expect(container.innerHTML).not.toContain('pw@db');
    await user.click(screen.getByRole('button', { name: 'Hide SECRET_KEY' }));
    expect(container.innerHTML).not.toContain('s3cr3t-value');

    await user.click(screen.getByRole('button', { name: 'Reveal All' }));
    expect(screen.getByText('s3cr3t-value')).toBeInTheDocument();
    expect(screen.getByText('postgres://u:pw@db/x')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Hide All' }));
    expect(container.innerHTML).not.toContain('s3cr3t-value');

    // Editing shows the text; Cancel hides it again.
    await user.click(screen.getByRole('button', { name: 'Edit Variables' }));
    expect(editor()).toHaveValue('DATABASE_URL=postgres://u:pw@db/x\nSECRET_KEY=s3cr3t-value');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(container.innerHTML).not.toContain('s3cr3t-value');
  });

  it('keeps Edit Variables disabled, with the reason, for a caller who may not configure', () => {
    const denial = 'You do not have "deploy" permissions for this environment (id:1)';
    render(<ConfigurationEditor current={{ A: '1' }} denial={denial} onSave={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Edit Variables' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('computes changes against the current configuration', () => {
    expect(envChanges({ A: '1', B: null }, [{ key: 'A', value: '1' }])).toEqual({});
    expect(envChanges({ A: '1' }, [])).toEqual({ A: '' });
  });
});
