import { envMessages } from '@berth/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfigurationEditor, envChanges } from './configuration-editor.tsx';

const save = () => screen.getByRole('button', { name: 'Save Configuration' });

describe('configuration editor', () => {
  it("shows the spec's message for a key breaking the pattern and sends nothing", async () => {
    const onSave = vi.fn(async () => undefined);
    render(<ConfigurationEditor current={{}} sensitiveKeys={[]} denial={null} onSave={onSave} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Key of new variable 1' }), '1BAD');
    await user.type(screen.getByRole('textbox', { name: 'Value of new variable 1' }), 'x');
    expect(screen.getByText('1BAD does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/')).toBeInTheDocument();
    expect(save()).toBeDisabled();
    expect(onSave).not.toHaveBeenCalled();
  });

  it("shows the spec's message for a key given twice, and asks a value of each key", async () => {
    render(<ConfigurationEditor current={{}} sensitiveKeys={[]} denial={null} onSave={vi.fn()} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Key of new variable 1' }), 'PORT');
    expect(screen.getByText(envMessages.missingValue('PORT'))).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Value of new variable 1' }), '1');
    await user.click(screen.getByRole('button', { name: 'Add Variable' }));
    await user.type(screen.getByRole('textbox', { name: 'Key of new variable 2' }), 'PORT');
    await user.type(screen.getByRole('textbox', { name: 'Value of new variable 2' }), '2');
    expect(screen.getByText('PORT found multiple times, must be unique')).toBeInTheDocument();
    expect(save()).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Remove new variable 2' }));
    expect(save()).toBeEnabled();
  });

  it('sends only the changes: new and changed keys with their values, removed keys as ""', async () => {
    const onSave = vi.fn(async () => undefined);
    render(
      <ConfigurationEditor
        current={{ KEEP: 'same', CHANGE: 'old', GONE: 'x' }}
        sensitiveKeys={[]}
        denial={null}
        onSave={onSave}
      />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit Variables' }));
    // Saved values stay masked in the editor until revealed one at a time.
    expect(document.body.innerHTML).not.toContain('old');
    await user.click(screen.getByRole('button', { name: 'Reveal CHANGE' }));
    const change = screen.getByRole('textbox', { name: 'Value of CHANGE' });
    expect(change).toHaveValue('old');
    expect(screen.queryByRole('textbox', { name: 'Value of KEEP' })).not.toBeInTheDocument();
    await user.clear(change);
    await user.type(change, 'new');
    await user.click(screen.getByRole('button', { name: 'Remove GONE' }));
    await user.click(screen.getByRole('button', { name: 'Add Variable' }));
    await user.type(screen.getByRole('textbox', { name: 'Key of new variable 3' }), 'CERT');
    await user.type(
      screen.getByRole('textbox', { name: 'Value of new variable 3' }),
      'line one{Enter}line two',
    );
    await user.click(save());
    expect(onSave).toHaveBeenCalledWith({ CHANGE: 'new', CERT: 'line one\nline two', GONE: '' }, []);
  });

  it('says so when nothing changed', async () => {
    const onSave = vi.fn(async () => undefined);
    render(<ConfigurationEditor current={{ A: '1' }} sensitiveKeys={[]} denial={null} onSave={onSave} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit Variables' }));
    await user.click(save());
    expect(screen.getByText('No changes to save')).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
  });

  it("shows the server's message when the configure call fails", async () => {
    const onSave = vi.fn(async () => {
      throw new Error('App web is being deprovisioned');
    });
    render(<ConfigurationEditor current={{}} sensitiveKeys={[]} denial={null} onSave={onSave} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Key of new variable 1' }), 'A');
    await user.type(screen.getByRole('textbox', { name: 'Value of new variable 1' }), '1');
    await user.click(save());
    expect(await screen.findByRole('alert')).toHaveTextContent('App web is being deprovisioned');
  });

  it('marks a new variable sensitive when it is saved', async () => {
    const onSave = vi.fn(async () => undefined);
    render(<ConfigurationEditor current={{ PLAIN: 'p' }} sensitiveKeys={[]} denial={null} onSave={onSave} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit Variables' }));
    await user.click(screen.getByRole('button', { name: 'Add Variable' }));
    await user.type(screen.getByRole('textbox', { name: 'Key of new variable 2' }), 'TOKEN');
    await user.type(screen.getByRole('textbox', { name: 'Value of new variable 2' }), 't0k3n');
    await user.click(screen.getByRole('checkbox', { name: 'Sensitive new variable 2' }));
    // An existing visible variable may be marked too, without changing its value.
    await user.click(screen.getByRole('checkbox', { name: 'Sensitive PLAIN' }));
    await user.click(save());
    expect(onSave).toHaveBeenCalledWith({ TOKEN: 't0k3n' }, ['PLAIN', 'TOKEN']);
  });

  it('never puts a saved sensitive value in the page: it is kept, replaced or removed', async () => {
    const onSave = vi.fn(async () => undefined);
    const current = { API_KEY: 'sup3r-s3cr3t', OTHER_KEY: 'an0ther-s3cr3t', PLAIN: 'visible' };
    const { container } = render(
      <ConfigurationEditor
        current={current}
        sensitiveKeys={['API_KEY', 'OTHER_KEY']}
        denial={null}
        onSave={onSave}
      />,
    );
    const user = userEvent.setup();
    // Listed: no Reveal for a sensitive variable, and Reveal All leaves it out.
    expect(screen.queryByRole('button', { name: 'Reveal API_KEY' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reveal All' }));
    expect(screen.getByText('visible')).toBeInTheDocument();
    expect(container.innerHTML).not.toContain('s3cr3t');

    await user.click(screen.getByRole('button', { name: 'Edit Variables' }));
    expect(container.innerHTML).not.toContain('s3cr3t');
    expect(screen.getByRole('checkbox', { name: 'Sensitive API_KEY' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Sensitive API_KEY' })).toBeDisabled();
    // Replace asks a new value (not the old one); Keep goes back to the lock.
    await user.click(screen.getByRole('button', { name: 'Replace API_KEY' }));
    const replacement = screen.getByRole('textbox', { name: 'New value of API_KEY' });
    expect(replacement).toHaveValue('');
    expect(screen.getByText(envMessages.missingReplacement('API_KEY'))).toBeInTheDocument();
    expect(save()).toBeDisabled();
    await user.type(replacement, 'r0tated');
    await user.click(save());
    // The untouched sensitive value is not sent: the server keeps it.
    expect(onSave).toHaveBeenLastCalledWith({ API_KEY: 'r0tated' }, []);
  });

  it('removes a sensitive variable with its row', async () => {
    const onSave = vi.fn(async () => undefined);
    render(
      <ConfigurationEditor
        current={{ API_KEY: 's3cr3t' }}
        sensitiveKeys={['API_KEY']}
        denial={null}
        onSave={onSave}
      />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit Variables' }));
    await user.click(screen.getByRole('button', { name: 'Replace API_KEY' }));
    await user.click(screen.getByRole('button', { name: 'Keep API_KEY' }));
    expect(screen.getByText('Sensitive: hidden')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove API_KEY' }));
    await user.click(save());
    expect(onSave).toHaveBeenCalledWith({ API_KEY: '' }, []);
  });

  it('keeps Edit Variables disabled, with the reason, for a caller who may not configure', () => {
    const denial = 'You do not have "deploy" permissions for this environment (id:1)';
    render(<ConfigurationEditor current={{ A: '1' }} sensitiveKeys={[]} denial={denial} onSave={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Edit Variables' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('computes changes against the current configuration', () => {
    expect(envChanges({ A: '1', B: null }, [{ key: 'A', value: '1' }])).toEqual({});
    expect(envChanges({ A: '1' }, [])).toEqual({ A: '' });
  });
});
