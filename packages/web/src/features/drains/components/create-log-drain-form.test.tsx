import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CreateLogDrainForm } from './create-log-drain-form.tsx';

function setup(denial: string | null = null) {
  const onSubmit = vi.fn(async () => {});
  render(
    <CreateLogDrainForm
      denial={denial}
      elasticsearchDatabases={[{ id: '7', handle: 'search' }]}
      onSubmit={onSubmit}
    />,
  );
  const user = userEvent.setup();
  const type = screen.getByRole('combobox', { name: 'Type' });
  const save = screen.getByRole('button', { name: 'Save Log Drain' });
  return { onSubmit, user, type, save };
}

describe('CreateLogDrainForm (spec 2 §5)', () => {
  it('asks each type for its own fields, with the spec messages', async () => {
    const { user, type, save, onSubmit } = setup();
    await user.type(screen.getByRole('textbox', { name: 'Handle' }), 'logs');
    await user.click(save);
    expect(await screen.findByText('Must provide a URL for log drain')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'URL' }), 'http://logs.example.com');
    await user.click(save);
    expect(await screen.findByText('Must begin with https://')).toBeInTheDocument();

    await user.selectOptions(type, 'papertrail');
    expect(screen.queryByRole('textbox', { name: 'URL' })).toBeNull();
    await user.click(save);
    expect(await screen.findByText('Must provide a Drain Host')).toBeInTheDocument();
    expect(screen.getByText('Port must be a number between 1 and 65535')).toBeInTheDocument();

    await user.selectOptions(type, 'insightops');
    await user.click(save);
    expect(await screen.findByText('Must provide a token for log drain.')).toBeInTheDocument();

    await user.selectOptions(type, 'elasticsearch_database');
    await user.click(save);
    expect(await screen.findByText('Must provide an Elasticsearch database')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("sends only the chosen type's fields and the sources", async () => {
    const { user, type, save, onSubmit } = setup();
    await user.type(screen.getByRole('textbox', { name: 'Handle' }), 'syslog');
    await user.type(screen.getByRole('textbox', { name: 'URL' }), 'https://left.behind.example.com');
    await user.selectOptions(type, 'syslog_tls_tcp');
    await user.type(screen.getByRole('textbox', { name: 'Drain Host' }), 'logs.example.com');
    await user.type(screen.getByRole('textbox', { name: 'Drain Port' }), '6514');
    await user.type(screen.getByRole('textbox', { name: 'Token' }), 'tok-1');
    await user.click(screen.getByRole('checkbox', { name: 'Databases' }));
    await user.click(save);
    expect(onSubmit).toHaveBeenCalledWith({
      handle: 'syslog',
      drain_type: 'syslog_tls_tcp',
      drain_host: 'logs.example.com',
      drain_port: '6514',
      logging_token: 'tok-1',
      drain_apps: true,
      drain_databases: false,
      drain_ephemeral_sessions: true,
      drain_proxies: false,
    });
  });

  it('stays disabled, with the reason, for a caller without the Ops scope', () => {
    const { save } = setup('You do not have "observability" permissions for this environment (id:1)');
    expect(save).toHaveAttribute('aria-disabled', 'true');
  });
});
