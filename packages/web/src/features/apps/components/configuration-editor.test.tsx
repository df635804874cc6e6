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
    expect(editor()).toHaveValue('CHANGE=old\nGONE=x\nKEEP=same');
    const user = userEvent.setup();
    await user.clear(editor());
    // A quoted value may span lines (spec 2 §5).
    await user.type(editor(), 'KEEP=same{Enter}CHANGE=new{Enter}CERT="line one{Enter}line two"');
    await user.click(screen.getByRole('button', { name: 'Save Configuration' }));
    expect(onSave).toHaveBeenCalledWith({ CHANGE: 'new', CERT: 'line one\nline two', GONE: '' });
  });

  it('says so when nothing changed', async () => {
    const onSave = vi.fn(async () => undefined);
    render(<ConfigurationEditor current={{ A: '1' }} denial={null} onSave={onSave} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save Configuration' }));
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

  it('computes changes against the current configuration', () => {
    expect(envChanges({ A: '1', B: null }, [{ key: 'A', value: '1' }])).toEqual({});
    expect(envChanges({ A: '1' }, [])).toEqual({ A: '' });
  });
});
